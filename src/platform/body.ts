import { ApiError } from "./errors";

/**
 * The body as text, counted in bytes while it streams and never read past the cap (a declared
 * content-length over it is refused before reading): 750 KB of "€" is 2 MB, not 750,000 characters.
 */
export async function bodyText(req: Request, max: number): Promise<string> {
  const tooLarge = () => new ApiError("payload_too_large", `The body may be at most ${max / 1024} KiB (counted in bytes).`, { field: "body" });
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > max) {
      await reader.cancel().catch(() => {}); // stop reading: the rest is never buffered
      throw tooLarge();
    }
    parts.push(value);
  }
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const p of parts) all.set(p, at), (at += p.byteLength);
  return new TextDecoder().decode(all);
}
