import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ingestEdition } from "../../src/jobs/ingest/job";
import { storeOf } from "../../src/jobs/ingest/pipeline";
import { type Services, buildServices } from "../../src/platform/services";
import { readWatchedCompany } from "../../src/platform/watchReader";
import type { RegisterSource } from "../../src/services/registers/types";
import { type Reading, readingOf } from "../../src/services/watch/reading";
import { UpstreamError } from "../../src/shared/errors";
import { bytesOf, enc, ingest, load } from "../operations/registers/registerData";
import { ingestPortsFor } from "../../src/platform/jobPorts";

/**
 * Issue 15 §2 the daily read: one watched company read from every source into a ReadingInput, on the fixtures the
 * operations are tested on: Companies House (test/fixtures/hosts/ch.test: 12300001 in liquidation, 12300002
 * proposed for strike-off, 01234567 with officers and PSCs), The Gazette (gazette.test), the sanctions list,
 * payment practices, contracts and sponsors editions (test/fixtures/...). Registers load part-way through the file:
 * the first test reads before any is loaded.
 */

const NOW = new Date("2026-12-02T06:00:00.000Z");
/** People the Companies House fixtures name (officers, PSCs, the liquidator, a person entitled to a charge). */
const PEOPLE = ["Harper", "Okonjo", "Peel", "Jane Elizabeth", "Miranda", "Pellingham"];

/** Services whose Companies House profile reads are counted (and may be replaced). */
function counting(getProfile?: Services["companiesHouse"]["getProfile"]) {
  const base = buildServices(env);
  const ch = base.companiesHouse;
  const calls: string[] = [];
  const services: Services = {
    ...base,
    companiesHouse: {
      ...ch,
      getProfile: (n) => {
        calls.push(n);
        return (getProfile ?? ch.getProfile)(n);
      },
    },
  };
  return { services, calls };
}

async function read(company: string, services: Services = buildServices(env)): Promise<{ name: string | null; reading: Reading }> {
  const r = await readWatchedCompany(services, company, NOW);
  expect(r.input).toMatchObject({ company, readAt: NOW.toISOString() });
  return { name: r.name, reading: readingOf(r.input) };
}

const loadFile = async (source: RegisterSource, path: string) => {
  await storeOf(source).reset(ingestPortsFor(env), source);
  const r = await ingestEdition(ingestPortsFor(env), { source, bytes: await bytesOf(path), fileName: path.split("/").pop()!, url: null, editionDate: null });
  expect(r.outcome).toBe("loaded");
};

afterEach(() => vi.restoreAllMocks());

describe("issue 15 §2 the daily read, before any register is loaded", () => {
  it("no sanctions list: not checked (never a clearance); payments, contracts and sponsors not read (not loaded yet), never none", async () => {
    const { name, reading } = await read("01234567");
    expect(name).toBe("HARBOURSIDE LEGAL LIMITED");
    expect(reading.register.ok).toBe(true);
    expect(reading.sanctions).toEqual({ ok: true, readAt: NOW.toISOString(), checked: false, listDate: null, listIds: [] });
    for (const s of [reading.payments, reading.contracts, reading.sponsors])
      expect(s).toMatchObject({ ok: false, reason: expect.stringMatching(/not loaded yet$/) });
  });
});

describe("issue 15 §2 the daily read", () => {
  beforeAll(async () => {
    await loadFile("sanctions", "sanctions/UK-Sanctions-List.csv");
    await loadFile("payment-practices", "payment-practices/operations-export.csv");
    await loadFile("contracts", "contracts/operations-awards.json");
    await load("sponsors");
  });

  it("12300001 in liquidation: status, the insolvency case, both charges and the Gazette notices matched to it; no person named", async () => {
    const { name, reading } = await read("12300001");
    expect(name).toBe("NORTHGATE FABRICATIONS LIMITED");
    expect(reading.register).toMatchObject({ ok: true, status: "liquidation", statusDetail: null });
    expect(reading.distress).toMatchObject({
      ok: true,
      strikeOff: { proposed: false, firstNoticeOn: null },
      cases: [{ key: "1|compulsory-liquidation", caseNumber: "1", caseType: "compulsory-liquidation" }],
      charges: [
        { chargeCode: "123000010001", status: "fully-satisfied" },
        { chargeCode: "123000010002", createdOn: "2019-11-04", status: "outstanding" },
      ],
    });
    // As distress-signals matches them: by number (5287711 through its linked data), not the same name with another number.
    const notices = reading.distress.ok ? reading.distress.notices! : [];
    expect(notices.map((n) => n.noticeId)).toEqual(expect.arrayContaining(["5260430", "5287711"]));
    expect(notices).toHaveLength(3);
    const text = JSON.stringify(reading);
    for (const p of PEOPLE) expect(text).not.toContain(p);
  });

  it("12300002 proposed for strike-off: dated by its first Gazette notice, filings overdue, no case and no charge", async () => {
    const { reading } = await read("12300002");
    expect(reading.register).toMatchObject({
      ok: true,
      status: "active",
      statusDetail: "active-proposal-to-strike-off",
      accountsOverdue: true,
      accountsDueOn: "2025-12-31",
      confirmationOverdue: true,
      confirmationDueOn: "2026-06-14",
    });
    expect(reading.distress).toMatchObject({ ok: true, strikeOff: { proposed: true, firstNoticeOn: "2026-10-14" }, cases: [], charges: [] });
    expect(reading.distress.ok && reading.distress.notices!.map((n) => n.noticeId)).toEqual(["5241020", "5270005"]);
  });

  it("01234567: directors and PSCs counted with identity verification, never named; its payment reports and contract awards; one profile read", async () => {
    const { services, calls } = counting();
    const { reading } = await read("01234567", services);
    expect(reading.register).toMatchObject({
      ok: true,
      directors: 2,
      pscs: 3,
      idv: { directors: { verified: 1, statementDue: 1, overdue: 0, notApplicable: 0 }, pscs: { verified: 1, statementDue: 0, overdue: 0, notApplicable: 2 } },
    });
    const text = JSON.stringify(reading);
    for (const p of PEOPLE) expect(text).not.toContain(p);
    // Payment practices found by the number on the reports (one unpadded).
    expect(reading.payments).toMatchObject({ ok: true, reports: 3, latest: { reportId: 5003, periodEnd: "2026-06-30", avgDays: 45, pctLate: 18 } });
    // Contracts as contracts-won ties them: by number, and the exact name at the registered office's postcode.
    expect(reading.contracts.ok && reading.contracts.awards.map((a) => a.awardDate)).toEqual(["2026-10-15", "2026-09-10", "2026-02-27", "2025-05-28"]);
    expect(reading.contracts).toMatchObject({ total: 4, truncated: false });
    expect(reading.sponsors).toMatchObject({ ok: true, entries: [] }); // on the register, not as a sponsor: none
    expect(calls).toEqual(["01234567"]); // the register lookups reuse the profile read
  });

  it("issue 28 §1 07654321: sponsors entries found only through a former name are a possible match, so not read as the company's", async () => {
    const { reading } = await read("07654321");
    expect(reading.sponsors).toMatchObject({ ok: true, entries: [] });
  });

  it("06527449: a definite match on the sanctions list, by its list id", async () => {
    const { reading } = await read("06527449");
    expect(reading.sanctions).toMatchObject({ ok: true, checked: true, listDate: "2026-02-13", listIds: ["BEL0107"] });
    const { reading: clear } = await read("05550123");
    expect(clear.sanctions).toMatchObject({ ok: true, checked: true, listIds: [] });
  });

  it("Companies House down: register and distress not read; payments still read by number; what needs the company's names is not read either", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // the lookup logs that Companies House could not be read
    const { services, calls } = counting(async () => {
      throw new UpstreamError("companies-house", "unreachable", "Companies House answered HTTP 502", { status: 502 });
    });
    const { name, reading } = await read("01234567", services);
    expect(name).toBeNull();
    expect(reading.register).toEqual({ ok: false, readAt: NOW.toISOString(), reason: "Companies House answered HTTP 502" });
    expect(reading.distress).toMatchObject({ ok: false, reason: "Companies House answered HTTP 502" });
    expect(reading.payments).toMatchObject({ ok: true, reports: 3 });
    for (const s of [reading.sanctions, reading.contracts, reading.sponsors])
      expect(s).toMatchObject({ ok: false, reason: expect.stringContaining("Companies House") });
    expect(calls).toEqual(["01234567"]); // tried once, not again by each lookup
  });

  it("The Gazette down: distress still read, its notices not read (null), never none", async () => {
    const services: Services = {
      ...buildServices(env),
      gazette: { insolvencyNotices: async () => Promise.reject(new UpstreamError("gazette", "timeout", "The Gazette did not answer")) },
    };
    const { reading } = await read("12300001", services);
    expect(reading.distress).toMatchObject({ ok: true, notices: null, cases: [{ caseNumber: "1" }] });
  });

  it("a number that is no company: register not read (no company), name null; the registers are read and have none", async () => {
    const { name, reading } = await read("99999999");
    expect(name).toBeNull();
    expect(reading.register).toMatchObject({ ok: false, reason: expect.stringContaining("no company") });
    expect(reading.distress.ok).toBe(false);
    expect(reading.sanctions).toMatchObject({ ok: true, checked: true, listIds: [] });
    expect(reading.payments).toMatchObject({ ok: true, reports: 0, latest: null });
    expect(reading.contracts).toMatchObject({ ok: true, total: 0 });
    expect(reading.sponsors).toMatchObject({ ok: true, entries: [] });
  });

  it("a sponsor removed from the register is still read, as no longer listed", async () => {
    const last = new TextDecoder().decode(await bytesOf("sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-10-06.csv"));
    // Listed in Rotherham, where its registered office is, so its current name is a definite match (issue 28 §1)…
    await ingest("sponsors", enc(last.replace("Greystone Engineering Ltd,Sheffield", "Greystone Engineering Ltd,Rotherham")), "2026-10-07");
    expect((await read("05550123")).reading.sponsors).toMatchObject({ ok: true, entries: [{ route: "Skilled Worker", town: "Rotherham", listed: true }] });
    // …then gone from the register.
    await ingest(
      "sponsors",
      enc(
        last
          .split("\n")
          .filter((l) => !/Greystone/i.test(l))
          .join("\n"),
      ),
      "2026-10-08",
    );
    const { reading } = await read("05550123");
    expect(reading.sponsors).toMatchObject({ ok: true, entries: [{ route: "Skilled Worker", listed: false }] });
  });
});
