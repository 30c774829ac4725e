/** Pure checks of sign-up contact details. */

/** A deliberately plain e-mail check: one @, a dotted domain, no spaces; lower-cased. */
export function normaliseEmail(raw: string): string | null {
  const s = raw.trim().toLowerCase();
  if (s.length > 254 || !/^[^\s@]+@[^\s@]+\.[a-z]{2,}$/.test(s)) return null;
  return s;
}

/** A mobile number in E.164. UK numbers may be written 07xxx xxxxxx or +44 7xxx xxxxxx. */
export function normaliseMobile(raw: string): string | null {
  const s = raw.replace(/[\s().-]/g, "");
  if (/^07\d{9}$/.test(s)) return `+44${s.slice(1)}`;
  if (/^(\+|00)447\d{9}$/.test(s)) return `+44${s.replace(/^(\+|00)44/, "")}`;
  if (/^\+[1-9]\d{7,14}$/.test(s) && !s.startsWith("+44")) return s;
  return null;
}

export const maskEmail = (e: string) => e.replace(/^(.)[^@]*(@.*)$/, "$1***$2");
export const maskMobile = (m: string) => `${m.slice(0, 3)}******${m.slice(-3)}`;
