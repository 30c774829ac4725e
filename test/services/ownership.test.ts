import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { type CompanyRecords, type Ownership, traceOwnership } from "../../src/services/companies/ownership";
import type { CompanyProfile } from "../../src/services/companies/profile";
import type { Psc, PscStatementList } from "../../src/services/companies/records";
import { parseCompanyProfile, parsePsc, parsePscList } from "../../src/sources/companies-house/parse";

/**
 * SPEC §4.8 ownership, issue 28 §3: `conclusion` names where the chain really ends and why (overseas entity, cycle,
 * protected person, no PSC registered, …), from `ends`; it says the ultimate controllers were reached only where
 * they were (individuals, a legal person), never at a company whose controllers go on beyond what was read.
 */

let profileTemplate: CompanyProfile;
const profile = async (number: string, name: string): Promise<CompanyProfile> => {
  profileTemplate ??= parseCompanyProfile(await (await fetch("https://ch.test/company/04455667")).text())!;
  return { ...profileTemplate, number, name, status: "active" };
};
const person = (category: Psc["category"], extra: Partial<Psc> = {}): Psc => ({
  kind: null,
  category,
  name: category === "super-secure" ? null : "Someone",
  notifiedOn: "2020-01-01",
  ceasedOn: null,
  ceased: false,
  naturesOfControl: ["ownership-of-shares-75-to-100-percent"],
  identification: null,
  nationality: null,
  countryOfResidence: null,
  isSanctioned: null,
  identityVerification: null,
  ...extra,
});
const ukParent = (name: string, number: string) =>
  person("corporate", {
    name,
    identification: {
      registrationNumber: number,
      placeRegistered: "Companies House",
      countryRegistered: "England And Wales",
      legalForm: "Private Limited Company",
      legalAuthority: "Companies Act 2006",
    },
  });
const list = (...items: Psc[]) => ({ totalResults: items.length, activeCount: items.length, ceasedCount: 0, itemsPerPage: 100, startIndex: 0, items });
const statements = (...codes: string[]): PscStatementList => ({
  totalResults: codes.length,
  activeCount: codes.length,
  ceasedCount: 0,
  itemsPerPage: 100,
  startIndex: 0,
  items: codes.map((c) => ({ statement: c, notifiedOn: "2020-01-01", ceasedOn: null, linkedPscName: null })),
});

/** A register of companies by number: [name, PSCs, statements]. */
async function trace(chain: Record<string, [string, Psc[] | null, PscStatementList | null]>, startAt: string, maxDepth?: number): Promise<Ownership> {
  const records = async (n: string): Promise<CompanyRecords> => {
    const c = chain[n];
    if (!c) return { profile: null, pscs: null, statements: null };
    return { profile: await profile(n, c[0]), pscs: c[1] && list(...c[1]), statements: c[2] };
  };
  const first = await records(startAt);
  return traceOwnership(first.profile!, records, { canSeeNames: false, first, maxDepth });
}
const reasons = (o: Ownership) => o.ends.map((e) => `${e.depth}:${e.company.number}:${e.reason}`);

describe("SPEC §4.8 ownership: where the chain ends, and why (issue 28 §3)", () => {
  it("individuals with significant control: the ultimate controllers were reached, and the conclusion says so", async () => {
    const o = await trace(
      {
        "00000001": ["ALPHA LIMITED", [ukParent("Beta Limited", "2")], null],
        "00000002": ["BETA LIMITED", [person("individual"), person("individual")], null],
      },
      "00000001",
    );
    expect(reasons(o)).toEqual(["1:00000002:individuals"]);
    expect(o.ends[0]).toMatchObject({ count: 2, controllerReached: true, controller: null });
    expect(o.ultimateControllerReached).toBe(true);
    expect(o.conclusion).toBe("The ultimate controllers were reached: 2 individuals with significant control of BETA LIMITED (00000002), level 1.");
  });

  it("an overseas entity: the chain ends at the UK company it controls, the parent named as not followed, never as the controller reached", async () => {
    const delaware = person("corporate", {
      name: "Atlantic Capital Holdings, Inc.",
      identification: {
        registrationNumber: "6543210",
        placeRegistered: "Delaware",
        countryRegistered: "Delaware",
        legalForm: "Corporate",
        legalAuthority: "Delaware Secretary Of State",
      },
    });
    const o = await trace({ "00000001": ["ALPHA LIMITED", [delaware], null] }, "00000001");
    expect(o.ends).toEqual([
      {
        depth: 0,
        company: { name: "ALPHA LIMITED", number: "00000001" },
        reason: "overseas-entity",
        controller: "Atlantic Capital Holdings, Inc.",
        registeredIn: "Delaware",
        count: 1,
        controllerReached: false,
      },
    ]);
    expect(o.ultimateControllerReached).toBe(false);
    expect(o.conclusion).toMatch(
      /^No ultimate controller was reached\. The chain ends at ALPHA LIMITED \(00000001\), level 0, without reaching an ultimate controller: its controller Atlantic Capital Holdings, Inc\. is an overseas entity \(registered in Delaware\)/,
    );
    expect(o.conclusion).not.toMatch(/controllers? (was|were) reached at/);
  });

  it("a cycle: the chain ends where a controller already in the chain is met again", async () => {
    const o = await trace(
      { "00000001": ["ALPHA LIMITED", [ukParent("Beta Limited", "2")], null], "00000002": ["BETA LIMITED", [ukParent("Alpha Limited", "1")], null] },
      "00000001",
    );
    expect(reasons(o)).toEqual(["1:00000002:cycle"]);
    expect(o.ends[0].controller).toBe("Alpha Limited (00000001)");
    expect(o.conclusion).toBe(
      "No ultimate controller was reached. The chain ends at BETA LIMITED (00000002), level 1, without reaching an ultimate controller: its controller Alpha Limited (00000001) is already in the chain (a cycle).",
    );
  });

  it("a protected (super-secure) person: counted, their details withheld, not an ultimate controller reached", async () => {
    const o = await trace({ "00000001": ["ALPHA LIMITED", [person("super-secure")], null] }, "00000001");
    expect(o.ends).toEqual([expect.objectContaining({ reason: "protected-person", count: 1, controller: null, controllerReached: false })]);
    expect(o.conclusion).toContain("1 protected (super-secure) person with significant control, whose details the register withholds");
    expect(o.ultimateControllerReached).toBe(false);
  });

  it("no PSC registered: the chain ends there, with the company's statement when it made one", async () => {
    const none = await trace({ "00000001": ["ALPHA LIMITED", null, null] }, "00000001");
    expect(none.ends).toEqual([expect.objectContaining({ reason: "no-psc-registered", count: 0, controllerReached: false })]);
    expect(none.conclusion).toBe(
      "No ultimate controller was reached. The chain ends at ALPHA LIMITED (00000001), level 0, without reaching an ultimate controller: no person with significant control is registered.",
    );
    const stated = await trace({ "00000001": ["ALPHA LIMITED", [], statements("no-individual-or-entity-with-signficant-control")] }, "00000001");
    expect(stated.conclusion).toContain(
      "no person with significant control is registered (the company says it has no registrable person or relevant legal entity)",
    );
  });

  it("a PSC the company has not identified, a controller with no registration details, a UK number the register does not have, the depth limit: each an end short of a controller", async () => {
    const o = await trace(
      {
        "00000001": [
          "ALPHA LIMITED",
          [person("individual"), person("corporate", { name: "Nameless Holdings" }), ukParent("Ghost Limited", "99"), ukParent("Beta Limited", "2")],
          statements("psc-exists-but-not-identified"),
        ],
        "00000002": ["BETA LIMITED", [ukParent("Gamma Limited", "3")], null],
        "00000003": ["GAMMA LIMITED", [person("individual")], null],
      },
      "00000001",
      1,
    );
    expect(reasons(o)).toEqual([
      "0:00000001:individuals",
      "0:00000001:unidentified",
      "0:00000001:not-on-register",
      "0:00000001:psc-not-identified",
      "1:00000002:depth-limit",
    ]);
    expect(o.ultimateControllerReached).toBe(false);
    expect(o.conclusion).toContain("its controller Nameless Holdings gives no registration details to follow");
    expect(o.conclusion).toContain("its controller Ghost Limited (00000099) is named as a UK company the companies register does not have");
    expect(o.conclusion).toContain("the company knows it has a registrable person but has not identified them");
    expect(o.conclusion).toContain(
      "The chain ends at BETA LIMITED (00000002), level 1, without reaching an ultimate controller: its controller Gamma Limited (00000003) is not followed past 1 levels.",
    );
    expect(o.conclusion).toMatch(/Ultimate controllers reached: 1 individual with significant control of ALPHA LIMITED \(00000001\), level 0\.$/);
    expect(o.conclusion).not.toContain("GAMMA"); // never read: never named as where the chain ends
  });

  it("a legal person (such as a government body) is an ultimate controller reached", async () => {
    const o = await trace({ "00000001": ["ALPHA LIMITED", [person("legal-person", { name: "The Secretary of State for Transport" })], null] }, "00000001");
    expect(o.ends).toEqual([expect.objectContaining({ reason: "legal-person", controller: "The Secretary of State for Transport", controllerReached: true })]);
    expect(o.conclusion).toBe(
      "The ultimate controllers were reached: The Secretary of State for Transport, a legal person (such as a government body), controlling ALPHA LIMITED (00000001), level 0.",
    );
  });

  it("every conclusion follows from `ends`: 'reached' only when every end is a controller reached", async () => {
    const cases = [
      await trace({ "00000001": ["ALPHA LIMITED", [person("individual")], null] }, "00000001"),
      await trace({ "00000001": ["ALPHA LIMITED", [person("individual"), person("super-secure")], null] }, "00000001"),
      await trace({ "00000001": ["ALPHA LIMITED", null, null] }, "00000001"),
    ];
    for (const o of cases) {
      expect(o.ultimateControllerReached).toBe(o.ends.every((e) => e.controllerReached));
      expect(o.conclusion.startsWith("The ultimate controllers were reached")).toBe(o.ultimateControllerReached);
      for (const e of o.ends) expect(o.conclusion).toContain(`${e.company.name} (${e.company.number}), level ${e.depth}`);
    }
  });
});

describe.skipIf(!SHARED_PRESENT)("SPEC §4.8 ownership on Companies House's own replies (../shared)", () => {
  it("Google UK's real PSC list: Alphabet, Inc. (Delaware) is an overseas entity where the chain ends; no controller is said to be reached", async () => {
    const pscs = parsePscList(await (await fetch("http://shared.test/data/companies-house-api/fixtures/kevbite__psc_03977902_corporate_entity.json")).text())!;
    const start = await profile("03977902", "GOOGLE UK LIMITED");
    const o = await traceOwnership(start, async () => ({ profile: null, pscs: null, statements: null }), {
      canSeeNames: false,
      first: { profile: start, pscs, statements: null },
    });
    expect(o.ends).toEqual([
      expect.objectContaining({ reason: "overseas-entity", controller: "Alphabet, Inc.", registeredIn: "Delaware", controllerReached: false }),
    ]);
    expect(o.conclusion).toMatch(/^No ultimate controller was reached\. The chain ends at GOOGLE UK LIMITED \(03977902\), level 0/);
  });

  it("Companies House's super-secure and legal-person PSC bodies: a protected person ends the chain short of a controller, a legal person is one reached", async () => {
    const read = async (f: string) => parsePsc(await (await fetch(`http://shared.test/data/companies-house-api/fixtures/${f}`)).text())!;
    const secure = await read("ch-psc-data-api-synthetic__get_super_secure_output.json");
    const legal = await read("ch-psc-data-api-synthetic__get_legal_person_output.json");
    const start = await profile("34777777", "SYNTHETIC LIMITED");
    const o = await traceOwnership(start, async () => ({ profile: null, pscs: null, statements: null }), {
      canSeeNames: false,
      first: { profile: start, pscs: list(secure, legal), statements: null },
    });
    expect(o.ends.map((e) => [e.reason, e.controllerReached])).toEqual([
      ["legal-person", true],
      ["protected-person", false],
    ]);
    expect(o.ultimateControllerReached).toBe(false);
  });
});
