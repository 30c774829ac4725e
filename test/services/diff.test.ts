import { describe, expect, it } from "vitest";
import { EditionDiff, diffEdition, snapshotOf } from "../../src/services/registers/diff";
import type { EntrySnapshot, RegisterRecord, RegisterSource } from "../../src/services/registers/types";

/** A record as the diff reads it (it never reads `data`). */
type Rec = Omit<RegisterRecord, "data">;

const rec = (source: RegisterSource, key: string, over: Partial<Rec> = {}): Rec => ({
  source,
  key,
  entity: key,
  part: null,
  name: key,
  companyNumber: null,
  altNames: [],
  status: "Approved",
  rating: null,
  town: null,
  ...over,
});
const snap = (r: Rec, removed = false): EntrySnapshot => ({ ...snapshotOf(r), removed });
const kinds = (changes: { kind: string; key: string }[]) => changes.map((c) => `${c.kind}:${c.key}`);

describe("SPEC §6.3 register diff", () => {
  it("snapshotOf keeps what the diff needs", () => {
    const r = rec("sponsors", "k", { name: "Asian African Foods Ltd", status: "Licensed", rating: "Worker (A rating)", town: "London" });
    expect(snapshotOf(r)).toEqual({
      key: "k",
      entity: "k",
      part: null,
      name: "Asian African Foods Ltd",
      status: "Licensed",
      rating: "Worker (A rating)",
      town: "London",
      removed: false,
    });
  });

  it("identical editions give no changes", () => {
    const ed = [rec("aml", "XMLA1"), rec("aml", "XMLA2", { status: "Applied" })];
    expect(
      diffEdition(
        ed.map((r) => snap(r)),
        ed,
        { source: "aml" },
      ),
    ).toEqual({ changes: [], unchanged: 2, seen: 2, entities: 2 });
  });

  it("SPEC §3.2 added, removed, returned and status on the AML register", () => {
    const prev = [snap(rec("aml", "A")), snap(rec("aml", "B")), snap(rec("aml", "C"), true), snap(rec("aml", "D")), snap(rec("aml", "Z"), true)];
    const next = [rec("aml", "E"), rec("aml", "D", { status: "Expired" }), rec("aml", "C", { name: "C again" }), rec("aml", "A")];
    const { changes, unchanged, seen } = diffEdition(prev, next, { source: "aml" });
    expect(kinds(changes)).toEqual(["added:E", "returned:C", "status:D", "removed:B"]);
    expect(changes[0]).toEqual({
      source: "aml",
      key: "E",
      kind: "added",
      name: "E",
      before: null,
      after: { name: "E", status: "Approved", premises: 1, districts: [] },
    });
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
    const other = diffEdition([snap(rec("sra", "9"))], [rec("sra", "9", { status: "Deregistered" })], { source: "sra" });
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
    expect(changes).toEqual([{ source: "sponsors", key: "canton", kind: "moved", name: "canton", before: { town: "LONDON" }, after: { town: "Hayes" } }]);
    expect(unchanged).toBe(3);
    // Only the sponsors feed reports moves.
    const cqc = diffEdition([snap(rec("cqc", "1-1", { town: "Leeds" }))], [rec("cqc", "1-1", { town: "York" })], { source: "cqc" });
    expect(cqc.changes).toEqual([]);
  });

  it("one entry can change in several ways, reported in a fixed order", () => {
    const prev = [snap(rec("sponsors", "k", { status: "Licensed", rating: "Worker (A rating)", town: "Oxford" }))];
    const next = [rec("sponsors", "k", { status: "Subject to Action Plan", rating: "Worker (B rating)", town: "Reading" })];
    expect(kinds(diffEdition(prev, next, { source: "sponsors" }).changes)).toEqual(["status:k", "re-rated:k", "moved:k"]);
  });

  it("a change of name alone, case-only status or rating spacing emits nothing", () => {
    const prev = [snap(rec("sra", "1", { name: "Smith Solicitors", status: "authorised", rating: "Worker (UK Expansion Worker: Provisional )" }))];
    const next = [rec("sra", "1", { name: "Smith & Jones Solicitors", status: "Authorised", rating: "Worker (UK Expansion Worker: Provisional)" })];
    expect(diffEdition(prev, next, { source: "sra" })).toEqual({ changes: [], unchanged: 1, seen: 1, entities: 1 });
  });

  it("a key listed twice in one edition counts once", () => {
    const r = rec("sponsors", "2399098 ontario inc");
    expect(diffEdition([], [r, r], { source: "sponsors" })).toMatchObject({ seen: 1, changes: [{ kind: "added" }] });
  });

  it("diffs 120,000 entries with the right counts", () => {
    const N = 120_000;
    const prev: EntrySnapshot[] = [];
    const next: Rec[] = [];
    for (let i = 0; i < N; i++) {
      const key = `S${String(i).padStart(6, "0")}`;
      const r = rec("sponsors", key, { status: "Licensed", rating: "Worker (A rating)", town: "Leeds" });
      prev.push(snap(r, i % 1000 === 1)); // 120 were already removed
      if (i % 500 === 0) continue; // 240 drop out now
      if (i % 1000 === 1)
        next.push(r); // ... and the 120 removed come back
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

describe("SPEC §6.3 changes are per organisation (entity), not per row", () => {
  const aml = (key: string, entity: string, district: string, over: Partial<Rec> = {}) =>
    rec("aml", key, { entity, part: district, name: "COUNTERLINE POST LIMITED", ...over });
  const ofKind = (changes: { kind: string; key: string }[]) => kinds(changes);

  it("SPEC §3.2 HMRC: premises closing is a `premises` change of the registration, never its removal", () => {
    const prev = [aml("a", "12137104", "WR6"), aml("b", "12137104", "SW1A"), aml("c", "12137104", "CF14"), aml("d", "12137104", "CF14")];
    const next = [aml("a", "12137104", "WR6"), aml("b", "12137104", "SW1A"), aml("c", "12137104", "CF14")];
    const { changes } = diffEdition(
      prev.map((r) => snap(r)),
      next,
      { source: "aml" },
    );
    expect(changes).toEqual([
      {
        source: "aml",
        key: "12137104",
        kind: "premises",
        name: "COUNTERLINE POST LIMITED",
        before: { premises: 4, districts: ["CF14", "SW1A", "WR6"] },
        after: { premises: 3, districts: ["CF14", "SW1A", "WR6"] },
      },
    ]);
  });

  it("SPEC §3.2 HMRC: a business renamed under the same MLR number (its premises keys rewritten) is no change", () => {
    const prev = [aml("12137104|old name|wr6", "12137104", "WR6", { name: "OLD NAME LTD" })];
    const next = [aml("12137104|new name|wr6", "12137104", "WR6", { name: "NEW NAME LTD" })];
    expect(
      diffEdition(
        prev.map((r) => snap(r)),
        next,
        { source: "aml" },
      ),
    ).toMatchObject({ changes: [], unchanged: 1 });
  });

  it("SPEC §3.2 HMRC: the last premises gone removes the registration once; a status change is one `status`", () => {
    const prev = [aml("a", "X1", "WR6"), aml("b", "X1", "SW1A"), aml("c", "X2", "N1")];
    const next = [aml("c", "X2", "N1", { status: "Expired" })];
    const { changes } = diffEdition(
      prev.map((r) => snap(r)),
      next,
      { source: "aml" },
    );
    expect(ofKind(changes)).toEqual(["status:X2", "removed:X1"]);
    expect(changes[0]).toMatchObject({ before: { status: "Approved" }, after: { status: "Expired" } });
    expect(changes[1]).toMatchObject({ before: { premises: 2, districts: ["SW1A", "WR6"] }, after: null });
  });

  it("SPEC §4.8 sponsors: a route gained or lost is one `routes` change with both route lists", () => {
    const s = (key: string, part: string, over: Partial<Rec> = {}) =>
      rec("sponsors", key, { entity: "workers|acme ltd", part, name: "Acme Ltd", status: "listed", rating: "Worker (A rating)", town: "Leeds", ...over });
    const prev = [s("k1", "Skilled Worker"), s("k2", "Intra-company Routes")];
    const next = [s("k1", "Skilled Worker"), s("k3", "Charity Worker", { rating: "Temporary Worker (A rating)" })];
    const { changes } = diffEdition(
      prev.map((r) => snap(r)),
      next,
      { source: "sponsors" },
    );
    expect(changes).toEqual([
      {
        source: "sponsors",
        key: "workers|acme ltd",
        kind: "routes",
        name: "Acme Ltd",
        before: { routes: ["Intra-company Routes", "Skilled Worker"] },
        after: { routes: ["Charity Worker", "Skilled Worker"] },
      },
    ]);
  });

  it("SPEC §4.8 sponsors: re-rated compares only routes held in both editions", () => {
    const s = (key: string, part: string, rating: string) =>
      rec("sponsors", key, { entity: "workers|acme ltd", part, name: "Acme Ltd", status: "listed", rating, town: "Leeds" });
    const prev = [s("k1", "Skilled Worker", "Worker (A rating)")];
    const next = [s("k1", "Skilled Worker", "Worker (B rating)"), s("k2", "Seasonal Worker", "Temporary Worker (A rating)")];
    const { changes } = diffEdition(
      prev.map((r) => snap(r)),
      next,
      { source: "sponsors" },
    );
    expect(ofKind(changes)).toEqual(["re-rated:workers|acme ltd", "routes:workers|acme ltd"]);
    expect(changes[0]).toMatchObject({
      before: { rating: "Worker (A rating)", ratings: { "Skilled Worker": "Worker (A rating)" } },
      after: { rating: "Worker (B rating)", ratings: { "Skilled Worker": "Worker (B rating)" } },
    });
    // Gaining a route with another rating alone is not a re-rating.
    const gained = diffEdition(
      [snap(s("k1", "Skilled Worker", "Worker (A rating)"))],
      [s("k1", "Skilled Worker", "Worker (A rating)"), s("k2", "Seasonal Worker", "Temporary Worker (B rating)")],
      { source: "sponsors" },
    );
    expect(ofKind(gained.changes)).toEqual(["routes:workers|acme ltd"]);
  });

  it("SPEC §4.8 sponsors: a sponsor listed in several towns moves when the set of towns changes, not when rows are re-cased", () => {
    const s = (key: string, town: string) =>
      rec("sponsors", key, {
        entity: "workers|anglo beef processors",
        part: "Skilled Worker",
        name: "Anglo Beef Processors",
        status: "listed",
        rating: "Worker (A rating)",
        town,
      });
    const prev = [s("a", "Shropshire"), s("b", "Lurgan")];
    expect(
      diffEdition(
        prev.map((r) => snap(r)),
        [s("a", "LURGAN"), s("b", "shropshire ")],
        { source: "sponsors" },
      ).changes,
    ).toEqual([]);
    const { changes } = diffEdition(
      prev.map((r) => snap(r)),
      [s("a", "Shropshire"), s("b", "Lurgan"), s("c", "York")],
      { source: "sponsors" },
    );
    expect(changes).toEqual([
      {
        source: "sponsors",
        key: "workers|anglo beef processors",
        kind: "moved",
        name: "Anglo Beef Processors",
        before: { town: "Shropshire", towns: ["Shropshire", "Lurgan"] },
        after: { town: "Shropshire", towns: ["Shropshire", "Lurgan", "York"] },
      },
    ]);
  });

  it("SPEC §4.8 charity: removed from the register is `removed`; registered again is `returned`; one first seen already removed is nothing", () => {
    const c = (key: string, status: string) => rec("charity", key, { status });
    const prev = [snap(c("1100001", "Registered")), snap(c("1100002", "Removed"))];
    const next = [c("1100001", "Removed"), c("1100002", "Registered"), c("1100003", "Removed")];
    const { changes } = diffEdition(prev, next, { source: "charity" });
    expect(ofKind(changes)).toEqual(["returned:1100002", "removed:1100001"]);
    expect(changes[1]).toMatchObject({ before: { status: "Registered" }, after: { status: "Removed" } });
  });

  it("SPEC §4.8 CQC: a partial edition (the change API) deregisters nothing it did not list", () => {
    const prev = [snap(rec("cqc", "1-1", { status: "Registered" })), snap(rec("cqc", "1-2", { status: "Registered" }))];
    const diff = new EditionDiff(prev, { source: "cqc" });
    diff.add(rec("cqc", "1-2", { status: "Registered", rating: "Good" }));
    expect(kinds(diff.finish({ partial: true }).changes)).toEqual(["re-rated:1-2"]);
  });

  it("SPEC §6.3 rows re-keyed under the same entity never read as added plus removed", () => {
    const s = (key: string) => rec("sponsors", key, { entity: "workers|acme ltd", part: "Skilled Worker", name: "ACME LTD", status: "listed", town: "Leeds" });
    expect(diffEdition([snap(s("old-key"))], [s("new-key")], { source: "sponsors" })).toMatchObject({ changes: [], unchanged: 1 });
  });
});
