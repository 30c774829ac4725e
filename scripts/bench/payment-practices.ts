/**
 * Payment practices export at full size (issue 14 §4): a synthetic export of 110,000 reports (about 100 MB,
 * like the real one) built in memory on the real 52-column header (../shared; else our fixture's, which is the
 * same), with narrative fields holding commas, doubled quotes and line breaks and 1% of periods resubmitted.
 * It is parsed as the daily job parses it (the scan, then the read; see src/sources/payment-practices/parse.ts):
 * once from bytes held whole (the CLI) and once as a stream of 64 KB chunks (the Worker, which never holds the
 * file). Reports rows/s and the peak live heap (after GC, sampled every 5,000 reports; run Node with --expose-gc).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type PaymentPracticesInput, parsePaymentPractices, scanPaymentPractices } from "../../src/sources/payment-practices/parse";

const q = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const dmy = (y: number, m: number, d: number) => `${String(d).padStart(2, "0")}/${String(m).padStart(2, "0")}/${y}`;

const TERMS = [
  'Our standard terms are 30 days from the end of the month in which a valid invoice is received, "net monthly".\nFramework suppliers: 60 days, as agreed in writing, with early payment available on request, subject to approval.',
  "Payment within 45 days of a valid invoice, or 60 days for contractors, as stated in each contract; invoices must quote a purchase order number, or they will be returned.",
  'All suppliers are paid on "30 days from invoice" terms.\nSmall suppliers (fewer than 50 staff) are paid within 14 days.\nDisputed invoices are paid once the dispute is resolved.',
];
const DISPUTE =
  'Disputes are raised with the accounts payable team, who reply within 5 working days.\nUnresolved disputes go to the finance director, then, if the supplier asks, to mediation under the "Prompt Payment Code" rules, whose costs are shared equally.';
const MAX_INFO = "Longer periods apply only to construction contracts, by agreement, and never exceed 90 days.";
const OTHER = "Invoices are processed weekly, on Tuesdays; payment runs are twice a week, and a supplier may ask, by email, for a remittance advice.";

/** A synthetic export of `reports` rows (1% of them resubmissions of an earlier period) on `header`. */
export function buildPaymentPracticesExport(header: string[], reports: number): string {
  const at = new Map(header.map((h, i) => [h, i]));
  const lines: string[] = [header.map(q).join(",")];
  const companies = Math.ceil(reports / 11);
  for (let i = 0; i < reports; i++) {
    const resubmission = i % 100 === 99;
    const c = resubmission ? (i * 7) % companies : i % companies;
    const period = resubmission ? 0 : Math.floor(i / companies);
    const y = 2017 + Math.floor(period / 2);
    const [sm, em, ed] = period % 2 ? [7, 12, 31] : [1, 6, 30];
    const row = new Array<string>(header.length).fill("");
    const set = (name: string, v: string) => {
      const k = at.get(name);
      if (k !== undefined) row[k] = v;
    };
    const avg = 10 + ((i * 37) % 70);
    const p30 = 40 + ((i * 13) % 55);
    const p60 = Math.floor((100 - p30) * 0.7);
    set("Report Id", String(1000 + i));
    set("Policy Regime", y >= 2025 ? "2025" : "Regime-1");
    set("Financial period start date", period % 3 ? dmy(y, 1, 1) : "None");
    set("Start date", dmy(y, sm, 1));
    set("End date", dmy(y, em, ed));
    set("Filing date", dmy(y + (em === 12 ? 1 : 0), em === 12 ? 1 : 7, resubmission ? 28 : 20 + (i % 8)));
    set("Company", `Synthetic Trading ${c} Limited`);
    set("Company number", String(1_000_000 + c)); // unpadded: 7 digits
    set("Qualifying contracts in reporting period", "TRUE");
    set("Payments made in reporting period", "TRUE");
    set("Qualifying construction contracts in reporting period", i % 9 ? "FALSE" : "TRUE");
    set("Construction contracts have retention clauses", i % 9 ? "FALSE" : "TRUE");
    set("Average time to pay", i % 8 === 0 ? "" : i % 5000 === 1 ? "4323394" : String(avg));
    set("% Invoices paid within 30 days", String(p30));
    set("% Invoices paid between 31 and 60 days", String(p60));
    set("% Invoices paid later than 60 days", String(100 - p30 - p60));
    set("% Invoices not paid within agreed terms", String((i * 11) % 60));
    set("Shortest (or only) standard payment period", "30");
    set("Longest standard payment period", i % 3 ? "60" : "30");
    set("Standard payment terms", TERMS[i % TERMS.length]);
    set("Payment terms have changed", i % 4 ? "FALSE" : "TRUE");
    set("Suppliers notified of changes", i % 4 ? "FALSE" : "TRUE");
    set("Maximum contractual payment period", "90");
    set("Maximum contractual payment period information", MAX_INFO);
    set("Other information payment terms", OTHER);
    if (i % 9 === 0) {
      set("Description of specific circumstances for retention clauses", "Only on works over £250,000,\nwhere the client holds retention from us.");
      set("Retention clause money release description", 'Half on "practical completion", half after the defects period.');
    }
    set("Dispute resolution process", DISPUTE);
    for (const h of [
      "Participates in payment codes",
      "E-Invoicing offered",
      "Supply-chain financing offered",
      "Policy covers charges for remaining on supplier list",
      "Charges have been made for remaining on supplier list",
    ])
      set(h, (i + h.length) % 2 ? "Yes" : "No");
    set("URL", `https://check-payment-practices.service.gov.uk/report/${1000 + i}`);
    lines.push(row.map(q).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** The file as the Worker reads a download: chunks of 64 KB. */
async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += 1 << 16) yield bytes.subarray(i, i + (1 << 16));
}

async function measure(input: PaymentPracticesInput) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  let peakRss = base.rss;
  const sample = () => {
    gc?.();
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  };
  // Timed without sampling, then read again for the memory (the scan sampled every 10 batches of about 1 MB).
  let t = performance.now();
  const scan = await scanPaymentPractices(input);
  const scanMs = performance.now() - t;
  let batches = 0;
  await scanPaymentPractices(input, { onBatch: () => void (++batches % 10 === 0 && sample()) });
  t = performance.now();
  let records = 0;
  const notes: Record<string, number> = {};
  for await (const r of parsePaymentPractices(input, { notes })) if (r.key) records++;
  const ms = performance.now() - t;
  let again = 0;
  for await (const r of parsePaymentPractices(input)) if (r.key && ++again % 5_000 === 0) sample();
  sample();
  const mb = (n: number) => +(n / 2 ** 20).toFixed(1);
  return {
    reports: records,
    scanSeconds: +(scanMs / 1000).toFixed(2),
    seconds: +(ms / 1000).toFixed(2),
    rowsPerSecond: Math.round((scan.rows / ms) * 1000),
    baselineHeapMB: mb(base.heapUsed),
    peakHeapMB: mb(peakHeap),
    peakRssMB: mb(peakRss),
    notes,
  };
}

export async function benchPaymentPractices(root: string, reports = Number(process.env.BENCH_PAYMENT_REPORTS ?? 110_000)) {
  const real = join(root, "..", "shared", "data", "payment-practices", "export-csv-header.txt");
  const header = existsSync(real)
    ? readFileSync(real, "utf8").trim().split(",")
    : readFileSync(join(root, "test/fixtures/payment-practices/export.csv"), "utf8")
        .replace(/^\uFEFF/, "")
        .split("\r\n")[0]
        .split(",");
  let t = performance.now();
  const bytes = new TextEncoder().encode(buildPaymentPracticesExport(header, reports));
  const buildSeconds = +((performance.now() - t) / 1000).toFixed(1);
  t = performance.now();
  const whole = await measure(() => bytes);
  const streamed = await measure(() => chunks(bytes));
  return {
    header: existsSync(real) ? "real 52-column header (../shared)" : "the fixture's 52-column header",
    rows: reports,
    fileMB: +(bytes.length / 2 ** 20).toFixed(1),
    buildSeconds,
    note: "rowsPerSecond: rows of the file per second of the whole parse (the scan pass and the read pass); heap: live heap after GC, the file's bytes are outside it (an ArrayBuffer)",
    bytesHeldWhole: whole,
    streamedIn64KbChunks: streamed,
  };
}
