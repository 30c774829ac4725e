/**
 * A whole number with its thousands grouped by commas, as `toLocaleString("en-GB")` writes it (1,000,000). By hand
 * where it runs at import (limits written into descriptions and messages): the first toLocaleString of an isolate
 * loads the locale data, over 10 ms of a cold start (issue 30 §1). Elsewhere toLocaleString is as good.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-GB");
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? `-${digits}` : digits;
}
