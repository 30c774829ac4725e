/**
 * Compares a register's previous state with its latest edition (SPEC §3.2, §4.5, §4.8, §6.3).
 *
 * Changes are reported per entity (the organisation; see RegisterRecord.entity), never per row: an
 * entity is `added` when it first appears, `removed` (CQC: `deregistered`) when it leaves the
 * register, `returned` when it comes back, and otherwise compared facet by facet under its register's
 * rules (src/services/registers/rules.ts): `status`, `re-rated`, `routes`, `premises`, `moved`. So one
 * entity gets at most one of added, removed and returned in an edition, and a label the register
 * rewrites (a route renamed, letter case, spacing, a trading name) is no change at all.
 *
 * Editions are complete snapshots, so an entry missing from `next` is no longer listed; a `partial`
 * edition (only changed entries, the CQC change API) removes nothing.
 *
 * Output order: by kind (added, returned, status, deregistered, re-rated, routes, premises, moved,
 * removed), then by entity (plain code-unit order), so the same inputs always give the same feed.
 */
import { CHANGE_RULES, type ChangeRules, canon } from "./rules";
import type { ChangeKind, EntrySnapshot, RegisterChange, RegisterRecord, RegisterSource } from "./types";

export interface DiffOptions {
  source: RegisterSource;
}
export interface DiffResult {
  changes: RegisterChange[];
  /** Entities listed in both editions with no change. */
  unchanged: number;
  /** Entries (rows, distinct keys) read from the new edition. */
  seen: number;
  /** Entities in the new edition. */
  entities: number;
}

const KIND_ORDER: Record<ChangeKind, number> = {
  added: 0,
  returned: 1,
  status: 2,
  deregistered: 3,
  "re-rated": 4,
  routes: 5,
  premises: 6,
  renamed: 7,
  moved: 8,
  removed: 9,
};

/** What the diff reads of a record: never its `data`. */
type Diffed = Pick<RegisterRecord, "key" | "entity" | "part" | "name" | "status" | "rating" | "town">;

export function snapshotOf(r: Diffed): EntrySnapshot {
  return { key: r.key, entity: r.entity, part: r.part, name: r.name, status: r.status, rating: r.rating, town: r.town, removed: false };
}

/** A flat copy of a string (concatenation then slice flattens it into new storage). */
const copy = (s: string) => (s.length < 13 ? s : (s + " ").slice(0, -1));

/** The fields of an entry an entity's facets are built from. */
type Row = Pick<EntrySnapshot, "name" | "part" | "status" | "rating" | "town">;

/** Distinct values by canonical form, in first-seen order, keeping the first spelling. */
function distinct(values: Iterable<string | null>): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) if (v !== null && v.trim() !== "" && !out.has(canon(v))) out.set(canon(v), v.trim());
  return out;
}

const sameRow = (a: Row, b: Row) =>
  canon(a.part) === canon(b.part) && canon(a.status) === canon(b.status) && canon(a.rating) === canon(b.rating) && canon(a.town) === canon(b.town);

const sortedDisplay = (m: Map<string, string>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
const sameKeys = (a: Map<string, unknown>, b: Map<string, unknown>) => a.size === b.size && [...a.keys()].every((k) => b.has(k));

/** An entity as one edition shows it, built from its rows. */
class EntityView {
  readonly name: string;
  readonly statuses: Map<string, string>;
  readonly towns: Map<string, string>;
  /** Part (canonical) → its display name. */
  readonly parts = new Map<string, string>();
  /** Part (canonical) → number of rows. */
  readonly partCounts = new Map<string, number>();
  /** Part (canonical) → its ratings (canonical → display). */
  readonly ratings = new Map<string, Map<string, string>>();

  /** Part (canonical) → the canonical current names it stands for (itself, unless renamed or split). */
  readonly successors = new Map<string, Set<string>>();
  /** Every current name the entity's parts stand for. */
  readonly current = new Set<string>();

  constructor(
    readonly rows: Row[],
    successorsOf?: (part: string) => string[],
  ) {
    this.name = rows[0].name;
    this.statuses = distinct(rows.map((r) => r.status));
    this.towns = distinct(rows.map((r) => r.town));
    for (const r of rows) {
      const p = canon(r.part);
      if (r.part !== null && !this.parts.has(p)) this.parts.set(p, r.part.trim());
      this.partCounts.set(p, (this.partCounts.get(p) ?? 0) + 1);
      const ratings = this.ratings.get(p) ?? new Map<string, string>();
      if (r.rating !== null && r.rating.trim() !== "" && !ratings.has(canon(r.rating))) ratings.set(canon(r.rating), r.rating.trim());
      this.ratings.set(p, ratings);
    }
    for (const p of this.partCounts.keys()) {
      const display = this.parts.get(p);
      const names = new Set(successorsOf && display !== undefined ? successorsOf(display).map(canon) : [p]);
      this.successors.set(p, names);
      for (const n of names) this.current.add(n);
    }
  }

  /** Parts of this view that stand for one of these current names. */
  matching(names: Set<string>): string[] {
    return [...this.successors].filter(([, own]) => [...own].some((n) => names.has(n))).map(([p]) => p);
  }

  /** Ratings of these parts, canonical, as one set. */
  ratingSet(parts: string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const p of parts) for (const [c, v] of this.ratings.get(p) ?? []) out.set(c, v);
    return out;
  }

  get status(): string {
    return sortedDisplay(this.statuses).join("; ");
  }

  /** Ratings of some parts (default all), distinct, in a fixed order; null when none. */
  rating(parts: Iterable<string> = this.ratings.keys()): string | null {
    const all = new Map<string, string>();
    for (const p of parts) for (const [c, v] of this.ratings.get(p) ?? []) if (!all.has(c)) all.set(c, v);
    return all.size ? sortedDisplay(all).join("; ") : null;
  }

  get town(): string | null {
    return this.towns.values().next().value ?? null;
  }

  /** What the feed shows of the entity when it is added, removed or returned. */
  whole(rules: ChangeRules): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, status: this.status };
    if (rules.rating) out.rating = this.rating();
    if (rules.towns) {
      out.town = this.town;
      if (this.towns.size > 1) out.towns = [...this.towns.values()];
    }
    if (rules.parts) Object.assign(out, this.partsView(rules.parts.kind));
    return out;
  }

  partsView(kind: "routes" | "premises"): Record<string, unknown> {
    if (kind === "routes") return { routes: sortedDisplay(this.parts) };
    let n = 0;
    for (const c of this.partCounts.values()) n += c;
    return { premises: n, districts: sortedDisplay(this.parts) };
  }
}

/**
 * A diff fed one record at a time, so an edition never has to be held whole: it keeps the previous
 * state and, per entity, the few fields its facets need. `add` each record of the new edition, then `finish`.
 */
export class EditionDiff {
  private readonly rules: ChangeRules;
  private readonly prev = new Map<string, EntrySnapshot>();
  /** Keys of the previous state seen again (their strings are already held by `prev`)... */
  private readonly seenPrev = new Set<string>();
  /** ...and keys new in this edition. */
  private readonly seenNew = new Set<string>();
  private readonly next = new Map<string, Row[]>();
  /** One copy of each part, status, rating and town: few distinct values, held for every row. */
  private readonly interned = new Map<string, string>();

  constructor(
    previous: Iterable<EntrySnapshot>,
    private readonly opts: DiffOptions,
  ) {
    this.rules = CHANGE_RULES[opts.source];
    for (const p of previous) this.prev.set(p.key, p);
  }

  /** Whether `key` has been added already (a register listing the same entry twice: the first row stands). */
  has(key: string): boolean {
    return this.seenPrev.has(key) || this.seenNew.has(key);
  }

  /**
   * A copy of a value that holds nothing else alive: parsers hand out slices of large pieces of text,
   * and a slice kept would keep its whole piece (V8 sliced strings).
   */
  private own(v: string | null): string | null {
    if (v === null) return null;
    let o = this.interned.get(v);
    if (o === undefined) this.interned.set((o = copy(v)), o);
    return o;
  }

  add(r: Diffed): void {
    if (this.has(r.key)) return;
    const before = this.prev.get(r.key);
    if (before) this.seenPrev.add(before.key);
    else this.seenNew.add(copy(r.key));
    const list = this.next.get(r.entity);
    // Only an entity's first row gives its name.
    const row: Row = {
      name: list ? "" : copy(r.name),
      part: this.own(r.part),
      status: this.own(r.status)!,
      rating: this.own(r.rating),
      town: this.own(r.town),
    };
    if (list) list.push(row);
    else this.next.set(copy(r.entity), [row]);
  }

  private view(rows: Row[]): EntityView {
    return new EntityView(rows, this.rules.parts?.successors);
  }

  private listed(rows: Row[]): Row[] {
    const off = this.rules.offStatuses;
    return off.length ? rows.filter((r) => !off.includes(canon(r.status))) : rows;
  }

  /** Every change of every entity; `partial` editions (only changed entries) remove nothing. */
  finish(opts: { partial?: boolean } = {}): DiffResult {
    const { source } = this.opts;
    const rules = this.rules;
    const changes: RegisterChange[] = [];
    let unchanged = 0;
    const push = (entity: string, kind: ChangeKind, name: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null) =>
      changes.push({ source, key: entity, kind, name, before, after });

    // The previous state by entity, built now the edition is read (the parser's memory is free by then).
    const prevByEntity = new Map<string, EntrySnapshot[]>();
    for (const p of this.prev.values()) {
      const list = prevByEntity.get(p.entity);
      if (list) list.push(p);
      else prevByEntity.set(p.entity, [p]);
    }
    const entities = new Set<string>(this.next.keys());
    if (!opts.partial) for (const e of prevByEntity.keys()) entities.add(e);
    for (const entity of entities) {
      const prevAll = prevByEntity.get(entity) ?? [];
      const prevListed = this.listed(prevAll.filter((p) => !p.removed));
      const nextAll = this.next.get(entity) ?? [];
      const nextListed = this.listed(nextAll);
      if (!prevListed.length && !nextListed.length) continue; // never listed, or off the register in both
      if (!prevListed.length) {
        const after = this.view(nextListed);
        if (prevAll.length) push(entity, "returned", after.name, this.view(prevAll).whole(rules), after.whole(rules));
        else push(entity, "added", after.name, null, after.whole(rules));
        continue;
      }
      // Most entities are one row, unchanged: compared without building views.
      if (prevListed.length === 1 && nextListed.length === 1 && sameRow(prevListed[0], nextListed[0])) {
        unchanged++;
        continue;
      }
      const before = this.view(prevListed);
      if (!nextListed.length) {
        push(entity, rules.gone, before.name, before.whole(rules), nextAll.length ? { status: this.view(nextAll).status } : null);
        continue;
      }
      const after = this.view(nextListed);
      const count = changes.length;
      if (!sameKeys(before.statuses, after.statuses)) push(entity, "status", after.name, { status: before.status }, { status: after.status });
      if (rules.rating === "entity" && !sameKeys(before.ratings.get("") ?? new Map(), after.ratings.get("") ?? new Map()))
        push(entity, "re-rated", after.name, { rating: before.rating() }, { rating: after.rating() });
      if (rules.rating === "byPart") {
        // Routes held in both editions (under their current names) are compared; a route gained or lost is a `routes` change.
        const rerated = [...before.ratings.keys()].filter((p) => {
          const there = after.matching(before.successors.get(p)!);
          return there.length > 0 && !sameKeys(before.ratingSet([p]), after.ratingSet(there));
        });
        if (rerated.length) {
          const there = after.matching(new Set(rerated.flatMap((p) => [...before.successors.get(p)!])));
          const byPart = (v: EntityView, parts: string[]) => Object.fromEntries(parts.map((p) => [v.parts.get(p) ?? p, v.rating([p])]));
          push(
            entity,
            "re-rated",
            after.name,
            { rating: before.rating(rerated), ratings: byPart(before, rerated) },
            { rating: after.rating(there), ratings: byPart(after, there) },
          );
        }
      }
      if (rules.parts) {
        const differ =
          rules.parts.as === "set"
            ? [...before.successors.values()].some((own) => ![...own].some((n) => after.current.has(n))) ||
              [...after.successors.values()].some((own) => ![...own].some((n) => before.current.has(n)))
            : before.partCounts.size !== after.partCounts.size || [...before.partCounts].some(([p, n]) => after.partCounts.get(p) !== n);
        if (differ) push(entity, rules.parts.kind, after.name, before.partsView(rules.parts.kind), after.partsView(rules.parts.kind));
      }
      if (rules.towns && !sameKeys(before.towns, after.towns)) {
        const towns = (v: EntityView) => (v.towns.size > 1 ? { town: v.town, towns: [...v.towns.values()] } : { town: v.town });
        push(entity, "moved", after.name, towns(before), towns(after));
      }
      if (changes.length === count) unchanged++;
    }
    changes.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { changes, unchanged, seen: this.seenPrev.size + this.seenNew.size, entities: this.next.size };
  }
}

export function diffEdition(previous: Iterable<EntrySnapshot>, next: Iterable<Diffed>, opts: DiffOptions): DiffResult {
  const diff = new EditionDiff(previous, opts);
  for (const r of next) diff.add(r);
  return diff.finish();
}
