import { describe, expect, it } from "vitest";
import { diffEdition, snapshotOf } from "../../src/services/registers/diff";
import type { EntrySnapshot, RegisterRecord, RegisterSource } from "../../src/services/registers/types";

const rec = (source: RegisterSource, key: string, over: Partial<RegisterRecord> = {}): RegisterRecord => ({
  source, key, name: key, companyNumber: null, altNames: [], status: "Approved", rating: null, town: null, data: {}, ...over,
});
const snap = (r: RegisterRecord, removed = false): EntrySnapshot => ({ ...snapshotOf(r), removed });
const kinds = (changes: { kind: string; key: string }[]) => changes.map((c) => `${c.kind}:${c.key}`);

describe("SPEC §6.3 register diff", () => {
  it("snapshotOf keeps what the diff needs", () => {
    const r = rec("sponsors", "k", { name: "Asian African Foods Ltd", status: "Licensed", rating: "Worker (A rating)", town: "London" });
    expect(snapshotOf(r)).toEqual({ key: "k", name: "Asian African Foods Ltd", status: "Licensed", rating: "Worker (A rating)", town: "London", removed: false });
  });

  it("identical editions give no changes", () => {
    const ed = [rec("aml", "XMLA1"), rec("aml", "XMLA2", { status: "Applied" })];
    expect(diffEdition(ed.map((r) => snap(r)), ed, { source: "aml" })).toEqual({ changes: [], unchanged: 2, seen: 2 });
  });

  it("SPEC §3.2 added, removed, returned and status on the AML register", () => {
    const prev = [snap(rec("aml", "A")), snap(rec("aml", "B")), snap(rec("aml", "C"), true), snap(rec("aml", "D")), snap(rec("aml", "Z"), true)];
    const next = [rec("aml", "E"), rec("aml", "D", { status: "Expired" }), rec("aml", "C", { name: "C again" }), rec("aml", "A")];
    const { changes, unchanged, seen } = diffEdition(prev, next, { source: "aml" });
    expect(kinds(changes)).toEqual(["added:E", "returned:C", "status:D", "removed:B"]);
    expect(changes[0]).toEqual({ source: "aml", key: "E", kind: "added", name: "E", before: null, after: { name: "E", status: "Approved", rating: null, town: null } });
    expect(changes[1]).toMatchObject({ name: "C again", before: { name: "C", status: "Approved" }, after: { name: "C again", status: "Approved" } });
    expect(changes[2]).toMatchObject({ before: { status: "Approved" }, after: { status: "Expired" } });
    expect(changes[3]).toMatchObject({ kind: "removed", name: "B", before: { name: "B", status: "Approved" }, after: null });
    expect([unchanged, seen]).toEqual([1, 4]);
  });

  it("a removed entry that is still missing is not removed again", () => {
    const { changes } = diffEdition([snap(rec("sra", "1"), true)], [], { source: "sra" });
    expect(changes).toEqual([]);
  });

  it("SPEC §4.8 CQC: Deregistered is its own kind; ratings give re-rated", () => {
    const prev = [
      snap(rec("cqc", "1-101", { status: "Registered", rating: "Good" })),
      snap(rec("cqc", "1-102", { status: "Registered", rating: "Good" })),
      snap(rec("cqc", "1-103", { status: "Registered", rating: null })),
    ];
    const next = [
      rec("cqc", "1-101", { status: "Deregistered", rating: "Good" }),
      rec("cqc", "1-102", { status: "Registered", rating: "Inadequate" }),
      rec("cqc", "1-103", { status: "Registered", rating: "Requires improvement" }),
    ];
    const { changes } = diffEdition(prev, next, { source: "cqc" });
    expect(kinds(changes)).toEqual(["deregistered:1-101", "re-rated:1-102", "re-rated:1-103"]);
    expect(changes[0]).toMatchObject({ before: { status: "Registered" }, after: { status: "Deregistered" } });
    expect(changes[1]).toMatchObject({ before: { rating: "Good" }, after: { rating: "Inadequate" } });
    expect(changes[2]).toMatchObject({ before: { rating: null }, after: { rating: "Requires improvement" } });
    // A location missing from a full snapshot of active locations has been deregistered, not "removed".
    const gone = diffEdition(prev, next.slice(1), { source: "cqc" });
    expect(kinds(gone.changes)).toEqual(["deregistered:1-101", "re-rated:1-102", "re-rated:1-103"]);
    expect(gone.changes[0]).toMatchObject({ before: { status: "Registered" }, after: null });
    // Elsewhere a status of "Deregistered" is a plain status change.
    const other = diffEdition([snap(rec("charity", "9"))], [rec("charity", "9", { status: "Deregistered" })], { source: "charity" });
    expect(kinds(other.changes)).toEqual(["status:9"]);
  });

  it("SPEC §4.8 sponsors: a real town change is moved, re-casing or re-spacing is not", () => {
    const base = { status: "Licensed", rating: "Worker (A rating)" };
    const prev = [
      snap(rec("sponsors", "asian", { ...base, town: " London  " })),
      snap(rec("sponsors", "joyce", { ...base, town: "Milton  Keynes" })),
      snap(rec("sponsors", "canton", { ...base, town: "LONDON" })),
      snap(rec("sponsors", "laxpermit", { ...base, town: "stonehouse" })),
    ];
    const next = [
      rec("sponsors", "asian", { ...base, town: "LONDON" }),
      rec("sponsors", "joyce", { ...base, town: "Milton Keynes " }),
      rec("sponsors", "canton", { ...base, town: "Hayes" }),
      rec("sponsors", "laxpermit", { ...base, town: "Stonehouse" }),
    ];
    const { changes, unchanged } = diffEdition(prev, next, { source: "sponsors" });
    expect(changes).toEqual([
      { source: "sponsors", key: "canton", kind: "moved", name: "canton", before: { town: "LONDON" }, after: { town: "Hayes" } },
    ]);
    expect(unchanged).toBe(3);
    // Only the sponsors feed reports moves.
    const cqc = diffEdition([snap(rec("cqc", "1-1", { town: "Leeds" }))], [rec("cqc", "1-1", { town: "York" })], { source: "cqc" });
    expect(cqc.changes).toEqual([]);
  });

  it("one entry can change in several ways, reported in a fixed order", () => {
    const prev = [snap(rec("sponsors", "k", { status: "Licensed", rating: "Worker (A rating)", town: "Oxford" }))];
    const next = [rec("sponsors", "k", { status: "Suspended", rating: "Worker (B rating)", town: "Reading" })];
    expect(kinds(diffEdition(prev, next, { source: "sponsors" }).changes)).toEqual(["status:k", "re-rated:k", "moved:k"]);
  });

  it("a change of name alone, case-only status or rating spacing emits nothing", () => {
    const prev = [snap(rec("sra", "1", { name: "Smith Solicitors", status: "authorised", rating: "Worker (UK Expansion Worker: Provisional )" }))];
    const next = [rec("sra", "1", { name: "Smith & Jones Solicitors", status: "Authorised", rating: "Worker (UK Expansion Worker: Provisional)" })];
    expect(diffEdition(prev, next, { source: "sra" })).toEqual({ changes: [], unchanged: 1, seen: 1 });
  });

  it("a key listed twice in one edition counts once", () => {
    const r = rec("sponsors", "2399098 ontario inc");
    expect(diffEdition([], [r, r], { source: "sponsors" })).toMatchObject({ seen: 1, changes: [{ kind: "added" }] });
  });

  it("diffs 120,000 entries with the right counts", () => {
    const N = 120_000;
    const prev: EntrySnapshot[] = [];
    const next: RegisterRecord[] = [];
    for (let i = 0; i < N; i++) {
      const key = `S${String(i).padStart(6, "0")}`;
      const r = rec("sponsors", key, { status: "Licensed", rating: "Worker (A rating)", town: "Leeds" });
      prev.push(snap(r, i % 1000 === 1)); // 120 were already removed
      if (i % 500 === 0) continue; // 240 drop out now
      if (i % 1000 === 1) next.push(r); // ... and the 120 removed come back
      else if (i % 700 === 3) next.push({ ...r, rating: "Worker (B rating)" });
      else if (i % 900 === 5) next.push({ ...r, town: "LEEDS " });
      else next.push(r);
    }
    for (let i = 0; i < 300; i++) next.push(rec("sponsors", `N${i}`));
    const { changes, unchanged, seen } = diffEdition(prev, next, { source: "sponsors" });
    const count = (k: string) => changes.filter((c) => c.kind === k).length;
    const reRated = Array.from({ length: N }, (_, i) => i).filter((i) => i % 700 === 3 && i % 500 !== 0 && i % 1000 !== 1).length;
    expect([count("added"), count("removed"), count("returned"), count("re-rated"), count("moved")]).toEqual([300, 240, 120, reRated, 0]);
    expect(seen).toBe(N - 240 + 300);
    expect(unchanged).toBe(N - 240 - 120 - reRated);
    expect(changes[0].key).toBe("N0");
    expect(changes.at(-1)!.key).toBe(`S${String(N - 500).padStart(6, "0")}`);
  });
});
