/**
 * Shared shapes of the register family (SPEC §2.5, §2.6, §3.2, §4.5, §4.8, §6.3).
 * Pure types: parsers in src/sources/* produce RegisterRecord; the diff in
 * src/services/registers/diff.ts compares editions; src/db stores them. What each register's entries carry
 * in `data` is declared at the end of ./catalogue.ts: a record or entry of register S has that register's shape.
 */
import { type ChangeKind, REGISTER_CATALOGUE } from "./catalogue";
import type { DataKey, RegisterDataOf } from "./catalogue";

/** The registers this service loads: the catalogue's source ids (a new register is a new catalogue entry). */
export type RegisterSource = keyof typeof REGISTER_CATALOGUE;

/** The `data` of register S's entries (./catalogue.ts, at its end); by default, of any register's. */
export type RegisterData<S extends RegisterSource = RegisterSource> = RegisterDataOf[S];

/** A field of register S's `data` (any of its shapes', for a register with several). */
export type DataField<S extends RegisterSource> = DataKey<RegisterData<S>> & string;

export const REGISTER_SOURCES = Object.keys(REGISTER_CATALOGUE) as readonly RegisterSource[];

/**
 * One entry of a register edition, as parsed, stored and diffed.
 *
 * An entry belongs to an **entity**: the organisation the register lists, identified by the register's
 * own stable number where it has one (MLR number, SRA number, charity number, CQC location or provider
 * id) and, on the sponsors register (which has none), by the register and the normalised organisation
 * name. Changes are reported per entity, never per row, so a label the register rewrites (a route
 * renamed, a name re-cased, a trading name changed) never reads as a removal plus an addition.
 */
interface RecordOf<S extends RegisterSource> {
  source: S;
  /** Stable identity of the entry (row) within its source, unique within an edition. */
  key: string;
  /** The organisation the entry belongs to (see above). Entries of one entity share it. */
  entity: string;
  /**
   * What this entry is a part of its entity, compared between editions (sponsors: the route under its
   * current name; HMRC: the premises' postcode district); null where an entity is one entry.
   */
  part: string | null;
  /** Display name exactly as the register gives it (trimmed of outer whitespace only). */
  name: string;
  /** Companies House number, normalised to 8 characters, when the register carries one. */
  companyNumber: string | null;
  /** Other names usable for matching: trading names, previous names, working names. */
  altNames: string[];
  /** Status as the register states it (e.g. "Approved", "authorised", "Registered", a sponsor's "listed"). */
  status: string;
  /** A rating, where the register has one (sponsors: Type & Rating; CQC: overall rating). */
  rating: string | null;
  /** Town as the register gives it, where it has one. */
  town: string | null;
  /** Everything else the endpoint shows, camelCase keys, JSON-serialisable. Never names a person. Its shape: ./catalogue.ts, at its end. */
  data: RegisterData<S>;
}

/**
 * A parsed entry of register S. The default, an entry of any register, is the union over the registers, so
 * `record.source` tells which register and narrows `data` to its shape.
 */
export type RegisterRecord<S extends RegisterSource = RegisterSource> = { [K in S]: RecordOf<K> }[S];

/** Kinds of change (SPEC §6.3): each register's are its catalogue entry's `changes.kinds`. */
export type { ChangeKind };

/** What the diff remembers of an entry: enough to detect every kind of change of its entity. */
export interface EntrySnapshot {
  key: string;
  entity: string;
  part: string | null;
  name: string;
  status: string;
  rating: string | null;
  town: string | null;
  /** True when the entry was in an earlier edition but not in the latest one. */
  removed: boolean;
}

/** One change of one entity between two editions. `key` is the entity. */
export interface RegisterChange {
  source: RegisterSource;
  key: string;
  kind: ChangeKind;
  name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// ---- A published register, as the checks and feeds read it (db/registers.ts returns these). ----

/** One entry of a published edition of register S (by default, of any register). */
export interface Entry<S extends RegisterSource = RegisterSource> {
  key: string;
  /** The organisation the entry belongs to (register number, or sponsors' register and name); changes are kept per entity. */
  entity: string;
  part: string | null;
  scope: string;
  name: string;
  companyNumber: string | null;
  status: string;
  rating: string | null;
  town: string | null;
  altNames: string[];
  /** The register's own fields: its shape at the end of ./catalogue.ts. */
  data: RegisterData<S>;
  firstSeen: string;
  removedOn: string | null;
  /** Last edition the entry was listed in: the current edition while listed. */
  lastListed: string | null;
}

/** One recorded change. */
export interface ChangeRow {
  id: number;
  date: string;
  kind: string;
  key: string;
  name: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Dates of a register's published edition. */
export interface RegisterEditionInfo {
  /** Newest published edition date across the source's scopes. */
  editionDate: string | null;
  /** First edition this installation loaded (history is kept from here). */
  historySince: string | null;
  fetchedAt: string | null;
}
