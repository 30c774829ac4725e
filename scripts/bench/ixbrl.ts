/**
 * iXBRL accounts reader speed (src/sources/companies-house/ixbrl.ts), for `npm run bench` (scripts/bench/index.mjs
 * calls `benchIxbrl()`). A ~2 MB filing is built from real content: account_4.html (IRIS software output, FRS 102,
 * ns0..ns21 prefixes) from the shared samples, its header (contexts, units, hidden facts) once and its visible pages
 * (the balance sheet and notes, with their facts) repeated until the document is about 2 MB, as a large filing's
 * pages are. Without ../shared beside the repo, the repo's own fixture in the same shape is used.
 * Reported: milliseconds per parse (median and worst of a few runs), for well-formed XML (saxes) and for the same
 * document read as tag soup (linkedom's HTML parser, the fallback).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readAccounts } from "../../src/sources/companies-house/ixbrl";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = existsSync(join(HERE, "..", "..", "package.json")) ? join(HERE, "..", "..") : process.cwd();

/** The sample filing, and where it came from. */
function sample(): { text: string; from: string } {
  const real = join(ROOT, "..", "shared", "data", "ch-ixbrl-accounts", "kanedata-ixbrl-parse", "account_4.html");
  if (existsSync(real)) return { text: readFileSync(real, "utf8"), from: "shared account_4.html (real IRIS filing)" };
  const own = join(ROOT, "test", "fixtures", "companies-house", "ixbrl", "harbourside-2025.xhtml");
  return { text: readFileSync(own, "utf8"), from: "repo fixture harbourside-2025.xhtml" };
}

/**
 * A filing of about `targetBytes`: everything up to the end of the ix:header's enclosing block once, then the
 * visible part of the body repeated, then the document's end. Cut at the header's end and at `</body>`.
 */
export function buildLargeIxbrl(targetBytes = 2 * 1024 * 1024): { text: string; from: string; copies: number } {
  const { text, from } = sample();
  const headerEnd = text.indexOf("</ix:header>");
  const bodyEnd = text.lastIndexOf("</body>");
  if (headerEnd < 0 || bodyEnd < 0) throw new Error(`${from}: no ix:header or </body> to cut at`);
  // The header sits in a hidden <div>: the pages start after that div closes.
  const pagesStart = text.indexOf("</div>", headerEnd) + "</div>".length;
  const head = text.slice(0, pagesStart);
  const pages = text.slice(pagesStart, bodyEnd);
  const tail = text.slice(bodyEnd);
  const copies = Math.max(1, Math.ceil((targetBytes - head.length - tail.length) / pages.length));
  return { text: head + pages.repeat(copies) + tail, from, copies };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Parse time of a ~2 MB iXBRL filing, in ms: median and worst of `runs` (after one warm-up). */
export function benchIxbrl(runs = 5, targetBytes = 2 * 1024 * 1024) {
  const { text, from, copies } = buildLargeIxbrl(targetBytes);
  // The same bytes made not well-formed (an undeclared entity): read by the HTML fallback.
  const soup = text.replace("</ix:header>", "</ix:header>&undeclaredentity;");
  const time = (doc: string) => {
    readAccounts(doc); // warm-up
    const ms: number[] = [];
    let last: ReturnType<typeof readAccounts> | null = null;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      last = readAccounts(doc);
      ms.push(performance.now() - t0);
    }
    return { medianMs: +median(ms).toFixed(1), worstMs: +Math.max(...ms).toFixed(1), facts: last!.factCount, parsedAs: last!.parsedAs };
  };
  return {
    note: `${from}: header once, visible pages ×${copies}`,
    bytes: Buffer.byteLength(text),
    runs,
    xml: time(text),
    htmlFallback: time(soup),
  };
}
