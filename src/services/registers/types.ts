/**
 * Shared shapes of the register family (SPEC §2.5, §2.6, §3.2, §4.5, §4.8, §6.3).
 * Pure types: parsers in src/sources/* produce RegisterRecord; the diff in
 * src/services/registers/diff.ts compares editions; src/db stores them.
 */
export type RegisterSource = "aml" | "sra" | "sponsors" | "cqc" | "charity";

export const REGISTER_SOURCES: readonly RegisterSource[] = ["aml", "sra", "sponsors", "cqc", "charity"];

/** One entry of a register edition, as parsed, stored and diffed. */
export interface RegisterRecord {
  source: RegisterSource;
  /** Stable identity of the entry within its source (see each parser for its rule). */
  key: string;
  /** Display name exactly as the register gives it (trimmed of outer whitespace only). */
  name: string;
  /** Companies House number, normalised to 8 characters, when the register carries one. */
  companyNumber: string | null;
  /** Other names usable for matching: trading names, previous names, working names. */
  altNames: string[];
  /** Status as the register states it (e.g. "Approved", "authorised", "Registered", a sponsor rating row's status). */
  status: string;
  /** A rating, where the register has one (sponsors: Type & Rating; CQC: overall rating). */
  rating: string | null;
  /** Town as the register gives it, where it has one. */
  town: string | null;
  /** Everything else the endpoint shows, camelCase keys, JSON-serialisable. Never names a person. */
  data: Record<string, unknown>;
}

export type ChangeKind = "added" | "removed" | "returned" | "status" | "re-rated" | "moved" | "deregistered";

/** What the diff remembers of an entry: enough to detect every kind of change. */
export interface EntrySnapshot {
  key: string;
  name: string;
  status: string;
  rating: string | null;
  town: string | null;
  /** True when the entry was in an earlier edition but not in the latest one. */
  removed: boolean;
}

export interface RegisterChange {
  source: RegisterSource;
  key: string;
  kind: ChangeKind;
  name: string;
  before: Partial<EntrySnapshot> | null;
  after: Partial<EntrySnapshot> | null;
}
