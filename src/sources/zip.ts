/** Zip archives read as they arrive (fflate's streaming inflate): the register downloads. */
import { Unzip, UnzipInflate } from "fflate";
import { RegisterFormatError } from "./format-error";

/**
 * Compressed bytes handed to the inflater at a time: deflate inflates at most 1,032 times, so one push makes at most
 * about 16 MiB, however large the chunks the network delivers (a 1 MiB chunk of a zip bomb would make 1 GiB at once).
 */
const UNZIP_PUSH = 16 * 1024;
/** Inflated bytes of the member read: the largest register file (Companies House's Basic Company Data) is about 2.7 GB. */
export const MAX_ZIP_MEMBER_BYTES = 8 * 1024 ** 3;
/** Entries looked at before the member is found (the register zips hold one to a dozen). */
export const MAX_ZIP_ENTRIES = 10_000;

/**
 * The unzipped bytes of one member (by name, or the first whose name a predicate accepts) of a zip that arrives as a stream, yielded as they are inflated.
 * At most one 16 KiB push's output (about 16 MiB) is held at a time. Throws RegisterFormatError when the download is
 * not a zip, lacks the member, ends before the member does (a truncated download), inflates past `maxBytes`
 * (MAX_ZIP_MEMBER_BYTES) or has more than `maxEntries` (MAX_ZIP_ENTRIES) entries before the member.
 */
export async function* unzipMember(
  body: ReadableStream<Uint8Array>,
  member: string | ((name: string) => boolean),
  label: string,
  limits: { maxBytes?: number; maxEntries?: number } = {},
): AsyncGenerator<Uint8Array> {
  const maxBytes = limits.maxBytes ?? MAX_ZIP_MEMBER_BYTES;
  const maxEntries = limits.maxEntries ?? MAX_ZIP_ENTRIES;
  const wanted = typeof member === "string" ? (name: string) => name.toLowerCase() === member.toLowerCase() : member;
  const what = typeof member === "string" ? member : "the file it should hold";
  const out: Uint8Array[] = [];
  let found = false;
  let ended = false;
  let failure: unknown = null;
  let entries = 0;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    if (++entries > maxEntries && !found) failure = new RegisterFormatError(`${label}: the zip has more than ${maxEntries} entries before ${what}`);
    if (found || !wanted(file.name.split("/").pop() ?? "")) return;
    found = true;
    file.ondata = (err, data, final) => {
      if (err) failure = err;
      else {
        inflated += data.length;
        if (inflated > maxBytes) failure = new RegisterFormatError(`${label}: ${what} inflates to more than ${maxBytes} bytes`);
        else if (data.length) out.push(data);
        if (final) ended = true;
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const chunk = value ?? new Uint8Array(0);
      try {
        // In small pushes, each one's output handed on before the next is made.
        for (let i = 0; i < chunk.length || (i === 0 && done); i += UNZIP_PUSH) {
          const last = i + UNZIP_PUSH >= chunk.length;
          unzip.push(chunk.subarray(i, i + UNZIP_PUSH), done && last);
          if (failure || ended) break;
          while (out.length) yield out.shift()!;
        }
      } catch (e) {
        failure = e;
      }
      if (failure instanceof RegisterFormatError) throw failure;
      if (failure && done) throw new RegisterFormatError(`${label}: the download ended before ${what} did (truncated)`);
      if (failure) throw new RegisterFormatError(`${label}: the download is not a readable zip (${(failure as Error).message ?? failure})`);
      while (out.length) yield out.shift()!;
      if (ended || done) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (!found) throw new RegisterFormatError(`${label}: the download is not a zip holding ${what}`);
  if (!ended) throw new RegisterFormatError(`${label}: the download ended before ${what} did (truncated)`);
}
