import { describe, expect, it } from "vitest";
import { createDevLogFilter } from "../../scripts/devlog.mjs";

// What `npm start` printed offline on each /api/status refresh, one block per upstream (colours kept,
// the install path replaced): a red error line, a blank, a native stack, and two blanks.
const ESC = "\x1b";
const block = (host: string) => [
  `${ESC}[31m✘ ${ESC}[41;31m[${ESC}[41;97mERROR${ESC}[41;31m]${ESC}[0m ${ESC}[1me = kj/async-io-unix.c++:1298: failed: DNS lookup failed.; params.host = ${host}; params.service = ; gai_strerror(status) = Name or service not known${ESC}[0m`,
  "",
  "  stack: /srv/app/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51f50be /srv/app/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51f5bb0; sentryErrorContext = jsgInternalError; wdErrId = 4gmniis1t7aa3fh4is59qh0n",
  "",
  "",
];
const run = (lines: string[]) => {
  const f = createDevLogFilter();
  return lines.flatMap((l) => f(l));
};

describe("npm start log: an unreachable upstream is one plain line (issue 9 item 7)", () => {
  it("turns each workerd DNS-failure block into one line naming the host, and drops its stack", () => {
    const out = run([
      "[wrangler:info] GET /api/status 200 OK (63ms)",
      ...block("api.company-information.service.gov.uk"),
      ...block("www.gov.uk"),
      "[wrangler:info] GET /api/v1/sponsors 200 OK (12ms)",
    ]);
    expect(out).toEqual([
      "[wrangler:info] GET /api/status 200 OK (63ms)",
      "upstream unreachable: api.company-information.service.gov.uk (DNS lookup failed: Name or service not known)",
      "upstream unreachable: www.gov.uk (DNS lookup failed: Name or service not known)",
      "[wrangler:info] GET /api/v1/sponsors 200 OK (12ms)",
    ]);
    expect(out.join("\n")).not.toMatch(/stack:|wdErrId|\x1b/);
  });

  it("keeps a connection failure without a host, and passes every other line through unchanged, colours included", () => {
    const other = `${ESC}[33m▲ [WARNING] Scheduled Workers are not automatically triggered during local development.${ESC}[0m`;
    const out = run([other, "", "[ERROR] e = kj/async-io-unix.c++:945: failed: connect(): Connection refused", "  stack: x", "", "next"]);
    expect(out).toEqual([other, "", "upstream unreachable: (host not given) (connect(): Connection refused)", "next"]);
  });

  it("a client that hung up mid-reply (an MCP client closing its stream) is one plain line too", () => {
    const out = run([
      `${ESC}[31m✘ ${ESC}[41;31m[${ESC}[41;97mERROR${ESC}[41;31m]${ESC}[0m ${ESC}[1mkj::getCaughtExceptionAsKj() = kj/async-io-unix.c++:186: disconnected: ::write(fd, buffer.begin(), buffer.size()): Broken pipe${ESC}[0m`,
      "",
      "  stack: /srv/app/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51faac1 /srv/app/node_modules/@cloudflare/workerd-linux-64/bin/workerd@51fb771",
      "",
      "[wrangler:info] POST /mcp 200 OK (20ms)",
    ]);
    expect(out).toEqual(["client disconnected before its reply was written (Broken pipe)", "[wrangler:info] POST /mcp 200 OK (20ms)"]);
  });

  it("leaves an application error (not workerd's network error) alone", () => {
    const lines = ["✘ [ERROR] Uncaught TypeError: x is undefined", "", "  at handler (index.js:1:1)"];
    expect(run(lines)).toEqual(lines);
  });
});
