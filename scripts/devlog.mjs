// Quiets the local server's log for a newcomer working offline. When an upstream cannot be reached,
// workerd prints a red multi-line block with a native stack for every failed fetch (one per upstream on
// each /api/status refresh), and another when a client hangs up mid-reply. This filter turns each such
// block into one plain line naming the host (or the client) and the reason, and passes every other line
// through unchanged. Pure: no Node imports, so the tests run it.

// Colour codes are stripped only for matching; lines that pass through keep them.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
/** workerd's internal network error: `e = kj/<file>:<line>: failed: <what>; params.host = <host>; …`. */
const KJ_NETWORK = /\[ERROR\]\s*e = kj\/[\w./+-]+:\d+: (?:failed|disconnected|overloaded): (.*?)(?:;|$)(.*)$/;
/** A caller that hung up before its reply was written (an MCP client closing its stream): `… disconnected: ::write(…): Broken pipe`. */
const KJ_CLIENT_GONE = /\[ERROR\]\s*kj::getCaughtExceptionAsKj\(\) = kj\/[\w./+-]+:\d+: disconnected: ::write\(.*?\): (.*?)\s*$/;
const HOST = /params\.host = ([^;\s]+)/;
const GAI = /gai_strerror\(status\) = ([^;]+?)\s*$/;
const STACK = /^\s+stack: /;

/**
 * Returns a function that takes one log line (without its newline) and returns the lines to print
 * instead: the line itself, one plain line in place of a workerd network-error block, or nothing
 * for the rest of that block (its blank lines and its `stack:` line).
 */
export function createDevLogFilter() {
  let inBlock = false;
  return (line) => {
    const plain = line.replace(ANSI, "");
    const gone = KJ_CLIENT_GONE.exec(plain);
    if (gone) {
      inBlock = true;
      return [`client disconnected before its reply was written (${gone[1]})`];
    }
    const m = KJ_NETWORK.exec(plain);
    if (m) {
      inBlock = true;
      const host = HOST.exec(m[2])?.[1];
      const reason = GAI.exec(m[2])?.[1];
      const what = m[1].replace(/\.$/, "");
      return [`upstream unreachable: ${host ?? "(host not given)"} (${what}${reason ? `: ${reason}` : ""})`];
    }
    if (inBlock) {
      if (plain.trim() === "" || STACK.test(plain)) return [];
      inBlock = false;
    }
    return [line];
  };
}

/** Splits a stream of text chunks into lines, filters each, and writes the result with `write`. */
export function pipeFiltered(stream, write) {
  const filter = createDevLogFilter();
  let rest = "";
  stream.setEncoding?.("utf8");
  stream.on("data", (chunk) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    for (const l of parts) for (const out of filter(l)) write(`${out}\n`);
  });
  stream.on("end", () => {
    if (rest) for (const out of filter(rest)) write(`${out}\n`);
  });
}
