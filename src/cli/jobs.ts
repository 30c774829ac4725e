/**
 * `npm run job -- <name>` (issue 31): one background job run now, inside the local Workers runtime, against the local
 * state `npm start` serves. scripts/job.mjs starts a Worker whose entry (scripts/job-worker.ts) hands each request to
 * `runJob` with the watch list's ports; the job's code is the production code (src/jobs), and what the Cron Trigger
 * would send to a queue is handled in this same run, so the command ends when the job has. Nothing here decides what
 * a job does: it calls the jobs and says what they did, as events the script prints (JobEvent), naming the
 * configuration variable of any upstream that could not be read.
 */
import { dueCompanies } from "../db/watch";
import { refreshBankRate } from "../jobs/bankRate";
import { handleIngestJob } from "../jobs/ingest/job";
import type { IngestJob } from "../jobs/ingest/message";
import type { IngestPorts, JobPorts } from "../jobs/ports";
import { DAILY, type DailyJobName, startRegisterReads } from "../jobs/schedule";
import { refreshTenders } from "../jobs/tenders";
import { deliverEvent } from "../jobs/watch/deliver";
import { readWatchedCompany } from "../jobs/watch/read";
import { watchTick } from "../jobs/watch/tick";
import { normaliseCompanyNumber } from "../services/matching/companyNumber";
import { REGISTER_SOURCES, type RegisterSource } from "../services/registers/types";
import type { CompanyRead, PostOutcome, WatchJob, WatchPorts } from "../services/watch/feed";
import { SECTIONS, readingOf } from "../services/watch/reading";
import {
  BANK_RATE_UPSTREAMS,
  JOB_NAMES,
  type JobName,
  REGISTER_UPSTREAMS,
  TENDERS_UPSTREAMS,
  type UpstreamVar,
  WATCH_SECTION_UPSTREAMS,
  WEBHOOK_UPSTREAMS,
} from "./jobList";

/** A configuration variable as this run has it: a URL's value, or only whether a key is set. */
export interface UpstreamSetting {
  name: string;
  value: string | null;
  secret: boolean;
}

/** What a run says, one event at a time (the script prints each as it comes). */
export type JobEvent =
  | { kind: "info"; text: string }
  | { kind: "ok"; what: string; text: string }
  /** Done, but a part of it could not be read (a watch reading's section: the last good one stays) or delivered (retried later). */
  | { kind: "warn"; what: string; text: string; upstreams: UpstreamSetting[] }
  | { kind: "fail"; what: string; text: string; upstreams: UpstreamSetting[] }
  | { kind: "done"; ok: boolean; failed: number; warned: number };

export interface JobRequest {
  job: string;
  args?: string[];
}

/** At most this many companies in one `watch-now` run (the tick reads at most 60 per five minutes). */
const MAX_WATCH_NOW = 10_000;
/** Queue messages handled in one run at most (a register's further chunks): a loop that never ends is a bug. */
const MAX_MESSAGES = 10_000;

const messageOf = (e: unknown) => String((e as Error)?.message ?? e);

/**
 * Runs one job with the jobs' ports (src/platform/jobPorts.ts), saying what it does through `emit`; ends with a `done`
 * event. `config` is the configuration the ports were built from: a variable an upstream failure names is shown with its
 * value (a key only as set or not).
 */
export async function runJob(ports: JobPorts, config: object, req: JobRequest, emit: (e: JobEvent) => void): Promise<void> {
  let failed = 0;
  let warned = 0;
  const settings = (vars: readonly UpstreamVar[]): UpstreamSetting[] =>
    vars.map((v) => {
      const value = (config as Record<string, unknown>)[v.name];
      const text = typeof value === "string" && value !== "" ? value : null;
      return { name: v.name, secret: !!v.secret, value: v.secret ? (text ? "(set)" : null) : text };
    });
  const say: Say = {
    info: (text) => emit({ kind: "info", text }),
    ok: (what, text) => emit({ kind: "ok", what, text }),
    warn: (what, text, vars) => {
      warned++;
      emit({ kind: "warn", what, text, upstreams: settings(vars) });
    },
    fail: (what, text, vars = []) => {
      failed++;
      emit({ kind: "fail", what, text, upstreams: settings(vars) });
    },
  };
  const args = req.args ?? [];
  const now = new Date();
  try {
    switch (req.job as JobName) {
      case "watch":
        await watchJob(ports.watch, null, say);
        break;
      case "watch-now":
        await watchJob(ports.watch, args, say);
        break;
      case "registers":
        await registersJob(ports.ingest, args, say);
        break;
      case "bank-rate":
        await DAILY_RUNS["bank-rate"](ports, now, say);
        break;
      case "tenders":
        await DAILY_RUNS.tenders(ports, now, say);
        break;
      case "daily":
        // What the daily cron runs (src/jobs/schedule.ts DAILY), in its order, each handled to its end here.
        for (const job of DAILY) await DAILY_RUNS[job.name](ports, now, say);
        break;
      default:
        say.fail(req.job, `no such job; jobs: ${JOB_NAMES.join(", ")}`);
    }
  } catch (e) {
    // The database or the ledger failed (what the queue would retry): said as it is, with its stack for a bug.
    say.fail(req.job, `stopped: ${messageOf(e)}${(e as Error)?.stack ? `\n${(e as Error).stack}` : ""}`);
  }
  emit({ kind: "done", ok: failed === 0, failed, warned });
}

interface Say {
  info(text: string): void;
  ok(what: string, text: string): void;
  warn(what: string, text: string, vars: readonly UpstreamVar[]): void;
  fail(what: string, text: string, vars?: readonly UpstreamVar[]): void;
}

/** The daily jobs as this command runs them: each to its end (what the cron sends to the ingest queue is handled here). */
const DAILY_RUNS: Record<DailyJobName, (ports: JobPorts, now: Date, say: Say) => Promise<void>> = {
  registers: (ports, _now, say) => registersJob(ports.ingest, [], say),
  "bank-rate": bankRateJob,
  tenders: tendersJob,
};

// ---- registers ---------------------------------------------------------------------------------------------------

async function registersJob(base: IngestPorts, names: string[], say: Say): Promise<void> {
  const unknown = names.filter((n) => !(REGISTER_SOURCES as readonly string[]).includes(n));
  if (unknown.length) {
    say.fail("registers", `no such register: ${unknown.join(", ")}; registers: ${REGISTER_SOURCES.join(", ")}`);
    return;
  }
  const sources = (names.length ? names : REGISTER_SOURCES) as RegisterSource[];
  for (const source of sources) {
    say.info(`registers/${source}: reading the current edition…`);
    // The ingest queue of this run: a file bigger than one message goes on in further messages, handled here in turn.
    const queue: IngestJob[] = [];
    const local: IngestPorts = { ...base, enqueue: async (jobs) => void queue.push(...jobs) };
    await startRegisterReads(local, [source]);
    let results = 0;
    try {
      for (let n = 0; queue.length && n < MAX_MESSAGES; n++) {
        const job = queue.shift() as IngestJob;
        for (const r of await handleIngestJob(local, job)) {
          results++;
          const what = `registers/${r.source}${r.scope ? `/${r.scope}` : ""}`;
          const kinds = Object.entries(r.byKind ?? {})
            .map(([k, v]) => `${k} ${v}`)
            .join(", ");
          if (r.outcome === "loaded" || r.outcome === "unchanged")
            say.ok(what, `${r.outcome}, edition ${r.editionDate ?? "(undated)"}, ${r.rowsRead} rows, ${r.changes} changes${kinds ? ` (${kinds})` : ""}`);
          else
            say.fail(
              what,
              `${r.outcome}: ${r.reason ?? "no reason recorded"} (run ${r.runId} in the run log; the published edition stays)`,
              r.outcome === "failed" ? (REGISTER_UPSTREAMS[source] ?? []) : [],
            );
        }
      }
    } catch (e) {
      say.fail(`registers/${source}`, `stopped: ${messageOf(e)}`, REGISTER_UPSTREAMS[source] ?? []);
      continue;
    }
    if (!results) say.ok(`registers/${source}`, "nothing new to load (the current edition is the one published, or a run of it is in progress)");
  }
}

// ---- Bank Rate, tenders ------------------------------------------------------------------------------------------

async function bankRateJob(ports: JobPorts, now: Date, say: Say): Promise<void> {
  say.info("bank-rate: reading the Bank Rate series…");
  try {
    const r = await refreshBankRate(ports.bankRate, now);
    say.ok("bank-rate", `${r.changes} rate changes stored, known through ${r.knownThrough}`);
  } catch (e) {
    say.fail("bank-rate", `not read: ${messageOf(e)} (late-payment keeps the rates it holds)`, BANK_RATE_UPSTREAMS);
  }
}

async function tendersJob(ports: JobPorts, now: Date, say: Say): Promise<void> {
  say.info("tenders: reading the tender notices since the last complete read…");
  try {
    const r = await refreshTenders(ports.tenders, now);
    if (r.outcome === "loaded")
      say.ok(
        "tenders",
        `${r.days} days read, ${r.releases} releases, ${r.written} notices written, ${r.closed} closed; read through ${r.readThrough ?? "(nothing yet)"}`,
      );
    else say.fail("tenders", `${r.outcome}: ${r.reason ?? "no reason recorded"} (tender-match keeps the notices it holds)`, TENDERS_UPSTREAMS);
  } catch (e) {
    say.fail("tenders", `not read: ${messageOf(e)} (tender-match keeps the notices it holds)`, TENDERS_UPSTREAMS);
  }
}

// ---- the watch list ----------------------------------------------------------------------------------------------

/**
 * `companies` null: the tick (the companies due, the deliveries due). Else `watch-now`: those companies, or every
 * watched company when none is named. The reads and deliveries are the queue consumer's (src/jobs/watch), in turn.
 */
async function watchJob(base: WatchPorts, companies: string[] | null, say: Say): Promise<void> {
  const reads = new Map<string, CompanyRead>();
  const posts: { url: string; outcome: PostOutcome }[] = [];
  const sent: { job: WatchJob; delaySeconds: number }[] = [];
  const ports: WatchPorts = {
    ...base,
    read: async (company, now) => {
      const got = await base.read(company, now);
      reads.set(company, got);
      return got;
    },
    post: async (url, body, headers) => {
      const outcome = await base.post(url, body, headers);
      posts.push({ url, outcome });
      return outcome;
    },
    // What would go to the watch queue: handled below in this run when due now, left for a later tick otherwise.
    send: async (jobs, delaySeconds = 0) => {
      for (const job of jobs) sent.push({ job, delaySeconds });
    },
  };

  let due: string[];
  const deliveries: number[] = [];
  if (companies === null) {
    const tick = await watchTick(ports);
    say.info(`watch: the tick found ${tick.reads} companies due for their daily read and ${tick.deliveries} webhook deliveries due`);
    due = [];
    for (const s of sent.splice(0)) {
      if (s.job.kind === "read") due.push(...s.job.companies);
      else deliveries.push(...s.job.ids);
    }
  } else if (companies.length) {
    due = [];
    for (const c of companies) {
      const n = normaliseCompanyNumber(c);
      if (n) due.push(n);
      else say.fail(`watch/${c}`, "not a company number");
    }
  } else {
    // Every watched company is due at the last minute of tomorrow (db/watch.ts dueCompanies: read today or not).
    const t = new Date(base.now());
    const day = (d: number) => new Date(t.getTime() + d * 86_400_000).toISOString().slice(0, 10);
    due = await dueCompanies(base.db, day(1), day(0), 24 * 60, MAX_WATCH_NOW);
    say.info(`watch-now: ${due.length} watched ${due.length === 1 ? "company" : "companies"} to read now`);
  }

  for (const company of due) {
    const r = await readWatchedCompany(ports, company);
    const got = reads.get(company);
    const what = `watch/${company}${got?.name ? ` ${got.name}` : ""}`;
    if (!r.read) {
      say.ok(what, r.paused ? `not read: its watches are paused (${r.paused} paused now for want of credits)` : "not read: no watch of it is live");
      continue;
    }
    const money = [
      r.charged ? `${r.charged} credits charged for the month` : "",
      r.resumed ? `${r.resumed} watches resumed` : "",
      r.paused ? `${r.paused} paused` : "",
    ]
      .filter(Boolean)
      .join(", ");
    say.ok(
      what,
      `read; ${r.events} ${r.events === 1 ? "event" : "events"} recorded${r.pending.length ? `, ${r.pending.length} to deliver to webhooks` : ""}${money ? `; ${money}` : ""} (GET /api/v1/watch/events)`,
    );
    if (got) {
      const reading = readingOf(got.input);
      for (const s of SECTIONS) {
        const x = reading[s];
        if (!x.ok) say.warn(`${what} ${s}`, `not read, the last good reading is kept: ${x.reason}`, WATCH_SECTION_UPSTREAMS[s] ?? []);
      }
    }
    deliveries.push(...r.pending);
  }
  // What the reads sent (their deliveries' wake-up messages) is already in `deliveries`.
  sent.splice(0);

  for (const id of [...new Set(deliveries)]) {
    const before = posts.length;
    const result = await deliverEvent(ports, id);
    const post = posts[before];
    const to = post ? ` to ${post.url}` : "";
    const answer = post ? (post.outcome.error ? `${post.outcome.error}: ${post.outcome.reason}` : `answered ${post.outcome.status}`) : "";
    if (result === "delivered") say.ok(`watch/event ${id}`, `delivered${to} (${answer})`);
    else if (result === "skipped") say.info(`watch/event ${id}: not due, already delivered, or an attempt is in flight`);
    else if (result === "retry") {
      const later = sent.find((s) => s.job.kind === "deliver" && s.job.ids.includes(id));
      say.warn(
        `watch/event ${id}`,
        `not delivered${to} (${answer || "not sent"}); retried${later ? ` in ${later.delaySeconds} s, by the first watch tick after then (npm run job -- watch)` : " by a later watch tick"}`,
        // The receiver's host is resolved through the DNS resolver first: named when that is what failed.
        post?.outcome.error === "network" && /\b(DNS|resolver)\b/i.test(post.outcome.reason) ? WEBHOOK_UPSTREAMS : [],
      );
    } else say.fail(`watch/event ${id}`, `${result}${to}${answer ? ` (${answer})` : ""}`);
  }
  if (!due.length && !deliveries.length) say.ok("watch", "nothing to do now");
}
