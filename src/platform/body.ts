import { readCapped } from "../shared/bytes";
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
  return new TextDecoder().decode(await readCapped(req.body, { maxBytes: max, sizeHint: declared, tooLarge }));
}
