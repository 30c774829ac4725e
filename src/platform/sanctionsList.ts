/**
 * The UK sanctions list as this service last published it, indexed for matching (services/sanctions/match.ts),
 * built once per published run in each isolate: a call costs one small query to learn the published run, and
 * the first call after a new edition reads the list (about 5,000 designations) and indexes it.
 */
import { listedEntryData, publishedRunOf } from "../db/registers";
import { type SanctionsIndex, buildSanctionsIndex } from "../services/sanctions/match";
import type { SanctionsDesignation } from "../services/sanctions/types";

export interface SanctionsList {
  index: SanctionsIndex;
  /** The list's own date (its edition). */
  listDate: string | null;
}

let cached: { key: string; list: Promise<SanctionsList> } | null = null;

async function load(db: D1Database, listDate: string | null): Promise<SanctionsList> {
  const designations: SanctionsDesignation[] = [];
  for (let after = ""; ; ) {
    const page = await listedEntryData(db, "sanctions", after, 2000);
    for (const r of page) designations.push(r.data);
    if (page.length < 2000) break;
    after = page[page.length - 1].key;
  }
  return { index: buildSanctionsIndex(designations), listDate };
}

/** The published list, or null when none has been loaded yet (never a clearance: callers say it was not checked). */
export async function currentSanctionsList(db: D1Database): Promise<SanctionsList | null> {
  const published = await publishedRunOf(db, "sanctions");
  if (!published) return null;
  const key = `${published.run}:${published.editionDate}:${published.finishedAt}`;
  if (cached?.key !== key) cached = { key, list: load(db, published.editionDate) };
  const mine = cached;
  try {
    return await mine.list;
  } catch (e) {
    if (cached === mine) cached = null; // a failed read is not kept
    throw e;
  }
}
