/** Zip archives read as they arrive (fflate's streaming inflate): the register downloads. */
import { Unzip, UnzipInflate } from "fflate";
import { RegisterFormatError } from "./format-error";

/**
 * The unzipped bytes of one member (by name, or the first whose name a predicate accepts) of a zip that arrives as a stream, yielded as they are inflated.
 * At most one input chunk's output is held at a time. Throws RegisterFormatError when the download is
 * not a zip, lacks the member, or ends before the member does (a truncated download).
 */
export async function* unzipMember(body: ReadableStream<Uint8Array>, member: string | ((name: string) => boolean), label: string): AsyncGenerator<Uint8Array> {
  const wanted = typeof member === "string" ? (name: string) => name.toLowerCase() === member.toLowerCase() : member;
  const what = typeof member === "string" ? member : "the file it should hold";
  const out: Uint8Array[] = [];
  let found = false;
  let ended = false;
  let failure: unknown = null;
  const unzip = new Unzip((file) => {
    if (found || !wanted(file.name.split("/").pop() ?? "")) return;
    found = true;
    file.ondata = (err, data, final) => {
      if (err) failure = err;
      else {
        if (data.length) out.push(data);
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
      try {
        unzip.push(value ?? new Uint8Array(0), done);
      } catch (e) {
        failure = e;
      }
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

