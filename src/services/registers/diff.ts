/**
 * Compares a register's previous state with its latest edition (SPEC §3.2, §4.5, §4.8, §6.3).
 * Editions are complete snapshots, so an entry missing from `next` is "removed" (no longer
 * listed), and one coming back after that is "returned".
 *
 * Output order: by kind (added, returned, status, deregistered, re-rated, moved, removed), then
 * by key (plain code-unit order), so the same inputs always give the same feed.
 *
 * A change of name alone is not a kind of change: nothing is emitted and the entry counts as
 * unchanged; the caller still stores the new snapshot, so the register shows the new name.
 */
import type { ChangeKind, EntrySnapshot, RegisterChange, RegisterRecord, RegisterSource } from "./types";

export interface DiffOptions { source: RegisterSource }
export interface DiffResult { changes: RegisterChange[]; unchanged: number; seen: number }

const KIND_ORDER: Record<ChangeKind, number> = {
  added: 0, returned: 1, status: 2, deregistered: 3, "re-rated": 4, moved: 5, removed: 6,
};

/** Only the sponsors feed reports towns rewritten (SPEC §4.8 `moved`). */
const REPORTS_MOVES: ReadonlySet<RegisterSource> = new Set(["sponsors"]);

/** Case and spacing never make a change: `LONDON` = `London `, `Milton  Keynes` = `Milton Keynes`, null = "". */
const canon = (s: string | null) => (s ?? "").toLowerCase().replace(/\s+/g, "");

export function snapshotOf(r: RegisterRecord): EntrySnapshot {
  return { key: r.key, name: r.name, status: r.status, rating: r.rating, town: r.town, removed: false };
}

const whole = (s: { name: string; status: string; rating: string | null; town: string | null }): Partial<EntrySnapshot> => ({
  name: s.name, status: s.status, rating: s.rating, town: s.town,
});

/**
 * A diff fed one record at a time, so an edition never has to be held whole: it keeps the previous
 * state and the keys seen. `add` each record of the new edition, then `finish`.
 */
export class EditionDiff {
  private readonly prev = new Map<string, EntrySnapshot>();
  private readonly seenKeys = new Set<string>();
  private readonly changes: RegisterChange[] = [];
  private unchanged = 0;

  constructor(previous: Iterable<EntrySnapshot>, private readonly opts: DiffOptions) {
    for (const p of previous) this.prev.set(p.key, p);
  }

  /** Whether `key` has been added already (a register listing the same entry twice: the first row stands). */
  has(key: string): boolean {
    return this.seenKeys.has(key);
  }

  private push(r: { key: string; name: string }, kind: ChangeKind, before: Partial<EntrySnapshot> | null, after: Partial<EntrySnapshot> | null) {
    this.changes.push({ source: this.opts.source, key: r.key, kind, name: r.name, before, after });
  }

  add(r: Pick<RegisterRecord, "key" | "name" | "status" | "rating" | "town">): void {
    const { source } = this.opts;
    if (this.seenKeys.has(r.key)) return;
    this.seenKeys.add(r.key);
    const p = this.prev.get(r.key);
    if (!p) this.push(r, "added", null, whole(r));
    else if (p.removed) this.push(r, "returned", whole(p), whole(r));
    else {
      const before = this.changes.length;
      if (canon(p.status) !== canon(r.status)) {
        const kind = source === "cqc" && canon(r.status) === "deregistered" ? "deregistered" : "status";
        this.push(r, kind, { status: p.status }, { status: r.status });
      }
      if (canon(p.rating) !== canon(r.rating)) this.push(r, "re-rated", { rating: p.rating }, { rating: r.rating });
      if (REPORTS_MOVES.has(source) && canon(p.town) !== canon(r.town)) this.push(r, "moved", { town: p.town }, { town: r.town });
      if (this.changes.length === before) this.unchanged++;
    }
  }

  /** Entries of the previous state not seen in this edition are `removed` (CQC: `deregistered`); `partial` editions (only changed entries) remove nothing. */
  finish(opts: { partial?: boolean } = {}): DiffResult {
    // On CQC a location missing from a full snapshot of active locations has been deregistered.
    const gone: ChangeKind = this.opts.source === "cqc" ? "deregistered" : "removed";
    if (!opts.partial) for (const p of this.prev.values()) if (!p.removed && !this.seenKeys.has(p.key)) this.push(p, gone, whole(p), null);
    this.changes.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { changes: this.changes, unchanged: this.unchanged, seen: this.seenKeys.size };
  }
}

export function diffEdition(previous: Iterable<EntrySnapshot>, next: Iterable<RegisterRecord>, opts: DiffOptions): DiffResult {
  const diff = new EditionDiff(previous, opts);
  for (const r of next) diff.add(r);
  return diff.finish();
}
