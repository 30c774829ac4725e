import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { entriesByCompanyNumber } from "../../../src/db/registers";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { OFSI_CONLIST_2025_04_10, conListAsUkslCsv } from "../../support/ofsiConList";
import { xlsxOf } from "../../support/xlsxSheet";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/** Issue 13 §1: the UK sanctions list loaded as a register through the ingest pipeline, with a change history. */

const CSV = "sanctions/UK-Sanctions-List.csv";
const bytesOf = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const load = (bytes: Uint8Array, fileName: string) =>
  ingestEdition(ingestPortsFor(env), { source: "sanctions", bytes, fileName, url: null, editionDate: null });

async function changes() {
  const rows = await env.DB.prepare(`SELECT change_date, kind, key FROM register_changes WHERE source = 'sanctions' ORDER BY key`).all<{
    change_date: string;
    kind: string;
    key: string;
  }>();
  return rows.results.map((r) => `${r.change_date} ${r.kind} ${r.key}`);
}

beforeEach(() => storeOf("sanctions").reset(ingestPortsFor(env), "sanctions"));

describe("issue 13 §1 the UK sanctions list as a register", () => {
  it("the UK Sanctions List CSV loads one entry per designation, dated by the list's Report Date; individuals kept for matching only", async () => {
    const r = await load(await bytesOf(`http://files.test/${CSV}`), "UK-Sanctions-List.csv");
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-02-13", rowsRead: 4, changes: 0, notes: { individualsForMatchingOnly: 1 } });
    const [bnk] = await entriesByCompanyNumber(env.DB, "sanctions", ["06527449"]);
    expect(bnk).toMatchObject({
      key: "BEL0107",
      name: "BNK (UK) LTD",
      altNames: ["BNK UK LIMITED"],
      data: { kind: "entity", regimes: ["Belarus"], ukCompanyNumbers: ["06527449"] },
    });
  });

  it("SPEC §6.3 a later list records designations added and removed", async () => {
    const text = new TextDecoder().decode(await bytesOf(`http://files.test/${CSV}`));
    await load(new TextEncoder().encode(text), "UK-Sanctions-List.csv");
    // A week later: the ship delisted, a new entity designated (the Grant-Trade rows under a new id).
    const lines = text.split("\n");
    const later = [
      "Report Date: 20-Feb-2026",
      ...lines.slice(1).filter((l) => !l.includes("RUS1900")),
      ...lines.filter((l) => l.includes("RUS2444")).map((l) => l.replace("RUS2444", "RUS9999").replace(",16808,", ",99999,")),
    ].join("\n");
    const r = await load(new TextEncoder().encode(later), "UK-Sanctions-List.csv");
    expect(r).toMatchObject({ outcome: "loaded", editionDate: "2026-02-20", byKind: { added: 1, removed: 1 } });
    expect(await changes()).toEqual(["2026-02-20 removed RUS1900", "2026-02-20 added RUS9999"]);
  });

  it.skipIf(!env.SHARED_PRESENT)(
    "the real OFSI consolidated list (../shared), written as the UK Sanctions List CSV, loads every designation, dated by its Report Date",
    async () => {
      const csv = conListAsUkslCsv(await bytesOf(`http://shared.test/${OFSI_CONLIST_2025_04_10}`));
      const r = await load(new TextEncoder().encode(csv), "UK-Sanctions-List.csv");
      expect(r).toMatchObject({ outcome: "loaded", editionDate: "2025-04-10", rowsRead: 4686, notes: { individualsForMatchingOnly: 3662 } });
      const [bnk] = await entriesByCompanyNumber(env.DB, "sanctions", ["06527449"]);
      expect(bnk).toMatchObject({ key: "BEL0107", name: "BNK (UK) LTD" });
    },
    60_000,
  );

  it("an .xlsx (the retired OFSI list's format) is refused, saying to give the CSV, and the published list stays", async () => {
    await load(await bytesOf(`http://files.test/${CSV}`), "UK-Sanctions-List.csv");
    const workbook = xlsxOf({
      Data: [
        ["Last Updated", "10/04/2025"],
        ["Name 6", "Group ID", "Group Type", "Alias Type", "Regime", "Other Information"],
        ["ACME TRADING LLC", "90001", "Entity", "Primary name", "Russia", "(UK Sanctions List Ref):RUS0001"],
      ],
    });
    const r = await load(workbook, "ofsi-conlist_2025-04-10.xlsx");
    expect(r.outcome).toBe("refused");
    expect(r.reason).toContain(
      "malformed file: UK sanctions list: this file is a zip (an XLSX or ODS workbook), not the CSV. The OFSI Consolidated List (XLSX), retired on 28 January 2026, is no longer read; give the FCDO UK Sanctions List as CSV",
    );
    expect(await entriesByCompanyNumber(env.DB, "sanctions", ["06527449"])).toHaveLength(1);
  });

  it("a file that is neither list is refused and the published list stays", async () => {
    await load(await bytesOf(`http://files.test/${CSV}`), "UK-Sanctions-List.csv");
    const r = await load(new TextEncoder().encode("<html>maintenance</html>"), "UK-Sanctions-List.csv");
    expect(r.outcome).toBe("refused");
    expect(await entriesByCompanyNumber(env.DB, "sanctions", ["06527449"])).toHaveLength(1);
  });
});
