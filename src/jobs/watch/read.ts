/**
 * The daily read of one watched company (issue 15 §2; SPEC §3.1, §6.1).
 *
 * 1. Charging: each watch not yet paid for this calendar month (UTC) is charged 2 credits on its account's ledger,
 *    at most once per watch and month (`watch:<id>:<YYYY-MM>`, so a read repeated after a crash charges nothing
 *    twice). Short of credits, the watch becomes paused (said on the watch); a paused watch is tried again at each
 *    daily read and resumes the day the credits are there, charged then, with a fresh baseline.
 * 2. Reading: a company whose watches are all paused is not read. Otherwise every source is read (ports.read);
 *    a source that fails keeps its last good section and is never a change (reading.ts, events.ts).
 * 3. Recording, in one transaction (db/watch.ts recordRead): an event per change for every account whose watch was
 *    live and past its baseline, each pending delivery when the account has a webhook; the company's kept reading;
 *    the watches' last read. Nothing is written before this point, so a Worker that dies while reading leaves the
 *    last reading in place and the next read finds the same changes; the same day's key refuses duplicates.
 * 4. Waking the deliveries: a queue message per batch of pending events. If it is lost, the five-minute sweep finds
 *    the events still pending (tick.ts).
 */
import { type WatchToCharge, markPaid, pauseWatch, recordRead, skipRead, storedReading, watchesOfCompany } from "../../db/watch";
import { diffReadings, eventKey } from "../../services/watch/events";
import { WATCH_MONTHLY_CREDITS, type WatchPorts, monthChargeId } from "../../services/watch/feed";
import { type Reading, SECTIONS, readingOf } from "../../services/watch/reading";
import { ledgerFor, periodOf } from "../../shared/plans";

/** The ledger a watch's account draws on, as the gateway names it (credits_override is already this month's). */
const ledgerOfWatch = (w: WatchToCharge) =>
  ledgerFor({ accountId: w.account_id, plan: w.plan, orgId: w.org_id, orgPlan: w.org_plan, pooled: w.pooled, startingBalance: w.credits_override });

export interface ReadOutcome {
  company: string;
  /** Whether the sources were read (false: every watch paused, or none left). */
  read: boolean;
  events: number;
  /** Event ids recorded with a delivery pending. */
  pending: number[];
  charged: number;
  paused: number;
  resumed: number;
}

/** Charges the month where due; returns the watches live for this read (state after charging). */
async function chargeMonth(ports: WatchPorts, watches: WatchToCharge[], now: Date, out: ReadOutcome): Promise<WatchToCharge[]> {
  const period = periodOf(now.getTime());
  const live: WatchToCharge[] = [];
  for (const w of watches) {
    if (w.paid_period === period && w.state === "watched") {
      live.push(w);
      continue;
    }
    const ledger = ledgerOfWatch(w);
    const r = await ports.chargeOnce(ledger.name, {
      id: monthChargeId(w.id, period),
      cost: WATCH_MONTHLY_CREDITS,
      period,
      allowance: ledger.allowance,
      startingBalance: ledger.startingBalance,
    });
    if (r.ok) {
      const resumed = w.state === "paused";
      await markPaid(ports.db, w.id, period, resumed);
      out.charged += r.charged;
      if (resumed) out.resumed++;
      // A watch resumed now starts from a fresh baseline: this read is it (no events for it).
      live.push(resumed ? { ...w, state: "watched", paid_period: period, baseline_at: null } : { ...w, paid_period: period });
    } else {
      if (w.state !== "paused") out.paused++;
      await pauseWatch(
        ports.db,
        w.id,
        now.toISOString(),
        `This month's ${WATCH_MONTHLY_CREDITS} credits could not be taken on ${now.toISOString().slice(0, 10)} (${r.remaining} left). The watch is kept and resumes at the next daily read once there are credits (charged then), or at once by watching the company again (POST /api/v1/watch).`,
      );
    }
  }
  return live;
}

const parseReading = (json: string | null): Reading | null => {
  if (!json) return null;
  try {
    return JSON.parse(json) as Reading;
  } catch {
    return null;
  }
};

/** Reads one company for its watchers and records what changed. Throws only when the database or the ledger fails (the queue retries). */
export async function readWatchedCompany(ports: WatchPorts, company: string): Promise<ReadOutcome> {
  const now = new Date(ports.now());
  const day = now.toISOString().slice(0, 10);
  const out: ReadOutcome = { company, read: false, events: 0, pending: [], charged: 0, paused: 0, resumed: 0 };
  const watches = await watchesOfCompany(ports.db, company, periodOf(now.getTime()));
  if (!watches.length) return out;
  const live = await chargeMonth(ports, watches, now, out);
  if (!live.length) {
    await skipRead(ports.db, company, day);
    return out;
  }

  const stored = await storedReading(ports.db, company);
  const got = await ports.read(company, now);
  const reading = readingOf(got.input);
  const name = got.name ?? stored?.name ?? null;
  const { events, kept } = diffReadings(parseReading(stored?.reading ?? null), reading, name ?? "");
  // Events go to the accounts whose watch was live and past its baseline before this read.
  const recipients = [...new Set(live.filter((w) => w.baseline_at !== null).map((w) => w.account_id))];
  const rows = recipients.flatMap((accountId) =>
    events.map((e) => ({ accountId, kind: e.kind, summary: e.summary, before: e.before, after: e.after, key: eventKey(company, day, e) })),
  );
  const unread = SECTIONS.flatMap((s) => {
    const x = reading[s];
    return x.ok ? [] : [{ source: s, since: x.readAt, reason: x.reason }];
  });
  out.pending = await recordRead(ports.db, {
    company,
    name,
    reading: JSON.stringify(kept),
    unread: JSON.stringify(unread),
    day,
    readAt: now.toISOString(),
    nowMs: now.getTime(),
    events: rows,
  });
  out.read = true;
  out.events = rows.length;
  return out;
}
