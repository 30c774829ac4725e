/**
 * The tender notices table (migrations/0010_tenders.sql; issue 18 §2 tender-match): writes by the daily read and
 * the CLI (src/jobs/tenders.ts), and the reads tender-match makes through ctx.services.contracts: the open notices
 * whose CPV codes or words fit, bounded, and how many notices are open. "Open" here is the SQL side of
 * services/contracts/tenderMatch.ts isOpen (a superset by at most an hour around midnight; the ranking applies the
 * exact rule): status active or planned, bids not yet closed (or no deadline and published within
 * NO_DEADLINE_DAYS), and no award published for the process in the contracts register (issue 14: the daily
 * award read closes a tender without its tender notice being read again).
 */
import { OPEN_STATUSES, type TenderNotice, noDeadlineCutoff, stem, ukDay } from "../services/contracts/tenderMatch";

/** A notice as stored, with whether it is our own sample. */
export interface StoredTender {
  notice: TenderNotice;
  sample: boolean;
}

/** The instant bids close: the deadline itself, or the end of the day (UTC) of a deadline given as a date alone. */
export function closesAtOf(deadline: string | null): string | null {
  if (!deadline) return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(deadline)) return `${deadline}T23:59:59.999Z`;
  const ms = Date.parse(deadline);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const wordsColumn = (n: TenderNotice) =>
  ` ${
    [n.title, n.description]
      .join(" ")
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.map(stem)
      .join(" ") ?? ""
  } `;

/** The stored notices of these processes. */
export async function storedTenders(db: D1Database, ocids: string[]): Promise<Map<string, StoredTender>> {
  const out = new Map<string, StoredTender>();
  const uniq = [...new Set(ocids)];
  for (let i = 0; i < uniq.length; i += 90) {
    const part = uniq.slice(i, i + 90);
    const rows = await db
      .prepare(`SELECT data, sample FROM tenders WHERE ocid IN (${part.map(() => "?").join(", ")})`)
      .bind(...part)
      .all<{ data: string; sample: number }>();
    for (const r of rows.results) {
      const notice = JSON.parse(r.data) as TenderNotice;
      out.set(notice.ocid, { notice, sample: r.sample === 1 });
    }
  }
  return out;
}

/** Writes notices (new or replacing the stored ones), a few statements per D1 batch. */
export async function writeTenders(db: D1Database, notices: TenderNotice[], opts: { sample: boolean; now: Date }): Promise<void> {
  const loadedAt = opts.now.toISOString();
  const stmt = db.prepare(
    `INSERT OR REPLACE INTO tenders (ocid, source, release_date, status, closes_at, published_day, cpv, words, data, sample, loaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < notices.length; i += 50) {
    await db.batch(
      notices
        .slice(i, i + 50)
        .map((n) =>
          stmt.bind(
            n.ocid,
            n.source,
            n.releaseDate,
            n.status,
            closesAtOf(n.deadline),
            n.published ? ukDay(n.published) : null,
            ` ${n.cpv.map((c) => c.id).join(" ")} `,
            wordsColumn(n),
            JSON.stringify(n),
            opts.sample ? 1 : 0,
            loadedAt,
          ),
        ),
    );
  }
}

/** Whether any real (not sample) notice is stored, and whether any sample one is. */
export async function tenderKinds(db: D1Database): Promise<{ real: boolean; sample: boolean }> {
  const r = await db.prepare(`SELECT MAX(sample = 0) AS real, MAX(sample = 1) AS sample FROM tenders`).first<{ real: number | null; sample: number | null }>();
  return { real: r?.real === 1, sample: r?.sample === 1 };
}

/** Removes our sample notices (the first real read replaces them). */
export async function deleteSampleTenders(db: D1Database): Promise<number> {
  return (await db.prepare(`DELETE FROM tenders WHERE sample = 1`).run()).meta.changes ?? 0;
}

/** Empties the table and its read log (npm run reset). */
export async function resetTenders(db: D1Database): Promise<number> {
  const [r] = await db.batch([db.prepare(`DELETE FROM tenders`), db.prepare(`DELETE FROM tender_reads`)]);
  return r.meta.changes ?? 0;
}

/** Notices that closed (or fell out of the no-deadline allowance) more than `keepDays` ago are removed. */
export async function pruneTenders(db: D1Database, now: Date, keepDays = 90): Promise<number> {
  const before = new Date(now.getTime() - keepDays * 86_400_000).toISOString();
  const r = await db
    .prepare(
      `DELETE FROM tenders WHERE (closes_at IS NOT NULL AND closes_at < ?1)
         OR (status NOT IN ('active', 'planned') AND loaded_at < ?1)
         OR (closes_at IS NULL AND (published_day IS NULL OR published_day < substr(?1, 1, 10)) AND loaded_at < ?1)`,
    )
    .bind(before)
    .run();
  return r.meta.changes ?? 0;
}

// ---------------------------------------------------------------------------------------------- the read log

export interface TenderRead {
  startedAt: string;
  finishedAt: string;
  window: { start: string; end: string } | null;
  fileName: string | null;
  url: string | null;
  outcome: "loaded" | "failed" | "refused";
  releases: number;
  written: number;
  closed: number;
  sample: boolean;
  reason: string | null;
  notes: Record<string, number> | null;
}

export async function recordTenderRead(db: D1Database, r: TenderRead): Promise<void> {
  await db
    .prepare(
      `INSERT INTO tender_reads (started_at, finished_at, window_start, window_end, file_name, url, outcome, releases, written, closed, sample, reason, notes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      r.startedAt,
      r.finishedAt,
      r.window?.start ?? null,
      r.window?.end ?? null,
      r.fileName,
      r.url,
      r.outcome,
      r.releases,
      r.written,
      r.closed,
      r.sample ? 1 : 0,
      r.reason,
      r.notes && Object.keys(r.notes).length ? JSON.stringify(r.notes) : null,
    )
    .run();
}

/** Where the daily read goes on from: the end of the last window read completely, or null before the first. */
export async function lastTenderWindowEnd(db: D1Database): Promise<string | null> {
  const r = await db.prepare(`SELECT MAX(window_end) AS e FROM tender_reads WHERE outcome = 'loaded' AND window_end IS NOT NULL`).first<{ e: string | null }>();
  return r?.e ?? null;
}

export interface TenderEdition {
  /** When notices were last read (a daily window or a file), or null before any. */
  lastReadAt: string | null;
  /** The end of the last window the daily read completed (notices published or updated up to then), or null. */
  readThrough: string | null;
  /** The notices held are our own samples (npm start). */
  sample: boolean;
}

export async function tenderEdition(db: D1Database): Promise<TenderEdition> {
  const [reads, kinds] = await Promise.all([
    db
      .prepare(`SELECT MAX(finished_at) AS last, MAX(window_end) AS through FROM tender_reads WHERE outcome = 'loaded'`)
      .first<{ last: string | null; through: string | null }>(),
    tenderKinds(db),
  ]);
  return { lastReadAt: reads?.last ?? null, readThrough: reads?.through ?? null, sample: kinds.sample && !kinds.real };
}

// ---------------------------------------------------------------------------------------------- reads

/** The SQL of an open notice (see the header); binds ?1 now (ISO instant), ?2 the first publication day still offered without a deadline. */
const OPEN = `t.status IN (${OPEN_STATUSES.map((s) => `'${s}'`).join(", ")})
  AND (t.closes_at >= ?1 OR (t.closes_at IS NULL AND json_extract(t.data, '$.deadline') IS NULL AND t.published_day >= ?2))
  AND NOT EXISTS (SELECT 1 FROM register_entries e WHERE e.source = 'contracts' AND e.key >= t.ocid || '/' AND e.key < t.ocid || '0'
    AND e.valid_to_run IS NULL AND lower(e.status) NOT IN ('cancelled', 'unsuccessful'))`;

/** How many notices are open on `today` (UK date) at `now`. */
export async function openTenderCount(db: D1Database, today: string, now: string): Promise<number> {
  const r = await db.prepare(`SELECT COUNT(*) AS n FROM tenders t WHERE ${OPEN}`).bind(now, noDeadlineCutoff(today)).first<{ n: number }>();
  return r?.n ?? 0;
}

export interface TenderCandidatesQuery {
  /** CPV code prefixes (digits). */
  cpvPrefixes: string[];
  /** Keywords (words or phrases; compared as stems, by the start of a word). */
  keywords: string[];
  today: string;
  now: string;
  /** At most this many candidates, those with the most CPV prefixes and keywords found first. */
  limit: number;
}

/** Caps that keep the statement within D1's bound parameters. */
export const MAX_CPV_PREFIXES = 40;
export const MAX_KEYWORDS = 40;

/**
 * Open notices with a CPV code under one of the prefixes or one of the keywords in their title or description,
 * those with most of them first, then the soonest to close: the candidates tender-match ranks exactly.
 */
export async function openTenderCandidates(db: D1Database, q: TenderCandidatesQuery): Promise<TenderNotice[]> {
  const prefixes = [...new Set(q.cpvPrefixes.filter((p) => /^\d{1,8}$/.test(p)))].slice(0, MAX_CPV_PREFIXES);
  const stems = [
    ...new Set(
      q.keywords
        .map(
          (k) =>
            k
              .toLowerCase()
              .match(/[a-z0-9]+/g)
              ?.map(stem)
              .join(" ") ?? "",
        )
        .filter(Boolean),
    ),
  ].slice(0, MAX_KEYWORDS);
  if (!prefixes.length && !stems.length) return [];
  const args: (string | number)[] = [q.now, noDeadlineCutoff(q.today)];
  // instr(), not LIKE: both columns are space-framed and lower case and the needles are digits, letters and spaces,
  // so `instr(col, ' x') > 0` is `col LIKE '% x%'` exactly; but D1 refuses a LIKE pattern over 50 bytes ("LIKE or
  // GLOB pattern too complex"), and a keyword taken from a website can be any length (issue 29 §4).
  const hits = [
    ...prefixes.map((p) => {
      args.push(` ${p}`);
      return `(instr(t.cpv, ?${args.length}) > 0)`;
    }),
    ...stems.map((s) => {
      args.push(` ${s}`);
      return `(instr(t.words, ?${args.length}) > 0)`;
    }),
  ];
  args.push(Math.max(1, Math.min(q.limit, 2000)));
  const rows = await db
    .prepare(
      `SELECT data FROM (SELECT t.data, t.closes_at, t.ocid, ${hits.join(" + ")} AS hits FROM tenders t WHERE ${OPEN})
        WHERE hits > 0 ORDER BY hits DESC, closes_at IS NULL, closes_at, ocid LIMIT ?${args.length}`,
    )
    .bind(...args)
    .all<{ data: string }>();
  return rows.results.map((r) => JSON.parse(r.data) as TenderNotice);
}
