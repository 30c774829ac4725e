import { describe, expect, it } from "vitest";
import { REGISTER_CATALOGUE } from "../../../src/services/registers/catalogue";
import { REGISTER_DATA_KEYS } from "../../../src/services/registers/catalogue";
import { REGISTER_SOURCES, type RegisterRecord, type RegisterSource } from "../../../src/services/registers/types";
import { CHARITY_TABLES, type CharityTable, parseCharityExtract } from "../../../src/sources/charity-commission/parse";
import { parseBasicCompanyData } from "../../../src/sources/companies-house/bulk";
import { contractRecord, parseContracts } from "../../../src/sources/contracts/parse";
import { parseHscaActiveLocations } from "../../../src/sources/cqc/parse";
import { readCqcRatings } from "../../../src/sources/cqc/ratings";
import { parseGenderPayGap } from "../../../src/sources/gender-pay-gap/parse";
import { parseHmrcMlr } from "../../../src/sources/hmrc-mlr/parse";
import { parsePaymentPractices } from "../../../src/sources/payment-practices/parse";
import { designationRecord, parseUkSanctionsFile } from "../../../src/sources/sanctions/parse";
import { parseSponsors } from "../../../src/sources/sponsors/parse";
import { parseSraOrganisations } from "../../../src/sources/sra/parse";

/**
 * Each register's `data` shape (src/services/registers/catalogue.ts, its rows) against what its parser writes: every sample file of
 * the catalogue (the files `npm start` loads) is parsed, and every record's `data` may hold only keys its register's
 * shape declares (REGISTER_DATA_KEYS, which the compiler holds to the shape). A parser writing a field the shape does
 * not declare, or a shape declaring a field no parser writes any more, fails here.
 */

/** A sample file's bytes (test/fixtures/<path>, as the catalogue names it from the repository's root). */
const bytesOf = async (file: string) => new Uint8Array(await (await fetch(`http://files.test/${file.replace(/^test\/fixtures\//, "")}`)).arrayBuffer());
const beside = (file: string, name: string) => `${file.slice(0, file.lastIndexOf("/") + 1)}${name}`;

/** Each register's parser, reading one of its sample files as the ingest does. */
const PARSERS: { [S in RegisterSource]: (file: string) => Promise<AsyncIterable<RegisterRecord<S>> | Iterable<RegisterRecord<S>>> } = {
  aml: async (file) => parseHmrcMlr(await bytesOf(file)),
  sra: async (file) => parseSraOrganisations(await bytesOf(file)),
  sponsors: async (file) => parseSponsors(await bytesOf(file)).records,
  // The HSCA file joined to the ratings file beside it, as the catalogue's sample says.
  cqc: async (file) =>
    parseHscaActiveLocations(await bytesOf(file), {
      ratings: await readCqcRatings(await bytesOf(beside(file, "01_October_2026_Latest_ratings.ods")), { editionDate: "2026-10-02" }),
    }),
  // The main table, and every other table of the extract from beside it.
  charity: async (file) => {
    const tables: Partial<Record<CharityTable, Uint8Array>> = {};
    for (const t of CHARITY_TABLES) tables[t] = await bytesOf(beside(file, `publicextract.${t}.txt`));
    return parseCharityExtract(tables);
  },
  companies: async (file) => parseBasicCompanyData(await bytesOf(file)),
  sanctions: async (file) => parseUkSanctionsFile(await bytesOf(file)).designations.map(designationRecord),
  "gender-pay-gap": async (file) => parseGenderPayGap(await bytesOf(file), { fileName: file.slice(file.lastIndexOf("/") + 1) }).records,
  contracts: async (file) => parseContracts(await bytesOf(file)).awards.map(contractRecord),
  "payment-practices": async (file) => {
    const bytes = await bytesOf(file);
    return parsePaymentPractices(() => bytes);
  },
};

/** Every record of a register's sample files. */
async function samplesOf<S extends RegisterSource>(source: S): Promise<RegisterRecord<S>[]> {
  const out: RegisterRecord<S>[] = [];
  for (const { file } of REGISTER_CATALOGUE[source].samples) for await (const r of await PARSERS[source](file)) out.push(r);
  return out;
}

describe("register rows: each register's data shape is what its parser writes", () => {
  it("every register has a shape: the shapes' registers are the catalogue's", () => {
    expect(Object.keys(REGISTER_DATA_KEYS).sort()).toEqual([...REGISTER_SOURCES].sort());
  });

  it.each(REGISTER_SOURCES.map((s) => [s]))(
    "%s: every key a sample record's data has is one its shape declares, and every declared key is written",
    async (source) => {
      const records = await samplesOf(source);
      expect(records.length, `${source}: its samples give records`).toBeGreaterThan(0);
      const declared = new Set<string>(REGISTER_DATA_KEYS[source]);
      const written = new Set<string>();
      for (const r of records) {
        expect(r.source).toBe(source);
        const keys = Object.keys(r.data);
        expect(
          keys.filter((k) => !declared.has(k)),
          `${source} ${r.key}: data keys its shape (src/services/registers/catalogue.ts, its rows) does not declare`,
        ).toEqual([]);
        for (const k of keys) written.add(k);
      }
      expect(
        [...declared].filter((k) => !written.has(k)),
        `${source}: keys its shape declares that no sample record writes`,
      ).toEqual([]);
    },
  );
});
