import { beforeAll, describe, expect, it } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/**
 * Issue 18 §1 and §3: enrich (SPEC §2.2) on fixture businesses (test/fixtures/hosts/<name>.test) and the companies
 * register of test/fixtures/enrich/ (the sample edition plus two bakeries sharing a name). The business's own
 * website decides the company; a site that does not confirm gets no company number.
 */

const enrich = async (query: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/enrich?${query}`, { key });
  return { r, body: await json(r), keyId };
};

beforeAll(loadEnrichRegister);

/** Every fixture query and the company number its site confirms (undefined: none may be given). */
const CASES: { q: string; location?: string; number: string | undefined; why: string }[] = [
  { q: "bayside.test", number: "07654321", why: "number in the footer, name agrees" },
  { q: "https://meadowcare.test/", number: "03712548", why: "number only on the terms page (unpadded), name agrees" },
  { q: "brightbakes.test", number: undefined, why: "someone else's number: the register's name for it is not on the site" },
  { q: "acme-widgets.test", number: "06543210", why: "the domain is the registered name" },
  { q: "sunny-days.test", number: undefined, why: "no number, no registered name" },
  { q: "down.test", number: undefined, why: "the site does not answer" },
  { q: "pixelharbour.test", number: undefined, why: "a client's full registered name in a case study on the homepage is not the site's own" },
  { q: "Castle Brook Legal", number: "08112233", why: "a name: the domain it suggests states its number" },
  { q: "Northgate Bakery", number: undefined, why: "two companies share the name" },
  { q: "Northgate Bakery", location: "Leeds", number: "15550101", why: "the location leaves one, whose site gives its full name and postcode" },
  { q: "Northgate Bakery", location: "York", number: undefined, why: "the location leaves one, with no website confirming it" },
];

describe("SPEC §2.2 the website decides the company (issue 18 §1)", () => {
  it("a number stated in the footer: checked on the register (it exists, the name agrees); the profile's fields; 2 credits", async () => {
    const { r, body, keyId } = await enrich("q=bayside.test");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    const p = body.profile;
    expect(p).toMatchObject({
      found: true,
      name: "BAYSIDE HOSPITALITY LIMITED",
      website: "https://bayside.test/",
      companyNumber: "07654321",
      // The live profile's (issue 28 §2), not the monthly file's: it proposes a strike-off, and lists one SIC code where the file had two.
      status: "active",
      statusDetail: "active-proposal-to-strike-off",
      registerSource: { statusFrom: "companies-house", fromBulkFile: [] },
      sicCodes: ["55100"],
      incorporationDate: "2011-05-23",
      confidence: "high",
    });
    expect(p.whatTheyDo).toBe("A 24-room seafront hotel and restaurant on Marine Parade, Brighton, serving breakfast, lunch and dinner with Sussex produce.");
    expect(p.services).toEqual(["Sea-view double rooms", "Private dining for up to 40", "Weddings & celebrations", "Sunday roasts"]);
    expect(p.sizeSignal).toMatch(/^small: small accounts/);
    expect(p.signals).toContainEqual(expect.objectContaining({ code: "hiring", kind: "opportunity" }));
    expect(p.accuracy.breakdown.find((b: { label: string }) => b.label.startsWith("Company number stated"))).toMatchObject({
      points: 40,
      evidence: expect.stringContaining("07654321"),
    });
    expect(p.accuracy.breakdown.find((b: { label: string }) => b.label === "Registered office postcode on the site")).toMatchObject({ points: 15 });
    expect(p.registryNote).toBeUndefined();
    expect(p.attribution).toContain("Open Government Licence");
    expect(p.sources).toEqual(["website: https://bayside.test/", "companies register: 07654321"]);
    expect(body.query).toEqual({ q: "bayside.test" });
    expect(typeof body.ms).toBe("number");
  });

  it("a number stated only on the terms page, unpadded: found there and normalised", async () => {
    const { body } = await enrich("q=https%3A%2F%2Fmeadowcare.test%2F");
    expect(body.profile).toMatchObject({ found: true, companyNumber: "03712548", name: "MEADOW CARE HOMES LIMITED" });
    expect(body.profile.accuracy.breakdown[0].evidence).toContain("3712548");
  });

  it("someone else's number on the site: the register's name for it disagrees, so no number and the note says why", async () => {
    const { body, keyId } = await enrich("q=brightbakes.test");
    expect(body.profile.found).toBe(true);
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.status).toBeUndefined();
    expect(body.profile.registryNote).toContain("01234567");
    expect(body.profile.registryNote).toContain("HARBOURSIDE LEGAL LIMITED");
    expect(body.profile.website).toBe("https://brightbakes.test/");
    expect(body.profile.confidence).toBe("low");
    expect(await balanceOf(keyId)).toBe(98);
  });

  it("a domain that is the registered name confirms the entry, without a number on the site", async () => {
    const { body } = await enrich("q=acme-widgets.test");
    expect(body.profile).toMatchObject({ found: true, companyNumber: "06543210", name: "ACME WIDGETS LIMITED" });
    expect(body.profile.accuracy.breakdown.find((b: { label: string }) => b.label === "Domain is the registered name").points).toBe(15);
    expect(body.profile.services).toEqual(["CNC milling", "CNC turning", "Anodising", "Batch production"]);
  });

  it("a site that confirms no registered company: the site's facts, no number, a registry note", async () => {
    const { body } = await enrich("q=sunny-days.test");
    expect(body.profile).toMatchObject({ found: true, name: "Sunny Days Nursery", website: "https://sunny-days.test/" });
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.registryNote).toMatch(/states no company number/);
    expect(body.profile.signals).toContainEqual(expect.objectContaining({ code: "hiring" }));
  });

  it("a client's full registered name in the homepage's body (a case study) does not make the site that company's", async () => {
    const { body } = await enrich("q=pixelharbour.test");
    expect(body.profile).toMatchObject({ found: true, name: "Pixel Harbour Studio", website: "https://pixelharbour.test/" });
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.registryNote).toBeTruthy();
    // The client's entry was found and weighed (its full name is on the page), then offered only for you to confirm.
    expect(body.profile.alternatives).toEqual([expect.objectContaining({ companyNumber: "01234567", needsConfirm: true })]);
  });

  it("a site that is down: a miss, not an error; nothing charged (x-credits-refunded)", async () => {
    const { r, body, keyId } = await enrich("q=down.test");
    expect(r.status).toBe(200);
    expect(body.profile.found).toBe(false);
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.registryNote).toMatch(/could not be read/);
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("a name: the domain its name suggests states the number, so the company and its website are given", async () => {
    const { body } = await enrich("q=Castle%20Brook%20Legal");
    expect(body.profile).toMatchObject({ found: true, companyNumber: "08112233", website: "https://castlebrooklegal.test/" });
  });

  it("two companies sharing a name: both in alternatives with needsConfirm, nothing picked, free", async () => {
    const { r, body, keyId } = await enrich("q=Northgate%20Bakery");
    expect(body.profile.found).toBe(false);
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.alternatives.map((a: { companyNumber: string }) => a.companyNumber).sort()).toEqual(["05550777", "15550101"]);
    expect(body.profile.alternatives.every((a: { needsConfirm: boolean }) => a.needsConfirm === true)).toBe(true);
    expect(body.profile.registryNote).toMatch(/2 registered companies share the name/);
    expect(r.headers.get("x-credits-refunded")).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("location narrows a shared name; the one left is given only when its website confirms it (full name and postcode)", async () => {
    const leeds = await enrich("q=Northgate%20Bakery&location=Leeds");
    expect(leeds.body.profile).toMatchObject({ found: true, companyNumber: "15550101", website: "https://northgatebakery.test/" });
    expect(leeds.body.query).toEqual({ q: "Northgate Bakery", location: "Leeds" });
    const york = await enrich("q=Northgate%20Bakery&location=York");
    expect(york.body.profile.found).toBe(false);
    expect(york.body.profile.companyNumber).toBeUndefined();
    expect(york.body.profile.alternatives).toEqual([expect.objectContaining({ companyNumber: "05550777", needsConfirm: true })]);
    expect(york.body.profile.registryNote).toMatch(/no website confirming it was found/);
  });

  it("a company number: the register's facts for it, and its website when a suggested domain states the number", async () => {
    const { body } = await enrich("q=01234567");
    expect(body.profile).toMatchObject({ found: true, companyNumber: "01234567", website: "https://harbourside-legal.test/" });
  });

  it("precision: across every fixture, no company number is given that the site does not confirm", async () => {
    for (const c of CASES) {
      const { body } = await enrich(`q=${encodeURIComponent(c.q)}${c.location ? `&location=${encodeURIComponent(c.location)}` : ""}`);
      expect(body.profile.companyNumber, `${c.q} ${c.location ?? ""}: ${c.why}`).toBe(c.number);
      if (body.profile.companyNumber) {
        const site = body.profile.accuracy.breakdown.filter(
          (b: { label: string; points: number }) => b.label !== "The business's own website read" && b.points > 0,
        );
        expect(site.length, `${c.q}: some evidence on the site`).toBeGreaterThan(0);
      } else expect(body.profile.registryNote, c.q).toBeTruthy();
    }
  });

  it("400 naming q when it is missing or too long; nothing charged", async () => {
    for (const q of ["", "q=", `q=${"a".repeat(201)}`, "q=%E2%80%8B", "q=%F0%9F%98%80", "q=a%00b", "q=---"]) {
      const { r, body, keyId } = await enrich(q);
      expect(r.status).toBe(400);
      expect(body.code).toBe("bad_request");
      expect(body.message).toContain("q");
      expect(await balanceOf(keyId)).toBe(100);
    }
  });
});
