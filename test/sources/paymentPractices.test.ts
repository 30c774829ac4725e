import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { UpstreamError } from "../../src/shared/errors";
import type { RegisterRecord } from "../../src/services/registers/types";
import { RegisterFormatError } from "../../src/sources/format-error";
import { fetchPaymentPracticesExport } from "../../src/sources/payment-practices/client";
import {
  type PaymentPracticesInput,
  checkPaymentPracticesHeader,
  parsePaymentPractices,
  paymentPracticesColumns,
  paymentPracticesEditionDate,
} from "../../src/sources/payment-practices/parse";

/** Issue 14 §1: the Payment Practices export (shared/formats/payment-practices.md) parsed into one report per company per period. */

const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const fixture = (name: string) => bytesOf(`http://files.test/payment-practices/${name}`);
const text = async (name: string) => new TextDecoder().decode(await fixture(name));

async function parse(input: Uint8Array | string, from = 0) {
  const notes: Record<string, number> = {};
  const recs: RegisterRecord<"payment-practices">[] = [];
  for await (const r of parsePaymentPractices(() => input, { from, notes })) recs.push(r);
  return { recs, notes, byKey: new Map(recs.map((r) => [r.key, r])), data: (key: string) => recs.find((r) => r.key === key)!.data };
}

/** A CSV field, quoted when it must be (RFC 4180). */
const q = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** A CSV of `header` with rows given as {header name: value}, blank elsewhere. */
const csvOf = (header: string[], rows: Record<string, string>[], eol = "\r\n") =>
  [header.map(q).join(","), ...rows.map((r) => header.map((h) => q(r[h] ?? "")).join(","))].join(eol) + eol;

describe("issue 14 §1 payment practices: the real export header (../shared)", () => {
  it.skipIf(!env.SHARED_PRESENT)("real-data: every column of the real 52-column header is found by name, and rows built on it parse", async () => {
    const header = (await (await fetch("http://shared.test/data/payment-practices/export-csv-header.txt")).text()).trim().split(",");
    expect(header).toHaveLength(52);
    const cols = paymentPracticesColumns(header);
    expect(Object.entries(cols).filter(([, i]) => i < 0)).toEqual([]); // every field has its column
    expect(header[cols.companyNumber]).toBe("Company number");
    expect(header[cols.pctNotPaidDueToDispute]).toBe("% Invoices not paid due to dispute");
    const row = {
      "Report Id": "52001",
      "Policy Regime": "Regime-1",
      "Financial period start date": "None",
      "Start date": "01/04/2025",
      "End date": "30/09/2025",
      "Filing date": "24/10/2025",
      Company: "ACME WIDGETS LIMITED",
      "Company number": "6543210",
      "Qualifying contracts in reporting period": "TRUE",
      "Payments made in reporting period": "TRUE",
      "Construction contracts have retention clauses": "FALSE",
      "Average time to pay": "31",
      "Total value invoices paid within 30 days": "70",
      "Total value invoices paid between 31 and 60 days": "20",
      "Total value invoices paid later than 60 days": "10",
      "% Invoices paid within 30 days": "64",
      "% Invoices paid between 31 and 60 days": "30",
      "% Invoices paid later than 60 days": "6",
      "% Invoices not paid within agreed terms": "18",
      "% Invoices not paid due to dispute": "2",
      "Shortest (or only) standard payment period": "30",
      "Longest standard payment period": "60",
      "Standard payment terms": 'Net 30, "end of month",\nor 60 days for framework suppliers.',
      "Payment terms have changed": "FALSE",
      "Dispute resolution process": "Raised with accounts payable,\nthen escalated.",
      "Participates in payment codes": "Yes",
      "E-Invoicing offered": "No",
      "Supply-chain financing offered": "No",
      "Policy covers charges for remaining on supplier list": "No",
      "Charges have been made for remaining on supplier list": "No",
      URL: "https://check-payment-practices.service.gov.uk/report/52001",
    };
    const expected = {
      reportId: 52001,
      policyRegime: "Regime-1",
      periodStart: "2025-04-01",
      periodEnd: "2025-09-30",
      filedOn: "2025-10-24",
      financialPeriodStart: null,
      avgDaysToPay: 31,
      pctWithin30: 64,
      pct31to60: 30,
      pctOver60: 6,
      pctNotPaidWithinTerms: 18,
      pctNotPaidDueToDispute: 2,
      valuePctWithin30: 70,
      valuePct31to60: 20,
      valuePctOver60: 10,
      valuePctNotPaidWithinTerms: null,
      shortestStandardTermsDays: 30,
      longestStandardTermsDays: 60,
      maxContractualTermsDays: null,
      standardTermsText: 'Net 30, "end of month",\nor 60 days for framework suppliers.',
      termsChanged: false,
      suppliersNotified: null,
      paymentCodes: true,
      eInvoicing: false,
      qualifyingContracts: true,
      paymentsMade: true,
      constructionContracts: null,
      constructionRetention: false,
      clamped: [],
      inconsistent: [],
    };
    const { recs, notes } = await parse(csvOf(header, [row]));
    expect(recs).toHaveLength(1);
    expect(recs[0]).toMatchObject({
      key: "06543210:2025-04-01:2025-09-30",
      companyNumber: "06543210",
      name: "ACME WIDGETS LIMITED",
      part: "2025-04-01/2025-09-30",
      status: "published",
    });
    expect(recs[0].data).toMatchObject(expected);
    expect(notes).toMatchObject({ encodingUtf8: 1, dateFormatDmy: 1 });
    // Columns in another order read the same: by name, never by position.
    const reversed = [...header].reverse();
    expect((await parse(csvOf(reversed, [row]))).recs[0].data).toEqual(recs[0].data);
  });
});

describe("issue 14 §1 payment practices parser (our fixtures in the export's format)", () => {
  it("the 52-column export with a BOM, CRLF and multi-line quoted narratives: one report per company per period", async () => {
    const bytes = await fixture("export.csv");
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { recs, notes, data } = await parse(bytes);
    expect(recs.map((r) => r.key)).toEqual([
      "06543210:2025-01-01:2025-06-30",
      "06543210:2025-07-01:2025-12-31",
      "09876543:2026-01-01:2026-06-30", // the resubmission (row 4) stands where it is in the file
      "07654321:2026-04-01:2026-09-30",
      "SC612345:2026-02-01:2026-07-31",
      "OC301234:2026-01-01:2026-06-30",
      "11223344:2026-03-01:2026-08-31",
      "02345678:2026-01-01:2026-06-30",
    ]);
    expect(notes).toEqual({
      encodingUtf8: 1,
      dateFormatDmy: 1,
      duplicateReports: 1,
      rowsWithoutCompanyNumber: 2, // blank, and "N/A"
      rowsWithoutPeriod: 1, // a blank end date
      clampedValues: 6,
      reportsWithClampedValues: 2,
      percentagesNotAddingUp: 1,
      standardTermsTextCut: 1,
    });
    const acme = data("06543210:2025-01-01:2025-06-30");
    expect(acme).toEqual({
      reportId: 1001,
      url: "https://check-payment-practices.service.gov.uk/report/1001",
      policyRegime: "Regime-1",
      periodStart: "2025-01-01",
      periodEnd: "2025-06-30",
      filedOn: "2025-07-25",
      financialPeriodStart: "2025-01-01",
      avgDaysToPay: 24,
      pctWithin30: 88,
      pct31to60: 10,
      pctOver60: 2,
      pctNotPaidWithinTerms: 6,
      pctNotPaidDueToDispute: null,
      valuePctWithin30: null,
      valuePct31to60: null,
      valuePctOver60: null,
      valuePctNotPaidWithinTerms: null,
      shortestStandardTermsDays: 30,
      longestStandardTermsDays: 60,
      maxContractualTermsDays: null,
      standardTermsText: "30 days from receipt of a valid invoice.\nSome framework suppliers: 60 days, as agreed in writing.",
      termsChanged: false,
      suppliersNotified: false,
      paymentCodes: true,
      eInvoicing: true,
      supplyChainFinance: false,
      chargesPolicy: false,
      chargesMade: false,
      qualifyingContracts: true,
      paymentsMade: true,
      constructionContracts: false,
      constructionRetention: false,
      clamped: [],
      inconsistent: [],
    });
  });

  it("a resubmission of a period keeps the latest filing; the record says which company it is", async () => {
    const { byKey, data } = await parse(await fixture("export.csv"));
    expect(byKey.get("09876543:2026-01-01:2026-06-30")).toMatchObject({
      entity: "09876543:2026-01-01:2026-06-30",
      name: "OAKHILL PROPERTY GROUP LIMITED",
      companyNumber: "09876543",
      altNames: [],
      rating: null,
      town: null,
    });
    expect(data("09876543:2026-01-01:2026-06-30")).toMatchObject({
      reportId: 1187,
      filedOn: "2026-08-02",
      avgDaysToPay: 58,
      termsChanged: true,
      maxContractualTermsDays: 90,
    });
    expect(data("09876543:2026-01-01:2026-06-30").standardTermsText).toBe(
      'Payment within 45 days of invoice, "subject to approval", or 90 days for contractors, as stated in each contract.',
    );
  });

  it("absurd values are null and said so; shares that do not add up are kept and said so; blank stays null", async () => {
    const { data } = await parse(await fixture("export.csv"));
    // Bayside, given as 7654321: 4,323,394 days, 112 %, a 999-day maximum, and shares adding up to 150.
    expect(data("07654321:2026-04-01:2026-09-30")).toMatchObject({
      avgDaysToPay: null,
      pctWithin30: 90,
      pct31to60: 40,
      pctOver60: 20,
      pctNotPaidWithinTerms: null,
      maxContractualTermsDays: null,
      shortestStandardTermsDays: 30,
      clamped: [
        "avgDaysToPay: 4323394 is not a plausible number of days",
        "pctNotPaidWithinTerms: 112 is not a percentage from 0 to 100",
        "maxContractualTermsDays: 999 is not a plausible number of days",
      ],
      inconsistent: ["pctWithin30 + pct31to60 + pctOver60 = 150, not about 100"],
    });
    // Smith & Sons: words where numbers belong are null (never guessed from), "75%" is 75.
    expect(data("02345678:2026-01-01:2026-06-30")).toMatchObject({
      avgDaysToPay: null,
      pctWithin30: 75,
      pct31to60: 20,
      pctOver60: 5,
      shortestStandardTermsDays: null,
      longestStandardTermsDays: 60,
      termsChanged: null,
      clamped: ['avgDaysToPay: "n/a" is not a number', 'shortestStandardTermsDays: "30 days" is not a number', 'termsChanged: "Maybe" is not yes or no'],
    });
    // Meadowvale: a nil return, every figure blank, "None" for the financial period.
    expect(data("SC612345:2026-02-01:2026-07-31")).toMatchObject({
      financialPeriodStart: null,
      avgDaysToPay: null,
      pctWithin30: null,
      pctNotPaidWithinTerms: null,
      paymentCodes: null,
      termsChanged: null,
      qualifyingContracts: false,
      paymentsMade: false,
      clamped: [],
      inconsistent: [],
    });
  });

  it("the 2024-amended regime: value shares, disputes and construction retention; long terms text is cut to 1,000 characters", async () => {
    const { data } = await parse(await fixture("export.csv"));
    expect(data("OC301234:2026-01-01:2026-06-30")).toMatchObject({
      policyRegime: "2025",
      valuePctWithin30: 64,
      valuePct31to60: 26,
      valuePctOver60: 10,
      valuePctNotPaidWithinTerms: 12,
      pctNotPaidDueToDispute: 3,
      supplyChainFinance: true,
      constructionContracts: true,
      constructionRetention: true,
      clamped: [],
      inconsistent: [],
    });
    const terms = data("11223344:2026-03-01:2026-08-31").standardTermsText!;
    expect(terms.length).toBeLessThanOrEqual(1000);
    expect(terms.length).toBeGreaterThan(990);
    expect(terms.endsWith("…")).toBe(true);
    expect(terms.startsWith("Our standard terms are 30 days")).toBe(true);
  });

  it("windows-1252 bytes: the whole file is read as windows-1252 (£, É, ’), M/D/YYYY dates detected, unpadded numbers padded", async () => {
    const bytes = await fixture("export-mdy-windows-1252.csv");
    expect(() => new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)).toThrow();
    const { recs, notes, data } = await parse(bytes);
    expect(notes).toEqual({ encodingWindows1252: 1, dateFormatMdy: 1 });
    expect(recs.map((r) => `${r.key} ${r.name}`)).toEqual([
      "04712345:2017-04-01:2017-09-30 BRASSERIE ÉTOILE LIMITED",
      "04712345:2017-10-01:2018-03-31 BRASSERIE ÉTOILE LIMITED",
      "00045678:2017-04-06:2017-10-05 GLENFIELD ESTATES LIMITED",
    ]);
    expect(data("04712345:2017-04-01:2017-09-30")).toMatchObject({
      filedOn: "2017-10-29",
      standardTermsText: "Invoices over £10,000 are paid within 60 days; all others within 30 days.\nWe don’t charge suppliers to stay on our list.",
    });
    expect(data("00045678:2017-04-06:2017-10-05").filedOn).toBe("2017-11-03");
  });

  it("the older 23-column export: ISO dates, True/False, percentages written with %; columns it lacks are null or absent", async () => {
    const { recs, notes, data } = await parse(await fixture("export-23-columns.csv"));
    expect(notes).toEqual({ encodingUtf8: 1, dateFormatIso: 1 });
    expect(recs.map((r) => r.key)).toEqual(["08112233:2018-01-01:2018-06-30", "08112233:2018-07-01:2018-12-31", "04712345:2018-04-01:2018-09-30"]);
    const castle = data("08112233:2018-01-01:2018-06-30");
    expect(castle).toMatchObject({
      reportId: 3001,
      policyRegime: null,
      financialPeriodStart: null,
      avgDaysToPay: 29,
      pctWithin30: 81,
      pct31to60: 15,
      pctOver60: 4,
      pctNotPaidWithinTerms: 7,
      pctNotPaidDueToDispute: null,
      maxContractualTermsDays: 60,
      standardTermsText: null,
      paymentsMade: true,
      qualifyingContracts: null,
      paymentCodes: true,
    });
    expect("valuePctWithin30" in castle).toBe(false);
    expect(data("04712345:2018-04-01:2018-09-30")).toMatchObject({ paymentsMade: false, avgDaysToPay: null, pctWithin30: null });
  });

  it("the variant header '% Invoices not paid within agreed terms because of a dispute' is the dispute share, never the outside-terms one", async () => {
    const csv = (await text("export.csv")).replace("% Invoices not paid due to dispute", "% Invoices not paid within agreed terms because of a dispute");
    const { data } = await parse(csv);
    expect(data("OC301234:2026-01-01:2026-06-30")).toMatchObject({ pctNotPaidDueToDispute: 3, pctNotPaidWithinTerms: 15 });
  });

  it("dates: ISO when written with '-', D/M/Y or M/D/Y from a value over 12, D/M/Y assumed (and said) when nothing decides", async () => {
    const header = ["Company number", "Start date", "End date", "Filing date", "Average time to pay"];
    const row = (n: string, s: string, e: string, f: string) => ({
      "Company number": n,
      "Start date": s,
      "End date": e,
      "Filing date": f,
      "Average time to pay": "30",
    });
    const undecided = await parse(csvOf(header, [row("1", "01/02/2026", "01/08/2026", "05/09/2026")]));
    expect(undecided.notes).toMatchObject({ dateFormatAssumedDmy: 1, dateFormatDmy: 1 });
    expect(undecided.recs[0].key).toBe("00000001:2026-02-01:2026-08-01");
    expect(undecided.data("00000001:2026-02-01:2026-08-01").filedOn).toBe("2026-09-05");
    // One value decides for the whole file.
    const mdy = await parse(csvOf(header, [row("1", "1/2/2026", "7/1/2026", "8/3/2026"), row("2", "1/1/2026", "6/30/2026", "7/14/2026")]));
    expect(mdy.recs.map((r) => r.key)).toEqual(["00000001:2026-01-02:2026-07-01", "00000002:2026-01-01:2026-06-30"]);
    // Times after the date are ignored; ISO with a time too.
    const iso = await parse(csvOf(header, [row("3", "2026-01-01T00:00:00", "2026-06-30 00:00:00", "2026-07-02")]));
    expect(iso.recs[0].key).toBe("00000003:2026-01-01:2026-06-30");
    // Day-first and month-first values in one file: the majority wins, the others are unreadable and not loaded.
    const mixed = await parse(csvOf(header, [row("4", "13/01/2026", "30/06/2026", "14/07/2026"), row("5", "01/13/2026", "06/30/2026", "07/14/2026")]));
    expect(mixed.recs.map((r) => r.key)).toEqual(["00000004:2026-01-13:2026-06-30"]);
    expect(mixed.notes).toMatchObject({ dateFormatDmy: 1, dateFormatConflicts: 3, rowsWithoutPeriod: 1 });
    // An impossible date (31 February) is no date.
    expect((await parse(csvOf(header, [row("6", "31/02/2026", "30/06/2026", "14/07/2026")]))).notes).toMatchObject({ rowsWithoutPeriod: 1 });
  });

  it("resubmissions: the latest filing date wins, then the highest report id; each dropped one is counted", async () => {
    const header = ["Report Id", "Company number", "Start date", "End date", "Filing date", "Average time to pay"];
    const row = (id: string, filed: string, avg: string) => ({
      "Report Id": id,
      "Company number": "SC012345",
      "Start date": "01/01/2026",
      "End date": "30/06/2026",
      "Filing date": filed,
      "Average time to pay": avg,
    });
    const { recs, notes } = await parse(
      csvOf(header, [row("10", "20/07/2026", "30"), row("12", "21/07/2026", "31"), row("11", "21/07/2026", "32"), row("9", "01/07/2026", "33")]),
    );
    expect(recs.map((r) => [r.key, r.data.reportId, r.data.avgDaysToPay])).toEqual([["SC012345:2026-01-01:2026-06-30", 12, 31]]);
    expect(notes.duplicateReports).toBe(3);
  });

  it("resumes at any record: `from` skips what earlier chunks staged, in the same order, and the notes still count the whole file", async () => {
    const bytes = await fixture("export.csv");
    const all = await parse(bytes);
    const rest = await parse(bytes, 5);
    expect(rest.recs.map((r) => r.key)).toEqual(all.recs.slice(5).map((r) => r.key));
    expect(rest.notes).toEqual(all.notes);
  });

  it("the edition date of a file given without one is its latest filing date", async () => {
    const bytes = await fixture("export.csv");
    expect(await paymentPracticesEditionDate(() => bytes)).toBe("2026-10-05");
    const mdy = await fixture("export-mdy-windows-1252.csv");
    expect(await paymentPracticesEditionDate(() => mdy)).toBe("2018-04-27");
  });

  it("a file that is not the export is refused: no header, or a page in its place", async () => {
    expect(() => checkPaymentPracticesHeader(new TextEncoder().encode("<!DOCTYPE html><html>Service unavailable</html>"))).toThrow(RegisterFormatError);
    expect(() => checkPaymentPracticesHeader("Report Id,Company,Start date,End date\n1,X,01/01/2026,30/06/2026\n")).toThrow(
      /lacks 'Company number', 'Average time to pay'/,
    );
    await expect(parse("")).rejects.toThrow(RegisterFormatError);
    await expect(parse("<html>maintenance</html>\n")).rejects.toThrow(RegisterFormatError);
  });

  it("a file that changes between the two passes (a download read twice) fails instead of loading mismatched rows", async () => {
    const csv = await text("export.csv");
    let calls = 0;
    const input: PaymentPracticesInput = () => (calls++ === 0 ? csv : csv.replaceAll("09876543", "09876544"));
    await expect(async () => {
      for await (const _ of parsePaymentPractices(input)) void _;
    }).rejects.toThrow(/changed while it was read/);
  });

  it("the client streams the export from PAYMENT_PRACTICES_URL, dated by the day of the fetch, and fetches again for each further read", async () => {
    const e = await fetchPaymentPracticesExport({ url: env.PAYMENT_PRACTICES_URL });
    expect(e).toMatchObject({
      url: "http://files.test/payment-practices/export.csv",
      fileName: "export.csv",
      editionDate: new Date().toISOString().slice(0, 10),
    });
    const read = async () => {
      const parts: Uint8Array[] = [];
      for await (const c of e.open()) parts.push(c);
      return parts.reduce((n, p) => n + p.length, 0);
    };
    const size = (await fixture("export.csv")).length;
    expect([await read(), await read()]).toEqual([size, size]);
    await expect(fetchPaymentPracticesExport({ url: "http://files.test/payment-practices/missing.csv" })).rejects.toBeInstanceOf(UpstreamError);
  });
});
