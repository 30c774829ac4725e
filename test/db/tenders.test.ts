import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { openTenderCandidates, resetTenders, writeTenders } from "../../src/db/tenders";
import { type TenderNotice, keywordsFrom, ownKeywords } from "../../src/services/contracts/tenderMatch";

/**
 * Issue 29 §4: tender-match's candidate read takes keywords of any length. D1 refuses a LIKE pattern over 50 bytes
 * ("LIKE or GLOB pattern too complex"), so a keyword of 47+ letters (the caller's own, or a word of the company's
 * website) made every tender-match a 500. The read must take any keyword and find exactly the notices a real
 * keyword finds: those whose title or description has a word starting with it.
 */

const NOW = "2026-11-20T10:00:00.000Z";
const TODAY = "2026-11-20";
const LONG_47 = "pneumonoultramicroscopicsilicovolcanoconiosisab"; // 47 letters
const LONG_100 = "a".repeat(50) + "b".repeat(50);
const LONG_500 = "x".repeat(500);

const notice = (ocid: string, title: string, description: string): TenderNotice => ({
  source: "FTS",
  ocid,
  noticeId: `${ocid}-n`,
  releaseDate: "2026-11-01T00:00:00Z",
  noticeUrl: `https://example.test/${ocid}`,
  title,
  description,
  buyer: "A council",
  cpv: [{ id: "72200000", description: null }],
  value: null,
  status: "active",
  deadline: "2026-12-31",
  suitability: { sme: null, vcse: null },
  regions: [],
  published: "2026-11-01",
  category: "services",
  closedBy: null,
});

const NOTICES = [
  notice("ocds-t29-1", "Accessibility audits of web services", "Audits of council websites against WCAG 2.2."),
  notice("ocds-t29-2", "Grounds maintenance", "Mowing and hedge cutting."),
  notice("ocds-t29-3", `Study of ${LONG_100}`, "A word longer than any pattern D1 takes."),
  notice("ocds-t29-4", "Lung disease research", `${LONG_47} surveillance in former mining towns.`),
];

const read = (keywords: string[], cpvPrefixes: string[] = []) => openTenderCandidates(env.DB, { cpvPrefixes, keywords, today: TODAY, now: NOW, limit: 50 });
const ocids = (ns: TenderNotice[]) => ns.map((n) => n.ocid).sort();

beforeAll(async () => {
  await resetTenders(env.DB);
  await writeTenders(env.DB, NOTICES, { sample: false, now: new Date(NOW) });
});

describe("issue 29 §4 openTenderCandidates: keywords of any length", () => {
  it("real keywords find what they found before (a word's start, stems, phrases), CPV prefixes too", async () => {
    expect(ocids(await read(["accessibility"]))).toEqual(["ocds-t29-1"]);
    expect(ocids(await read(["audit"]))).toEqual(["ocds-t29-1"]); // 'audits' stored as its stem 'audit'
    expect(ocids(await read(["web services"]))).toEqual(["ocds-t29-1"]); // a phrase
    expect(ocids(await read(["hedge", "mowing"]))).toEqual(["ocds-t29-2"]);
    expect(ocids(await read(["cessibility"]))).toEqual([]); // the middle of a word is not a match
    expect(ocids(await read([], ["722"]))).toEqual(NOTICES.map((n) => n.ocid).sort());
    expect(ocids(await read([], ["723"]))).toEqual([]);
    // Most keywords found first.
    expect((await read(["audit", "accessibility", "mowing"])).map((n) => n.ocid)).toEqual(["ocds-t29-1", "ocds-t29-2"]);
  });

  it.each([
    ["47", LONG_47, ["ocds-t29-4"]],
    ["100", LONG_100, ["ocds-t29-3"]],
    ["500", LONG_500, []],
  ])("a keyword of %s letters is read (no 500) and finds the notices that have the word", async (_n, word, expected) => {
    expect(ocids(await read([word]))).toEqual(expected);
    expect(ocids(await read([`${word}, hedge`]))).toEqual([]); // a phrase of it
    expect(ocids(await read([word, "hedge"]))).toEqual([...expected, "ocds-t29-2"].sort());
  });

  it("keywords taken from a website's text (any length of word) and the caller's own are read", async () => {
    const site = `We deliver ${LONG_500} and ${LONG_100} consultancy; accessibility audits for public bodies. ${"supercalifragilisticexpialidocious".repeat(3)}`;
    const keywords = [...ownKeywords(`${LONG_47}, web services`), ...keywordsFrom([site])];
    expect(keywords.some((k) => k.length >= 100)).toBe(true);
    expect(ocids(await read(keywords))).toEqual(["ocds-t29-1", "ocds-t29-3", "ocds-t29-4"]);
  });
});
