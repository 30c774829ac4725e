import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue 14 §2 gender-pay-gap on test/fixtures/gender-pay-gap/2025 and 2026 (two reporting years, two scopes). */

const get = async (path: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(path, { key });
  return { r, body: await json(r), keyId };
};

beforeAll(async () => {
  await storeOf("gender-pay-gap").reset(ingestPortsFor(env), "gender-pay-gap");
  for (const year of ["2025", "2026"]) {
    const bytes = new Uint8Array(await (await fetch(`http://files.test/gender-pay-gap/${year}`)).arrayBuffer());
    const r = await ingestEdition(ingestPortsFor(env), {
      source: "gender-pay-gap",
      bytes,
      fileName: `UK Gender Pay Gap Data - ${year} to ${Number(year) + 1}.csv`,
      url: null,
      editionDate: null,
    });
    expect(r.outcome).toBe("loaded");
  }
});

describe("issue 14 §2 gender-pay-gap", () => {
  it("by company number (unpadded on the file): every year newest first, the key is company, never employer; 1 credit", async () => {
    const { r, body, keyId } = await get("/api/v1/gender-pay-gap?company=04712345");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    expect(body.company).toMatchObject({ number: "04712345", name: "RIVERSIDE COMMUNITY TRUST" });
    expect(body.matchedBy).toMatch(/company number/);
    expect(body.years.map((y: { year: string }) => y.year)).toEqual(["2026"]);
    const y = body.years[0];
    expect(y).toMatchObject({ reportingYear: "2026 to 2027", filedAs: "RIVERSIDE COMMUNITY TRUST" });
    expect(Object.keys(y)).toEqual(expect.arrayContaining(["hourlyPayGap", "bonusPayGap", "receivingBonus", "quartiles", "sizeBand", "submittedLate"]));
    expect(JSON.stringify(body)).not.toMatch(/"employer/i);
  });

  it("filed late is said; a company on file in two years has both, newest first", async () => {
    const { body } = await get("/api/v1/gender-pay-gap?company=03712548");
    expect(body.years.map((y: { year: string; submittedLate: boolean }) => [y.year, y.submittedLate])).toEqual([["2025", true]]);
    expect(body.note).toContain("Filed late for 2025");
  });

  it("by name: a public body with no company number is found by its name, company null, said how", async () => {
    const { r, body } = await get(`/api/v1/gender-pay-gap?company=${encodeURIComponent("Northbridge Metropolitan Borough Council")}`);
    expect(r.status).toBe(200);
    expect(body.company).toBeNull();
    expect(body.matchedBy).toMatch(/name/);
    expect(body.years.map((y: { year: string }) => y.year)).toEqual(["2026", "2025"]);
  });

  it("a real company without reports is an answer; a name that matches nothing is 404 with query, free", async () => {
    const { r, body } = await get("/api/v1/gender-pay-gap?company=05550123");
    expect(r.status).toBe(200);
    expect(body.years).toEqual([]);
    const none = await get("/api/v1/gender-pay-gap?company=Zzyzx%20Nonexistent%20Widgets");
    expect(none.r.status).toBe(404);
    expect(none.body.query).toBe("Zzyzx Nonexistent Widgets");
    expect(await balanceOf(none.keyId)).toBe(100);
  });
});
