import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { EditionFile } from "../../../src/jobs/ingest/adapter";
import { type IngestOptions, ingestEdition } from "../../../src/jobs/ingest/job";
import { REGISTER_CATALOGUE } from "../../../src/services/registers/catalogue";
import type { RegisterSource } from "../../../src/services/registers/types";
import { CHARITY_EXTRA_TABLES } from "../../../src/sources/charity-commission/parse";
import { balanceOf, call, createTestKey } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * What the register checks' tests share (issue "Register checks with daily change feeds" §2): the editions each
 * register is loaded with, and calling a check over HTTP with a key. Companies House profiles come from
 * test/fixtures/hosts/ch.test/company/<number>/index.json; a number without one is a 404.
 */

export const SRA_ATTRIBUTION = REGISTER_CATALOGUE.sra.attribution;

export const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
export const enc = (s: string) => new TextEncoder().encode(s);
export const ingest = async (source: RegisterSource, bytes: Uint8Array, editionDate: string, extra: Partial<EditionFile> = {}, opts: IngestOptions = {}) => {
  const r = await ingestEdition(ingestPortsFor(env), { source, bytes, fileName: null, url: null, editionDate, ...extra }, opts);
  if (r.outcome !== "loaded" && r.outcome !== "unchanged") throw new Error(`${source} ${editionDate}: ${r.outcome} ${r.reason}`);
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const cqcJson = async (name: string) => (await (await fetch(`http://files.test/cqc/${name}.json`)).json()) as Record<string, any>;

/** Loads the editions a register's check is tested on (each test file has its own database). */
export async function load(source: RegisterSource): Promise<void> {
  switch (source) {
    case "aml":
      for (const d of ["2026-10-07", "2026-11-07"]) await ingest("aml", await bytesOf(`hmrc-mlr/register-edition-${d}.csv`), d);
      return;
    case "sponsors":
      for (const d of ["2026-06-26", "2026-06-29", "2026-10-06"])
        await ingest("sponsors", await bytesOf(`sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_${d}.csv`), d);
      return;
    case "sra":
      await ingest("sra", await bytesOf("sra/GetAll.json"), "2026-10-08");
      return;
    case "cqc": {
      const [provider, trust, individual, careHome, closed, dentist] = await Promise.all(
        ["provider-organisation", "provider-nhs-trust", "provider-individual", "location-care-home", "location-deregistered", "location-dentist"].map(cqcJson),
      );
      await ingest("cqc", enc(JSON.stringify({ providers: [provider, trust, individual], locations: [careHome, closed, dentist] })), "2026-10-02");
      const worse = structuredClone(careHome);
      worse.currentRatings.overall.rating = "Inadequate";
      worse.currentRatings.overall.keyQuestionRatings[0].rating = "Inadequate";
      await ingest("cqc", enc(JSON.stringify([worse])), "2026-10-03");
      return;
    }
    case "charity": {
      const tables = Object.fromEntries(
        await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(`charity-commission/publicextract.${t}.txt`)])),
      );
      await ingest("charity", await bytesOf("charity-commission/publicextract.charity.txt"), "2026-10-07", { tables }, { chunkRows: 2 });
      return;
    }
  }
}

/** GET a check with a fresh free-plan key (100 credits); returns the reply, its JSON and raw text. */
export async function check(path: string, company: string) {
  const { key, keyId } = await createTestKey();
  const r = await call(`/api/v1/${path}?company=${encodeURIComponent(company)}`, { key });
  const text = await r.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { r, text, body: JSON.parse(text) as Record<string, any>, keyId };
}

/** SPEC §7: nothing found → 404 with `query`, credits given back. */
export async function expectNotFound(path: string, company: string) {
  const { r, body, keyId } = await check(path, company);
  expect(r.status, `${path} ${company}`).toBe(404);
  expect(body).toMatchObject({ code: "not_found", query: company, requestId: r.headers.get("x-request-id") });
  expect(r.headers.get("x-credits-refunded")).toBe("1");
  expect(await balanceOf(keyId)).toBe(100);
  return body;
}
