import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** The companies register of the enrichment tests: the sample edition plus two bakeries sharing a name (test/fixtures/enrich/). */
export const loadEnrichRegister = async () => {
  await storeOf("companies").reset(ingestPortsFor(env), "companies");
  const bytes = new Uint8Array(await (await fetch("http://files.test/enrich/BasicCompanyData-2026-11-01.csv")).arrayBuffer());
  const r = await ingestEdition(ingestPortsFor(env), { source: "companies", bytes, fileName: "BasicCompanyData-2026-11-01.csv", url: null, editionDate: null });
  expect(r.outcome).toBe("loaded");
};
