import { describe, expect, it } from "vitest";
import type { CompanyProfile } from "../../../src/services/companies/profile";
import type { CompanyRow } from "../../../src/services/companies/records";
import { baseSignals, registerFactsOfBulkRow, registerFactsOfLive, registerSourceOfFacts } from "../../../src/services/enrich/profile";
import { parseCompanyProfile } from "../../../src/sources/companies-house/parse";

/**
 * SPEC §2.2 BusinessProfile (status, signals), issue 28 §2: where the live profile can be read, the status and status
 * detail come from it; the monthly Basic Company Data file only fills gaps, each named with the file's date; without the
 * live profile the file's facts are given as of its date and no absence is claimed. Pure: the live profile is the
 * Companies House fixture of BAYSIDE HOSPITALITY LIMITED (active, proposal to strike off), the row is the one the sample
 * bulk file lists for it (plain "Active").
 */

const TODAY = "2026-11-25";
const FILE_DATE = "2026-11-01";

const liveProfile = async (n: string): Promise<CompanyProfile> =>
  parseCompanyProfile(await (await fetch(`http://files.test/hosts/ch.test/company/${n}/index.json`)).text())!;

/** BAYSIDE's row in test/fixtures/enrich/BasicCompanyData-2026-11-01.csv, as the register keeps it. */
const ROW: CompanyRow = {
  number: "07654321",
  name: "BAYSIDE HOSPITALITY LIMITED",
  status: "Active",
  sicCodes: ["55100", "56101"],
  locality: "BRIGHTON",
  category: "Private Limited Company",
  incorporatedOn: "2011-05-23",
  postcode: "BN2 1TL",
  countryOfOrigin: "United Kingdom",
  accountsDue: "2026-12-31",
  accountsMadeUpTo: "2025-03-31",
  accountsCategory: "SMALL",
  confirmationDue: "2027-06-06",
  confirmationMadeUpTo: "2026-05-23",
  previousNames: [],
  extra: { addressLine1: "12 MARINE PARADE" },
};
const ADDRESS = "12 MARINE PARADE, BRIGHTON, EAST SUSSEX, BN2 1TL";

describe("SPEC §2.2, issue 28 §2: the live profile's status over the bulk file's", () => {
  it("07654321: the file says Active, the live profile a proposal to strike off: the live one is the answer, and a risk signal", async () => {
    const bulk = registerFactsOfBulkRow(ROW, ADDRESS, TODAY, FILE_DATE, "");
    expect(bulk).toMatchObject({ status: "active", statusDetail: null });
    const facts = registerFactsOfLive(await liveProfile("07654321"), TODAY, { facts: bulk, fileDate: FILE_DATE });
    expect(facts).toMatchObject({ status: "active", statusDetail: "active-proposal-to-strike-off", record: { source: "live", asOf: TODAY, fromBulkFile: [] } });
    // The live profile has every field: nothing taken from the file, whose office is out of date.
    expect(facts.registeredOffice.postcode).toBe("BN1 2FY");
    const signals = baseSignals(facts, null, TODAY);
    expect(signals.find((s) => s.code === "proposal-to-strike-off")).toMatchObject({ kind: "risk", source: "companies register" });
    const src = registerSourceOfFacts(facts);
    expect(src).toMatchObject({ statusFrom: "companies-house", statusAsOf: TODAY, bulkFileDate: null, fromBulkFile: [], insolvencyNotices: "not-asked" });
    expect(src.note).toBe(`Status active (active-proposal-to-strike-off) from Companies House's live profile, read ${TODAY}.`);
  });

  it("gaps of the live profile are filled from the file, each named with the file's date; the status never is while the profile gives one", async () => {
    const live = { ...(await liveProfile("07654321")), sicCodes: [], lastAccountsType: null, incorporatedOn: null };
    const facts = registerFactsOfLive(live, TODAY, {
      facts: registerFactsOfBulkRow({ ...ROW, status: "Liquidation" }, ADDRESS, TODAY, FILE_DATE, ""),
      fileDate: FILE_DATE,
    });
    expect(facts).toMatchObject({ status: "active", sicCodes: ["55100", "56101"], lastAccountsType: "SMALL", incorporationDate: "2011-05-23" });
    expect(facts.record).toEqual({
      source: "live",
      asOf: TODAY,
      bulkFileDate: FILE_DATE,
      fromBulkFile: ["incorporationDate", "sicCodes", "lastAccountsType"],
      liveNote: null,
    });
    expect(registerSourceOfFacts(facts).note).toContain(
      `Taken from the Basic Company Data file of ${FILE_DATE}, where the live profile gives none: incorporationDate, sicCodes, lastAccountsType.`,
    );
    // A signal resting on a field from the file names the file and its date.
    const recent = registerFactsOfLive({ ...live, incorporatedOn: null }, TODAY, {
      facts: registerFactsOfBulkRow({ ...ROW, incorporatedOn: "2025-06-01" }, ADDRESS, TODAY, FILE_DATE, ""),
      fileDate: FILE_DATE,
    });
    expect(baseSignals(recent, null, TODAY).find((s) => s.code === "recently-incorporated")!.source).toBe(
      `companies register (the Basic Company Data file of ${FILE_DATE})`,
    );
  });

  it("the live profile not read: the file's status as of its date, said in the signals and the note, and no absence claimed", () => {
    const note = "Companies House could not be read just now: it answered 502";
    const facts = registerFactsOfBulkRow({ ...ROW, status: "Active - Proposal to Strike off" }, ADDRESS, TODAY, FILE_DATE, note);
    expect(facts.record).toMatchObject({ source: "bulk-file", asOf: FILE_DATE, bulkFileDate: FILE_DATE, liveNote: note });
    expect(facts.record.fromBulkFile).toEqual(expect.arrayContaining(["status", "statusDetail"]));
    const strike = baseSignals(facts, null, TODAY).find((s) => s.code === "proposal-to-strike-off")!;
    expect(strike.label).toBe(`A proposal to strike the company off the register is in progress (as of the Basic Company Data file of ${FILE_DATE})`);
    expect(strike.source).toBe(`companies register (the Basic Company Data file of ${FILE_DATE})`);
    const src = registerSourceOfFacts({ ...facts, insolvencyNotices: { read: false, recent: [], note: "The Gazette could not be read just now" } });
    expect(src).toMatchObject({ statusFrom: "bulk-file", statusAsOf: FILE_DATE, insolvencyNotices: "not-read" });
    expect(src.note).toContain(
      `Companies House's live profile could not be read (${note}): the status active (active-proposal-to-strike-off) and every other register fact are as of the Basic Company Data file of ${FILE_DATE}`,
    );
    expect(src.note).toContain("none is reported, and none is ruled out");
    expect(src.note).not.toMatch(/\bno (proposal|insolvency)\b/i);
  });

  it("a liquidation and a recent Gazette notice are risk signals", async () => {
    const live = await liveProfile("12300001");
    expect(live.status).toBe("liquidation");
    const facts = {
      ...registerFactsOfLive(live, TODAY),
      insolvencyNotices: {
        read: true,
        recent: [{ noticeId: "9", code: "2452", meaning: "Winding-up order", severity: "high" as const, date: "2026-07-08", url: null }],
        note: null,
      },
    };
    const risks = baseSignals(facts, null, TODAY)
      .filter((s) => s.kind === "risk")
      .map((s) => s.code);
    expect(risks).toEqual(expect.arrayContaining(["not-active", "gazette-notice"]));
    expect(registerSourceOfFacts(facts).note).toContain("1 of concern in the last 12 months");
  });
});
