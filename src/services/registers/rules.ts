/**
 * What counts as a change on each register (SPEC §3.2, §4.5, §4.8, §6.3), by source: each register's catalogue
 * entry's `changes` (src/services/registers/catalogue.ts ChangeRules says what each rule means). Pure data, read by
 * the diff (src/services/registers/diff.ts) and by the change feeds (which kinds a feed can filter on).
 */
import { type ChangeRules, REGISTER_CATALOGUE } from "./catalogue";
import { REGISTER_SOURCES, type RegisterSource } from "./types";

export type { ChangeRules };

export const CHANGE_RULES = Object.fromEntries(REGISTER_SOURCES.map((s): [RegisterSource, ChangeRules] => [s, REGISTER_CATALOGUE[s].changes])) as Record<
  RegisterSource,
  ChangeRules
>;

/** Case and spacing never make a change: `LONDON` = `London `, `Milton  Keynes` = `Milton Keynes`, null = "". */
export const canon = (s: string | null | undefined): string => (s ?? "").toLowerCase().replace(/\s+/g, "");
