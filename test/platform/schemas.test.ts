import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/operations";
import { ingestEdition } from "../../src/jobs/ingest/job";
import type { RegisterSource } from "../../src/services/registers/types";
import { call, createTestKey, startSignup, uniqueContact, verifySignup } from "../helpers";
import { CHARITY_EXTRA_TABLES } from "../../src/sources/charity-commission/parse";

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());

/** Two editions of each register (so the feeds have changes), loaded through the real pipeline. */
beforeAll(async () => {
  const load = async (source: RegisterSource, path: string, editionDate: string, extra = {}) => {
    const r = await ingestEdition(env, { source, bytes: await bytesOf(path), fileName: path.split("/").pop()!, url: null, editionDate, ...extra });
    if (r.outcome !== "loaded") throw new Error(`${path}: ${r.outcome} ${r.reason}`);
  };
  await load("sponsors", "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv", "2026-06-26");
  await load("sponsors", "sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-29.csv", "2026-06-29");
  await load("aml", "hmrc-mlr/supervised-business-register-2026-09.ods", "2026-10-07");
  await load("aml", "hmrc-mlr/supervised-business-register-2026-10.ods", "2026-11-07");
  await load("sra", "sra/GetAll.json", "2026-10-08");
  await load("cqc", "cqc/hsca-active-locations.ods", "2026-10-02");
  const extraTables = Object.fromEntries(await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(`charity/publicextract.${t}.txt`)])));
  await load("charity", "charity/publicextract.charity.txt", "2026-10-07", { extraTables });
});

/** A keyed GET whose first matching entry is read from the loaded register, so the check finds something real. */
const keyed = async (path: string) => call(path, { key: (await createTestKey()).key });
const firstName = async (source: RegisterSource) =>
  encodeURIComponent((await env.DB.prepare(`SELECT name FROM register_entries WHERE source = ? AND removed_on IS NULL ORDER BY key LIMIT 1`).bind(source).first<{ name: string }>())!.name);

/**
 * One real successful call per operation. A new operation without a case here fails the coverage test:
 * every reply the service documents must parse with the schema it declares.
 */
const cases: Record<string, () => Promise<Response>> = {
  calculateLatePayment: async () => call("/api/v1/late-payment?amount=999.99&due=2026-01-15&paid=2026-10-08", { key: (await createTestKey()).key }),
  companyLogo: () => call("/api/v1/company-logo?domain=logo.test", { headers: { "cf-connecting-ip": "203.0.113.77" } }),
  startSignup: async () => (await startSignup(uniqueContact())).reply,
  verifySignup: async () => {
    const { challengeId, emailCode, mobileCode } = await startSignup(uniqueContact());
    return verifySignup({ challengeId, emailCode, mobileCode });
  },
  getAccount: async () => call("/api/v1/account", { key: (await createTestKey({ verified: true })).key }),
  revokeApiKey: async () => call("/api/v1/account/keys", { key: (await createTestKey()).key, method: "DELETE" }),
  checkAmlRegister: async () => keyed(`/api/v1/aml-register?company=${await firstName("aml")}`),
  listAmlRegisterChanges: () => keyed("/api/v1/aml-register/changes?since=2026-01-01"),
  checkSraRegister: () => keyed("/api/v1/sra-check?company=Riverine%20Solicitors"),
  listSraChanges: () => keyed("/api/v1/sra-check/changes?since=2026-01-01"),
  checkSponsorLicence: async () => keyed(`/api/v1/sponsor-licence?company=${await firstName("sponsors")}`),
  listSponsorLicenceChanges: () => keyed("/api/v1/sponsor-licence/changes?since=2026-01-01&kind=added,removed,re-rated,moved"),
  checkCqcProvider: async () => keyed(`/api/v1/cqc-check?company=${await firstName("cqc")}`),
  listCqcChanges: () => keyed("/api/v1/cqc-check/changes?since=2026-01-01"),
  checkCharity: async () => keyed(`/api/v1/charity-check?company=${await firstName("charity")}`),
  listCharityChanges: () => keyed("/api/v1/charity-check/changes?since=2026-01-01"),
};

describe("SPEC §2 every reply parses with its operation's declared output schema", () => {
  it("SPEC §2 there is a case for every operation in the registry, and none for an unknown one", () => {
    const ids = operations.map((o) => o.operationId);
    expect({ withoutCase: ids.filter((id) => !cases[id]), unknown: Object.keys(cases).filter((id) => !ids.includes(id)) }).toEqual({ withoutCase: [], unknown: [] });
  });

  for (const op of operations.filter((o) => cases[o.operationId]))
    it(`SPEC §2 ${op.operationId}: a real ${op.method.toUpperCase()} ${op.path} reply parses with op.output`, async () => {
      const r = await cases[op.operationId]();
      const body = await r.json();
      expect(r.status, JSON.stringify(body)).toBeLessThan(300);
      const parsed = op.output.safeParse(body);
      expect(parsed.error?.issues).toBeUndefined();
      // No undeclared keys slip through either (output schemas are plain objects).
      expect(Object.keys(body as object).sort()).toEqual(Object.keys(parsed.data as object).sort());
    });
});
