import { env } from "cloudflare:workers";
import { unzipSync, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import type { EditionFile } from "../../../src/jobs/ingest/adapter";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { ingestPortsFor } from "../../../src/platform/jobPorts";
import { CHARITY_EXTRA_TABLES } from "../../../src/sources/charity-commission/parse";
import { registerCheckSpecs } from "../../../src/app/registers/registerCheck";
import { operations } from "../../../src/operations";
import { call, createTestKey, json } from "../../helpers";
import { loadSampleRegisters } from "../../support/everyOperation";

/**
 * Issue 33 §1 on every register, each with two editions (its samples in test/fixtures/<source>, loaded through the
 * real ingest pipeline, and a later one made here from the sample where there is one sample): an organisation the newer edition added is not on the register as of the day before that edition and
 * is on it as of its date; one it removed is listed the day before, and has left as of its date. The changes come
 * from each register's own change feed; the real sponsors editions are in test/jobs/ingest/realEditions.test.ts.
 */

const bytesOf = async (path: string) => new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
const text = async (path: string) => new TextDecoder().decode(await bytesOf(path));
const enc = (t: string) => new TextEncoder().encode(t);

/**
 * A second, later edition of the registers whose sample is one edition, made from that sample: the SRA's without its
 * first firm; the charity extract without its first charity; CQC's active locations spreadsheet without the row of its
 * first location.
 */
async function secondEditions(): Promise<EditionFile[]> {
  const sra = JSON.parse(await text("sra/GetAll.json")) as { Count: number; Organisations: unknown[] };
  const charity = (await text("charity-commission/publicextract.charity.txt")).split("\n");
  const first = charity[1].split("\t")[2];
  const tables = Object.fromEntries(
    await Promise.all(CHARITY_EXTRA_TABLES.map(async (t) => [t, await bytesOf(`charity-commission/publicextract.${t}.txt`)] as const)),
  );
  const ods = unzipSync(await bytesOf("cqc/hsca-active-locations.ods"));
  const xml = new TextDecoder().decode(ods["content.xml"]);
  const at = xml.search(/>1-\d{5,}</); // the first location id's cell
  const from = xml.lastIndexOf("<table:table-row", at);
  const to = xml.indexOf("</table:table-row>", at) + "</table:table-row>".length;
  const cqc = zipSync({ ...ods, "content.xml": enc(xml.slice(0, from) + xml.slice(to)) });
  return [
    {
      source: "sra",
      bytes: enc(JSON.stringify({ ...sra, Count: sra.Count - 1, Organisations: sra.Organisations.slice(1) })),
      fileName: "GetAll.json",
      url: null,
      editionDate: "2026-10-09",
    },
    {
      source: "charity",
      bytes: enc(charity.filter((line, i) => i === 0 || line.split("\t")[2] !== first).join("\n")),
      fileName: "publicextract.charity.txt",
      url: null,
      editionDate: "2026-07-10",
      tables,
    },
    { source: "cqc", bytes: cqc, fileName: "hsca-active-locations.ods", url: null, editionDate: "2026-10-03" },
  ];
}

beforeAll(async () => {
  await loadSampleRegisters();
  for (const file of await secondEditions()) {
    const r = await ingestEdition(ingestPortsFor(env), file);
    if (r.outcome !== "loaded") throw new Error(`${file.source}: ${r.outcome} ${r.reason}`);
  }
});

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const checks = [...registerCheckSpecs.values()].filter((s) => operations.some((o) => o.operationId === s.operationId));

describe("issue 33 §1 asOf on every register check: the register as it stood on a date", () => {
  it("the register checks are all here", () => {
    expect(checks.map((c) => c.source).sort()).toEqual(["aml", "charity", "cqc", "sponsors", "sra"]);
  });

  it.each(checks.map((c) => [c.operationId, c] as const))(
    "%s: added and removed organisations, before and on the edition that changed them",
    async (_id, spec) => {
      const { key } = await createTestKey({ plan: "enterprise", credits: 1000 });
      const feed = await json(await call(`${spec.path}/changes?since=2000-01-01&limit=500`, { key }));
      const changes = feed.changes as { kind: string; date: string; name: string }[];
      const check = async (company: string, asOf: string) => {
        const r = await call(`${spec.path}?${new URLSearchParams({ company, asOf })}`, { key });
        return { status: r.status, body: await json(r) };
      };
      const added = changes.find((c) => c.kind === "added");
      const removed = changes.find((c) => c.kind === "removed" || c.kind === "deregistered");
      expect(added ?? removed, `${spec.source}: its sample editions add or remove someone`).toBeTruthy();
      if (added) {
        const before = await check(added.name, dayBefore(added.date));
        // Not there the day before (or only as another organisation's possible match): never as the one added.
        if (before.status === 200) expect(before.body.asOf.entries.map((e: { name: string }) => e.name)).not.toContain(added.name);
        else expect([before.status, before.body.code]).toEqual([404, "not_found"]);
        const on = await check(added.name, added.date);
        expect(on.status, JSON.stringify(on.body).slice(0, 400)).toBe(200);
        expect(on.body.asOf.entries).toEqual(expect.arrayContaining([expect.objectContaining({ name: added.name, firstListed: added.date })]));
        expect(on.body.asOf.editions.map((e: { editionDate: string }) => e.editionDate)).toContain(added.date);
      }
      if (removed) {
        const before = await check(removed.name, dayBefore(removed.date));
        expect(before.status, JSON.stringify(before.body).slice(0, 400)).toBe(200);
        const entry = before.body.asOf.entries.find((e: { name: string }) => e.name === removed.name);
        // Listed the day before, and the reply says from the editions kept when it left.
        expect(entry).toMatchObject({ leftOn: removed.date });
        expect(before.body.registerDate < removed.date).toBe(true);
        const on = await check(removed.name, removed.date);
        if (on.status === 200) {
          // The one removed has left as of that edition; the positive answer stands only on what is still listed (a CQC
          // provider keeps its registration through its other locations).
          const gone = on.body.asOf.entries.find((e: { name: string }) => e.name === removed.name);
          if (gone) expect(gone.leftOn).toBe(removed.date);
          if (spec.source !== "cqc" && on.body.asOf.entries.every((e: { leftOn: string | null }) => e.leftOn !== null))
            expect(on.body[spec.positive]).toBe(false);
          expect(on.body.summary).toMatch(new RegExp(`^As the register stood on ${removed.date} `));
        } else expect(on.status).toBe(404);
      }
    },
  );
});

describe("issue 33 §1 asOf on licences-and-registers", () => {
  it("each register as it stood on the date (a register whose first kept edition is later is not checked, and said so); before every register's first edition 422, after today 400", async () => {
    const { key } = await createTestKey({ plan: "enterprise", credits: 1000 });
    const ask = async (asOf?: string) => {
      const r = await call(`/api/v1/licences-and-registers?${new URLSearchParams({ company: "01234567", ...(asOf ? { asOf } : {}) })}`, { key });
      return { status: r.status, body: await json(r) };
    };
    const today = await ask();
    expect(today.status).toBe(200);
    expect(today.body.asOf).toBeUndefined();
    // 2026-10-08: after the HMRC, sponsors, SRA, CQC and charity samples' first editions.
    const then = await ask("2026-10-08");
    expect(then.status, JSON.stringify(then.body).slice(0, 300)).toBe(200);
    expect(then.body.summary).toMatch(/^As the registers stood on 2026-10-08: /);
    expect(then.body.query).toEqual({ company: "01234567", asOf: "2026-10-08" });
    for (const r of then.body.registers as { register: string; checked: boolean; registerDate: string | null; note: string }[]) {
      const first = then.body.asOf.firstDates[r.register];
      if (first && first <= "2026-10-08") {
        expect(r.checked, r.register).toBe(true);
        expect(r.registerDate! <= "2026-10-08", r.register).toBe(true);
      } else {
        expect(r.checked, r.register).toBe(false);
        if (first) expect(r.note).toContain(first);
      }
    }
    // The HMRC register as of 2026-10-08 is its October edition, not November's.
    expect(then.body.registers.find((r: { register: string }) => r.register === "aml").registerDate).toBe("2026-10-07");
    const early = await ask("2001-01-01");
    expect([early.status, early.body.code, early.body.field]).toEqual([422, "date_out_of_range", "asOf"]);
    const future = await ask("2999-12-31");
    expect([future.status, future.body.code, future.body.field]).toEqual([400, "bad_request", "asOf"]);
  });
});
