import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { type SicFile, loadSic } from "../../../src/cli/sic";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/**
 * Issue 18 §2 industry-classifier (SPEC §4.2): registered SIC codes for a confirmed company, checked against its
 * website; the website's text classified against the SIC 2007 lists when no company is confirmed. The lists are our
 * sample (test/fixtures/sic-2007) and, where ../shared is present, the published ones.
 */

const NAMES = ["SIC07_CH_condensed_list_en.csv", "ons_economic_activities_alphabetic_index.csv", "ch_created_activity_sic_codes.csv"];
const loadLists = async (base: string) => {
  const files: SicFile[] = await Promise.all(
    NAMES.map(async (name) => ({
      name,
      text: new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(await (await fetch(`${base}/${name}`)).arrayBuffer()),
    })),
  );
  await env.COMPANIES_DB.batch([env.COMPANIES_DB.prepare("DELETE FROM sic_index"), env.COMPANIES_DB.prepare("DELETE FROM sic_index_state")]);
  const r = await loadSic(env, files, { sample: base.startsWith("http://files.test") });
  expect(r.outcome).toBe("loaded");
};

const classify = async (q: string) => {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/industry-classifier?${new URLSearchParams({ q })}`, { key });
  return { r, body: await json(r), keyId };
};

beforeAll(loadEnrichRegister);

describe("SPEC §4.2 industry-classifier", () => {
  it("a confirmed company: its registered codes in plain English, checked against its website; 2 credits", async () => {
    await loadLists("http://files.test/sic-2007");
    const { r, body, keyId } = await classify("bayside.test");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);
    expect(body.business).toEqual({ name: "BAYSIDE HOSPITALITY LIMITED", website: "https://bayside.test/", companyNumber: "07654321" });
    // The codes the live register gives (issue 28 §2: its live profile, not the monthly file, which also listed 56101).
    expect(body.industry.codes.map((c: { code: string; source: string }) => [c.code, c.source])).toEqual([["55100", "register"]]);
    expect(body.industry.section).toEqual({ letter: "I", name: expect.stringMatching(/^Accommodation and food service/) });
    expect(body.basis).toBe("register-checked");
    expect(body.websiteReading.candidates.length).toBeGreaterThan(0);
    expect(body.websiteReading.agreement.map((a: { code: string }) => a.code)).toEqual(["55100"]);
    expect(["high", "medium"]).toContain(body.confidence);
    expect(body.description).toContain("seafront hotel");
    expect(body.lists).toMatch(/sample/);
  });

  it("no confirmed company: the website's text read against the SIC 2007 index, with the phrases matched as evidence", async () => {
    const { body } = await classify("sunny-days.test");
    expect(body.found).toBe(true);
    expect(body.business.companyNumber).toBeUndefined();
    expect(body.basis).toBe("website");
    expect(body.industry.codes[0]).toMatchObject({ code: "88910", source: "website" });
    expect(body.websiteReading.candidates[0].matched.length).toBeGreaterThan(0);
  });

  it("nothing identified (the site is down): found false, nothing charged", async () => {
    const { r, body, keyId } = await classify("down.test");
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ found: false, industry: null, basis: "none" });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("no SIC lists loaded: registered codes still answer; the website is not classified and `lists` says why", async () => {
    await env.COMPANIES_DB.batch([env.COMPANIES_DB.prepare("DELETE FROM sic_index"), env.COMPANIES_DB.prepare("DELETE FROM sic_index_state")]);
    const { body } = await classify("acme-widgets.test");
    expect(body.industry.codes.map((c: { code: string }) => c.code)).toEqual(["25620", "82990"]);
    expect(body.lists).toMatch(/No SIC 2007 lists are loaded/);
    expect(body.websiteReading.reason).toMatch(/no SIC 2007 list is loaded/);
  });

  it.skipIf(!env.SHARED_PRESENT)(
    "real lists (../shared): the nursery's site reads as child day-care; the hotel's registered codes are confirmed by its site",
    async () => {
      await loadLists("http://shared.test/data/sic-2007");
      const nursery = await classify("https://sunny-days.test/?real=1");
      expect(nursery.body.industry.codes[0].code).toBe("88910");
      expect(nursery.body.lists).toMatch(/published SIC 2007 lists/);
      const hotel = await classify("https://bayside.test/?real=1");
      expect(hotel.body.confidence).toBe("high");
    },
  );

  it("400 naming q; nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    const r = await call("/api/v1/industry-classifier", { key });
    expect(r.status).toBe(400);
    expect((await json(r)).message).toContain("q");
    expect(await balanceOf(keyId)).toBe(100);
  });
});
