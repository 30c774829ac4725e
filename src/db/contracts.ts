/**
 * Reads of the contracts register (public contract awards, one entry per award and supplier; its `data` is a
 * ContractAward): a company's awards by its company number or by the entry keys matched on name and postcode,
 * newest award first, paged, and their totals by year and by buyer. Only the published edition is read.
 */
import type { ContractAward } from "../services/contracts/types";

const VISIBLE = `FROM register_entries e JOIN register_state s ON s.source = e.source AND s.scope = e.scope
  WHERE e.source = 'contracts' AND e.valid_from_run <= s.published_run AND (e.valid_to_run IS NULL OR e.valid_to_run > s.published_run)`;

export interface AwardsOf {
  numbers: string[];
  keys: string[];
  /** Awards on or after this date (YYYY-MM-DD); undated awards only when no date is asked. */
  since: string | null;
}

function where(q: AwardsOf): { sql: string; args: (string | number)[] } {
  const args: (string | number)[] = [];
  const ors: string[] = [];
  if (q.numbers.length) {
    ors.push(`e.company_number IN (${q.numbers.map(() => "?").join(", ")})`);
    args.push(...q.numbers);
  }
  if (q.keys.length) {
    ors.push(`e.key IN (${q.keys.map(() => "?").join(", ")})`);
    args.push(...q.keys);
  }
  let sql = `${VISIBLE} AND (${ors.join(" OR ") || "0"})`;
  if (q.since) {
    sql += ` AND json_extract(e.data, '$.awardDate') >= ?`;
    args.push(q.since);
  }
  return { sql, args };
}

/** A page of the awards, newest award date first (undated last), then by key. */
export async function contractAwardsOf(db: D1Database, q: AwardsOf, limit: number, offset: number): Promise<{ key: string; award: ContractAward }[]> {
  const w = where(q);
  const rows = await db
    .prepare(
      `SELECT e.key, e.data ${w.sql} ORDER BY json_extract(e.data, '$.awardDate') IS NULL, json_extract(e.data, '$.awardDate') DESC, e.key LIMIT ? OFFSET ?`,
    )
    .bind(...w.args, limit, offset)
    .all<{ key: string; data: string }>();
  return rows.results.map((r) => ({ key: r.key, award: JSON.parse(r.data) as ContractAward }));
}

export interface AwardTotalRow {
  group: string | null;
  currency: string | null;
  awards: number;
  /** Awards with a stated value. */
  valued: number;
  /** Sum of the values of awards this company won alone. */
  soleValue: number;
  /** Awards shared with other suppliers (frameworks, DPS): their values are not split, so they are summed apart. */
  shared: number;
  sharedValue: number;
}

/** Totals by award year or by buyer, per currency. */
export async function contractTotals(db: D1Database, q: AwardsOf, by: "year" | "buyer"): Promise<AwardTotalRow[]> {
  const w = where(q);
  const group = by === "year" ? `substr(json_extract(e.data, '$.awardDate'), 1, 4)` : `json_extract(e.data, '$.buyer.name')`;
  const rows = await db
    .prepare(
      `SELECT ${group} AS grp, json_extract(e.data, '$.value.currency') AS currency, COUNT(*) AS awards,
         SUM(json_extract(e.data, '$.value.amount') IS NOT NULL) AS valued,
         COALESCE(SUM(CASE WHEN COALESCE(json_extract(e.data, '$.supplierCount'), 1) <= 1 THEN json_extract(e.data, '$.value.amount') END), 0) AS sole_value,
         SUM(COALESCE(json_extract(e.data, '$.supplierCount'), 1) > 1) AS shared,
         COALESCE(SUM(CASE WHEN COALESCE(json_extract(e.data, '$.supplierCount'), 1) > 1 THEN json_extract(e.data, '$.value.amount') END), 0) AS shared_value
       ${w.sql} GROUP BY grp, currency ORDER BY ${by === "year" ? "grp DESC" : "sole_value + shared_value DESC, awards DESC"} LIMIT 200`,
    )
    .bind(...w.args)
    .all<{ grp: string | null; currency: string | null; awards: number; valued: number; sole_value: number; shared: number; shared_value: number }>();
  return rows.results.map((r) => ({
    group: r.grp,
    currency: r.currency,
    awards: r.awards,
    valued: r.valued,
    soleValue: r.sole_value,
    shared: r.shared,
    sharedValue: r.shared_value,
  }));
}
