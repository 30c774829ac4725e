import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ukCompanyNumberOf } from "../../../src/services/companies/ownership";
import { parsePscList } from "../../../src/sources/companies-house/parse";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/**
 * Issue 12 §2 ownership. Fixtures (test/fixtures/hosts/ch.test/company/<n>/…): 01234567 is controlled by
 * 04712345 (named by its unpadded number 4712345), which is controlled by 07654321, which is controlled by
 * 01234567 again (a cycle), by a Delaware company and by a protected (super-secure) person.
 */

const ownership = async (company: string, verified = false) => {
  const { key, keyId } = await createTestKey({ verified });
  const r = await call(`/api/v1/ownership?company=${encodeURIComponent(company)}`, { key });
  return { r, body: await json(r), keyId };
};

describe("SPEC §4.8 ownership", () => {
  it("SPEC §4.8 a corporate-PSC chain three deep, followed by unpadded UK numbers, ends at a cycle, a foreign parent and a protected person; 2 credits", async () => {
    const { r, body, keyId } = await ownership("01234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(body.company).toMatchObject({ name: "HARBOURSIDE LEGAL LIMITED", number: "01234567" });
    expect(body.levels.map((l: { depth: number; company: { number: string } }) => [l.depth, l.company.number])).toEqual([
      [0, "01234567"],
      [1, "04712345"],
      [2, "07654321"],
    ]);
    const [top, middle, last] = body.levels;
    expect(top.corporateControllers).toEqual([
      {
        name: "Riverside Community Trust",
        kind: "corporate",
        naturesOfControl: ["ownership-of-shares-50-to-75-percent", "voting-rights-50-to-75-percent"],
        registrationNumber: "4712345",
        registeredIn: "England And Wales",
        ukCompanyNumber: "04712345",
        next: "followed",
      },
    ]);
    // The ceased PSC is not counted; two individuals, by nature of control.
    expect(top.individuals).toEqual({
      count: 2,
      byNatureOfControl: { "voting-rights-25-to-50-percent": 1, "ownership-of-shares-25-to-50-percent": 1, "right-to-appoint-and-remove-directors": 1 },
    });
    expect(middle.corporateControllers[0]).toMatchObject({ name: "Bayside Hospitality Limited", ukCompanyNumber: "07654321", next: "followed" });
    expect(last.corporateControllers.map((c: { name: string; next: string }) => [c.name, c.next])).toEqual([
      ["Harbourside Legal Limited", "cycle"],
      ["Atlantic Capital Holdings, Inc.", "foreign"],
    ]);
    expect(last.protectedPersons).toBe(1);
    expect(last.notes.join(" ")).toMatch(/already in the chain: the ownership is circular/);
    expect(last.notes.join(" ")).toMatch(/registered outside the UK \(Delaware\)/);
  });

  it("SPEC §4.8 issue 28 §3 the conclusion names where the chain really ends and why (a cycle, a Delaware parent, a protected person at BAYSIDE), never a controller reached there", async () => {
    const { body } = await ownership("01234567");
    expect(
      body.ends.map((e: { depth: number; company: { number: string }; reason: string; controllerReached: boolean }) => [
        e.depth,
        e.company.number,
        e.reason,
        e.controllerReached,
      ]),
    ).toEqual([
      [0, "01234567", "individuals", true],
      [2, "07654321", "cycle", false],
      [2, "07654321", "overseas-entity", false],
      [2, "07654321", "protected-person", false],
    ]);
    expect(body.ultimateControllerReached).toBe(false);
    expect(body.conclusion).not.toMatch(/ultimate controller was reached at/i);
    expect(body.conclusion).toContain(
      "The chain ends at BAYSIDE HOSPITALITY LIMITED (07654321), level 2, without reaching an ultimate controller: its controller Harbourside Legal Limited (01234567) is already in the chain (a cycle); its controller Atlantic Capital Holdings, Inc. is an overseas entity (registered in Delaware), beyond the UK register, which does not give its own controllers; 1 protected (super-secure) person with significant control, whose details the register withholds.",
    );
    expect(body.conclusion).toMatch(
      /Ultimate controllers reached: 2 individuals with significant control of HARBOURSIDE LEGAL LIMITED \(01234567\), level 0\.$/,
    );
  });

  it("SPEC §1 rule 7 individuals are counted for every caller and named only for a verified account", async () => {
    const open = await ownership("01234567", false);
    expect(open.body.levels[0].individuals.names).toBeUndefined();
    for (const n of ["Harper", "Okonjo", "Peel"]) expect(JSON.stringify(open.body)).not.toContain(n);
    const verified = await ownership("01234567", true);
    expect(verified.body.levels[0].individuals.names).toEqual([
      { name: "Mrs Jane Elizabeth Harper", naturesOfControl: ["voting-rights-25-to-50-percent"] },
      { name: "Mr Thomas Okonjo", naturesOfControl: ["ownership-of-shares-25-to-50-percent", "right-to-appoint-and-remove-directors"] },
    ]);
    expect(JSON.stringify(verified.body)).not.toContain("Peel"); // ceased
  });

  it("SPEC §4.8 a 'no registrable person' statement ends the chain with a plain sentence, no PSC registered (issue 28 §3); an unknown company is 404 with query, free", async () => {
    const { r, body } = await ownership("9876543");
    expect(r.status).toBe(200);
    expect(body.levels).toHaveLength(1);
    expect(body.levels[0]).toMatchObject({
      statements: ["no-individual-or-entity-with-signficant-control"],
      individuals: { count: 0 },
      corporateControllers: [],
    });
    expect(body.levels[0].notes).toEqual([
      "For OAKHILL PROPERTY GROUP LIMITED (09876543), the company says it has no registrable person or relevant legal entity.",
    ]);
    expect(body.ends).toEqual([
      {
        depth: 0,
        company: { name: "OAKHILL PROPERTY GROUP LIMITED", number: "09876543" },
        reason: "no-psc-registered",
        controller: null,
        registeredIn: null,
        count: 0,
        controllerReached: false,
      },
    ]);
    expect(body.conclusion).toBe(
      "No ultimate controller was reached. The chain ends at OAKHILL PROPERTY GROUP LIMITED (09876543), level 0, without reaching an ultimate controller: no person with significant control is registered (the company says it has no registrable person or relevant legal entity).",
    );
    const missing = await ownership("99999999");
    expect(missing.r.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", query: "99999999" });
    expect(await balanceOf(missing.keyId)).toBe(100);
  });

  it.skipIf(!env.SHARED_PRESENT)(
    "real data: Alphabet, Inc., Google UK's PSC, has an unpadded number but is registered in Delaware: not followed as a UK company",
    async () => {
      const body = await (await fetch("http://shared.test/data/companies-house-api/fixtures/kevbite__psc_03977902_corporate_entity.json")).text();
      const list = parsePscList(body)!;
      expect(list.items[0]).toMatchObject({ name: "Alphabet, Inc.", identification: { registrationNumber: "5786925" } });
      expect(ukCompanyNumberOf(list.items[0])).toBeNull();
    },
  );
});
