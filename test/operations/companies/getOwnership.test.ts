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
    expect(body.conclusion).toMatch(/^The ultimate controller was reached at level 2, BAYSIDE HOSPITALITY LIMITED \(07654321\)/);
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

  it("SPEC §4.8 a 'no registrable person' statement ends the chain with a plain sentence; an unknown company is 404 with query, free", async () => {
    const { r, body } = await ownership("9876543");
    expect(r.status).toBe(200);
    expect(body.levels).toHaveLength(1);
    expect(body.levels[0]).toMatchObject({ statements: ["no-individual-or-entity-with-signficant-control"], individuals: { count: 0 }, corporateControllers: [] });
    expect(body.levels[0].notes).toEqual(["For OAKHILL PROPERTY GROUP LIMITED (09876543), the company says it has no registrable person or relevant legal entity."]);
    expect(body.conclusion).toMatch(/^The ultimate controller was reached at level 0, OAKHILL PROPERTY GROUP LIMITED \(09876543\) \(For OAKHILL/);
    const missing = await ownership("99999999");
    expect(missing.r.status).toBe(404);
    expect(missing.body).toMatchObject({ code: "not_found", query: "99999999" });
    expect(await balanceOf(missing.keyId)).toBe(100);
  });

  it.skipIf(!env.SHARED_PRESENT)("real data: Alphabet, Inc., Google UK's PSC, has an unpadded number but is registered in Delaware: not followed as a UK company", async () => {
    const body = await (await fetch("http://shared.test/data/companies-house-api/fixtures/kevbite__psc_03977902_corporate_entity.json")).text();
    const list = parsePscList(body)!;
    expect(list.items[0]).toMatchObject({ name: "Alphabet, Inc.", identification: { registrationNumber: "5786925" } });
    expect(ukCompanyNumberOf(list.items[0])).toBeNull();
  });
});
