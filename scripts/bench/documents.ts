/**
 * The document readers' speed and memory (issue 17 §6), for `npm run bench` (scripts/bench/index.mjs calls
 * `benchDocuments()`; `node scripts/bench/documents.mjs` runs it alone):
 *  - a 100-page text PDF read end to end by each reader: the PDF's text page by page (unpdf), the pipeline (lines into
 *    headed sections and sentences), the reader and the reply's `read` object (goal under 2 s);
 *  - 1 MB of text read by each reader (goal under 300 ms);
 *  - the peak heap and resident memory of each.
 * The PDFs are written by scripts/fixtures/make-pdf.mjs from each reader's documented example text spread over 100
 * pages with a running header and footer and ordinary prose between (about 3,000 characters a page, as a report's
 * pages have), so every reader finds its passages throughout the document.
 */
import { makePdf } from "../fixtures/make-pdf.mjs";
import { CHARITY, CQC, MODERN_SLAVERY, OFSTED } from "../../src/app/documents/readers";
import { EXAMPLE_PLAN } from "../../src/operations/documents/checkCarbonReductionPlan";
import { type Loaded, readObjectOf } from "../../src/app/documents/reader";
import { checkCarbonPlan } from "../../src/services/documents/carbonPlan";
import { docFromPdf, docFromText } from "../../src/services/documents/document";
import { Reading } from "../../src/services/documents/evidence";
import { readPdf } from "../../src/sources/documents/pdf";

/** Ordinary prose, different on every line (a running header is a line repeated on half the pages, and is dropped). */
const SUBJECTS = [
  "The team",
  "Our managers",
  "The board",
  "Each site",
  "The finance office",
  "Staff in the north",
  "Volunteers",
  "The audit group",
  "Our partners",
  "The trustees",
];
const VERBS = ["reviewed", "recorded", "improved", "checked", "discussed", "planned", "measured", "published", "agreed", "updated"];
const OBJECTS = [
  "the arrangements for visitors",
  "the records kept at each office",
  "how complaints are answered",
  "the training given to new starters",
  "the timetable for the coming months",
  "the costs of running the vehicles",
  "the way suppliers are chosen",
  "what people told us in the survey",
  "the rota for weekend cover",
  "the plans for the new building",
];
const WHEN = [
  "in the spring",
  "after the summer",
  "each quarter",
  "during the autumn",
  "before the year end",
  "at the last meeting",
  "over several weeks",
  "with outside help",
  "for the first time",
  "as promised last year",
];

function filler(n: number): string {
  // A fixed sequence (a linear congruential generator), so every run reads the same document.
  const pick = <T>(xs: T[], k: number) => xs[k % xs.length];
  const a = (n * 7919 + 13) % 10007;
  return `${pick(SUBJECTS, a)} ${pick(VERBS, a >> 2)} ${pick(OBJECTS, a >> 4)} ${pick(WHEN, a >> 6)}, and ${pick(SUBJECTS, a >> 3).toLowerCase()} ${pick(VERBS, a >> 5)} ${pick(OBJECTS, a >> 1)}.`;
}

/** A document's lines spread over `pages` pages of about `perPage` lines, with ordinary prose between and a running header and footer. */
function pagesOf(text: string, pages: number, perPage = 40): string[][] {
  const lines = text.split("\n").map((l) => l.trim());
  const out: string[][] = [];
  let k = 0;
  let n = 0;
  for (let p = 1; p <= pages; p++) {
    const page = ["Annual document 2025/26 – Example organisation", ""];
    while (page.length < perPage) {
      if (k < lines.length && (p === 1 || page.length % 5 === 0)) page.push(lines[k++]);
      else page.push(filler(n++));
      if (k >= lines.length && p > 1) k = 0;
    }
    page.push("", `Page ${p} of ${pages}`);
    out.push(page);
  }
  return out;
}

const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T; heapPeakMb: number; rssMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peak = before.heapUsed;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  const value = await fn();
  const ms = Math.round((performance.now() - t0) * 10) / 10;
  clearInterval(timer);
  const after = process.memoryUsage();
  peak = Math.max(peak, after.heapUsed);
  return { ms, value, heapPeakMb: mb(peak - before.heapUsed), rssMb: mb(after.rss) };
}

type Reader = { name: string; text: string; read: (r: Reading) => unknown };

export async function benchDocuments(runs = 3) {
  const readers: Reader[] = [
    { name: "modern-slavery", text: MODERN_SLAVERY.exampleText, read: (r) => MODERN_SLAVERY.read(r, { today: "2026-11-25" }) },
    { name: "ofsted-report", text: OFSTED.exampleText, read: (r) => OFSTED.read(r, { today: "2026-11-25" }) },
    { name: "cqc-report", text: CQC.exampleText, read: (r) => CQC.read(r, { today: "2026-11-25" }) },
    { name: "charity-report", text: CHARITY.exampleText, read: (r) => CHARITY.read(r, { today: "2026-11-25" }) },
    { name: "crp-check", text: EXAMPLE_PLAN.replace(/<\/(h\d|p)>/g, "\n").replace(/<[^>]+>/g, ""), read: (r) => checkCarbonPlan(r, { today: "2026-11-25" }) },
  ];
  // PDF.js's first load is paid once per isolate: measured apart.
  const warm = await timed(() => readPdf(makePdf([["Warm up page with enough letters to read as text."]])));
  const results: Record<string, unknown> = { pdfJsFirstLoadMs: warm.ms };
  for (const reader of readers) {
    const pdf = makePdf(pagesOf(reader.text, 100));
    const text = pagesOf(reader.text, 1000, 40)
      .map((p) => p.join("\n"))
      .join("\n\n")
      .slice(0, 1024 * 1024);
    const pdfRuns = [];
    const textRuns = [];
    const splits: { docMs: number; readerMs: number }[] = [];
    for (let i = 0; i < runs; i++) {
      pdfRuns.push(
        await timed(async () => {
          const doc = docFromPdf(await readPdf(pdf));
          const reading = new Reading(doc);
          reader.read(reading);
          const loaded: Loaded = { doc, from: "url", url: null, note: null };
          return readObjectOf(loaded, reading);
        }),
      );
      let split = { docMs: 0, readerMs: 0 };
      textRuns.push(
        await timed(() => {
          const t0 = performance.now();
          const doc = docFromText(text);
          const t1 = performance.now();
          const reading = new Reading(doc);
          reader.read(reading);
          split = { docMs: Math.round(t1 - t0), readerMs: Math.round(performance.now() - t1) };
          return readObjectOf({ doc, from: "text", url: null, note: null }, reading);
        }),
      );
      splits.push(split);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const read = pdfRuns[0].value as { pages: number | null; chars: number; sentences: number };
    results[reader.name] = {
      pdf100Pages: {
        bytes: pdf.length,
        pages: read.pages,
        chars: read.chars,
        sentences: read.sentences,
        medianMs: median(pdfRuns.map((r) => r.ms)),
        worstMs: Math.max(...pdfRuns.map((r) => r.ms)),
        heapPeakMb: Math.max(...pdfRuns.map((r) => r.heapPeakMb)),
        goalMs: 2000,
      },
      text1Mb: {
        chars: text.length,
        medianMs: median(textRuns.map((r) => r.ms)),
        worstMs: Math.max(...textRuns.map((r) => r.ms)),
        heapPeakMb: Math.max(...textRuns.map((r) => r.heapPeakMb)),
        goalMs: 300,
        lastRun: splits[splits.length - 1],
      },
      rssMb: Math.max(...pdfRuns.map((r) => r.rssMb), ...textRuns.map((r) => r.rssMb)),
    };
  }
  return results;
}
