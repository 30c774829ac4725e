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

export function diffEdition(previous: Iterable<EntrySnapshot>, next: Iterable<RegisterRecord>, opts: DiffOptions): DiffResult {
  const { source } = opts;
  const prev = new Map<string, EntrySnapshot>();
  for (const p of previous) prev.set(p.key, p);
  const seenKeys = new Set<string>();
  const changes: RegisterChange[] = [];
  let unchanged = 0;
  const push = (r: { key: string; name: string }, kind: ChangeKind, before: Partial<EntrySnapshot> | null, after: Partial<EntrySnapshot> | null) =>
    changes.push({ source, key: r.key, kind, name: r.name, before, after });

  for (const r of next) {
    if (seenKeys.has(r.key)) continue; // a register listing the same entry twice: the first row stands
    seenKeys.add(r.key);
    const p = prev.get(r.key);
    if (!p) push(r, "added", null, whole(r));
    else if (p.removed) push(r, "returned", whole(p), whole(r));
    else {
      const before = changes.length;
      if (canon(p.status) !== canon(r.status)) {
        const kind = source === "cqc" && canon(r.status) === "deregistered" ? "deregistered" : "status";
        push(r, kind, { status: p.status }, { status: r.status });
      }
      if (canon(p.rating) !== canon(r.rating)) push(r, "re-rated", { rating: p.rating }, { rating: r.rating });
      if (REPORTS_MOVES.has(source) && canon(p.town) !== canon(r.town)) push(r, "moved", { town: p.town }, { town: r.town });
      if (changes.length === before) unchanged++;
    }
  }
  for (const p of prev.values()) if (!p.removed && !seenKeys.has(p.key)) push(p, "removed", whole(p), null);

  changes.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { changes, unchanged, seen: seenKeys.size };
}
