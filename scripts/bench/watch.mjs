// The watch list at scale (issue 15 §5), part of `npm run bench`: BENCH_WATCHES watched companies (default 5,000, see
// DEFAULT_WATCHES) read for two days through the real five-minute tick and the watch queue of wrangler's dev server
// (started through its API, see startDev), with a local stand-in for Companies House and The Gazette (127.0.0.1) that
// counts every request by kind and company, and a local webhook receiver (127.0.0.1, reached as http://localhost: the
// test host let through by SAFE_FETCH_TEST_HOSTS).
//
// The companies (numbers 50000000 + i) are built from the test fixtures of test/fixtures/hosts/ch.test: 85% active
// and quiet (01234567: profile, officers, PSCs; half of them with charges), 10% in liquidation (12300001: insolvency
// case, charges, Gazette notices, one of which states no number so its linked data is read), 5% proposed for
// strike-off (12300002: the gazette filing history is read too). The sample registers (sanctions, payment practices,
// contracts, sponsors) are loaded, so every read does its register lookups in D1 too.
//
// 1. BENCH_WATCHES_VIA_API (default 300) watches are added through POST /api/v1/watch, the rest as rows in D1 (paid
//    for this month, never read); each of the accounts sets its webhook through PUT /api/v1/watch/webhook.
// 2. Day 1: the tick is triggered (/__scheduled) until every company is read (its baseline).
// 3. Day 2: read_day is moved to yesterday (and slot to 0: the day compressed into minutes), the upstream cache is
//    aged by 24 hours (as it would be a day later), and 10% of companies change upstream (half: status active →
//    liquidation; half: a new charge). The tick runs again until every company is read and every event delivered.
// 4. Deliveries alone: every delivered event is made due again; the tick's sweep posts them (deliveries per second).
// 5. The record step alone (db/watch.ts recordRead: the D1 batch of events + reading), timed from Node on the
//    same local D1.
//
// The Companies House and Gazette request budgets (600 and 300 per 5 minutes) are D1 window counters: the bench seeds
// them so a day compressed into minutes is not refused; the figures show what a real day spends against them.
// Locally the queue delivers one batch at a time (miniflare), so wall times are of one consumer; deployed, batches run
// concurrently. Runnable alone: node scripts/bench/watch.mjs  (BENCH_WATCHES=1000 for a quick run)
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, importTs, localEnv, serveWorker, snapshotWorker, waitFor, wranglerEnv } from "../lib.mjs";
import { ingest } from "../ingest.mjs";
import { benchState } from "./state.mjs";
import { createLocalKey } from "../key.mjs";

const fixture = (p) => readFileSync(join(ROOT, "test/fixtures/hosts", p), "utf8");
const BASE_NUMBER = 50_000_000;
const numberOf = (i) => String(BASE_NUMBER + i);
const indexOf = (n) => Number(n) - BASE_NUMBER;
const nameOf = (n) => `BENCH ${n} TRADING LIMITED`;
/** 17 in 20 active and quiet, 2 in 20 in liquidation, 1 in 20 proposed for strike-off. */
const kindOf = (i) => (i % 20 < 17 ? "active" : i % 20 < 19 ? "liquidation" : "strike-off");
/** Day 2's changes (10%, all active companies): i % 20 = 1 goes into liquidation, i % 20 = 11 registers a new charge. */
const changeOf = (i) => (i % 20 === 1 ? "status" : i % 20 === 11 ? "charge" : null);
const hasCharges = (i) => kindOf(i) === "liquidation" || (kindOf(i) === "active" && (i % 2 === 0 || i % 20 === 11));
/**
 * 5,000 by default: the issue asks for 10,000, but the local queue reads one batch at a time (about 30 ms a company on
 * two cores), so 10,000 companies take about 14 minutes (two days of 5½ minutes each; measured 835 s in all). The
 * per-company figures do not depend on the size; the day's figures are extrapolated to 10,000. BENCH_WATCHES=10000
 * runs the full size.
 */
const DEFAULT_WATCHES = 5_000;
const CH_DAILY_BUDGET = (600 * 24 * 60) / 5; // 172,800
const TICK_CRON = "*/5 * * * *";
const DAY_MS = 86_400_000;
const HOST = "localhost"; // the webhook's host: a name (an IP literal is refused), let through as a test host

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (x, d = 2) => +x.toFixed(d);
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : null;
};

// ---- the stand-in for Companies House and The Gazette ---------------------------------------------------

/** Counts requests by kind and by company, per phase (watch creation, day 1, day 2, …). */
class Counter {
  constructor() {
    this.phase = "setup";
    this.phases = {};
    this.last = Date.now();
  }
  get current() {
    return (this.phases[this.phase] ??= { byKind: {}, byCompany: new Map(), started: new Set(), total: 0 });
  }
  note(kind, company) {
    const p = this.current;
    this.last = Date.now();
    p.total++;
    p.byKind[kind] = (p.byKind[kind] ?? 0) + 1;
    if (company) {
      const c = p.byCompany.get(company) ?? { ch: 0, gazette: 0, profile: 0 };
      if (kind.startsWith("ch.")) c.ch++;
      else c.gazette++;
      if (kind === "ch.profile") c.profile++;
      p.byCompany.set(company, c);
      // Every read of a company with a profile asks for its officers' first page (cached 6 h): a read has started.
      if (kind === "ch.officers") p.started.add(company);
    }
  }
}

function stubUpstreams(counter, world) {
  const profiles = {
    active: fixture("ch.test/company/01234567/index.json")
      .replaceAll("HARBOURSIDE & CO SOLICITORS LIMITED", "FORMER NAME")
      .replace("HARBOURSIDE LEGAL LIMITED", "@NAME@"),
    liquidation: fixture("ch.test/company/12300001/index.json").replace("NORTHGATE FABRICATIONS LIMITED", "@NAME@"),
    "strike-off": fixture("ch.test/company/12300002/index.json").replace("KESTREL COURIERS LTD", "@NAME@"),
  };
  const fromOf = { active: "01234567", liquidation: "12300001", "strike-off": "12300002" };
  const officers = fixture("ch.test/company/01234567/officers");
  const pscs = fixture("ch.test/company/01234567/persons-with-significant-control");
  const charges = { active: fixture("ch.test/company/01234567/charges"), liquidation: fixture("ch.test/company/12300001/charges") };
  const insolvency = fixture("ch.test/company/12300001/insolvency");
  const filings = fixture("ch.test/company/12300002/filing-history");
  const feed = JSON.parse(fixture("gazette.test/insolvency/notice/data.json/northgate-fabrications-limited-1.json"));
  const emptyFeed = JSON.stringify({ ...feed, "f:total": "0", entry: [] });
  const feedText = JSON.stringify(feed);
  const linked = fixture("gazette.test/notice/5287711/data.json");
  const newCharge = (n) => ({
    status: "outstanding",
    created_on: "2026-11-18",
    charge_code: `${n}0009`,
    delivered_on: "2026-11-19",
    charge_number: 9,
    classification: { type: "charge-description", description: "A registered charge" },
    links: { self: `/company/${n}/charges/bench${n}` },
    particulars: { contains_fixed_charge: true },
    persons_entitled: [{ name: "Bench Bank PLC" }],
  });

  const sockets = new WeakSet();
  return createServer((req, res) => {
    const u = new URL(req.url, "http://x");
    const send = (status, body) => res.writeHead(status, { "content-type": "application/json" }).end(body);
    if (!sockets.has(req.socket)) {
      sockets.add(req.socket);
      counter.current.connections = (counter.current.connections ?? 0) + 1;
    }
    const notFound = () => send(404, '{"errors":[{"error":"not-found"}]}');
    const m = /^\/company\/(\d{8})(\/[a-z-]+)?$/.exec(u.pathname);
    if (m) {
      const n = m[1];
      const i = indexOf(n);
      const kind = kindOf(i);
      const changed = world.day >= 2 ? changeOf(i) : null;
      const number = (s, from = fromOf[kind]) => s.replaceAll(from, n);
      switch (m[2] ?? "") {
        case "": {
          counter.note("ch.profile", n);
          let body = number(profiles[kind]).replace("@NAME@", nameOf(n));
          if (changed === "status") body = body.replace('"company_status": "active"', '"company_status": "liquidation"');
          return send(200, body);
        }
        case "/officers":
          counter.note("ch.officers", n);
          return send(200, number(officers, "01234567"));
        case "/persons-with-significant-control":
          counter.note("ch.pscs", n);
          return send(200, number(pscs, "01234567"));
        case "/persons-with-significant-control-statements":
          counter.note("ch.pscStatements", n);
          return notFound();
        case "/insolvency":
          counter.note("ch.insolvency", n);
          return kind === "liquidation" ? send(200, insolvency) : notFound();
        case "/charges": {
          counter.note("ch.charges", n);
          if (!hasCharges(i)) return notFound();
          const list = JSON.parse(number(charges[kind === "liquidation" ? "liquidation" : "active"], kind === "liquidation" ? "12300001" : "01234567"));
          if (changed === "charge") {
            list.items.unshift(newCharge(n));
            list.total_count = (list.total_count ?? 0) + 1;
            list.unfiltered_count = (list.unfiltered_count ?? 0) + 1;
          }
          return send(200, JSON.stringify(list));
        }
        case "/filing-history":
          counter.note("ch.filingHistory", n);
          return send(200, number(filings, "12300002"));
        default:
          counter.note("ch.other", n);
          return notFound();
      }
    }
    if (u.pathname === "/insolvency/notice/data.json") {
      const asked = (u.searchParams.get("text") ?? "").replace(/"/g, "");
      const n = /BENCH (\d{8})/.exec(asked)?.[1] ?? null;
      counter.note("gazette.search", n);
      if (!n || kindOf(indexOf(n)) !== "liquidation") return send(200, emptyFeed);
      // The fixture's notices under this company's name and number; notice ids of its own (the linked data is cached by id).
      return send(
        200,
        feedText
          .replaceAll("NORTHGATE FABRICATIONS LIMITED", asked)
          .replaceAll("12300001", n)
          .replace(/notice\/(\d{7})/g, `notice/$1${n}`),
      );
    }
    const notice = /^\/notice\/(\d{7})(\d{8})\/data\.json$/.exec(u.pathname);
    if (notice) {
      counter.note("gazette.linkedData", notice[2]);
      return notice[1] === "5287711"
        ? send(200, linked.replaceAll("12300001", notice[2]).replace("NORTHGATE FABRICATIONS LIMITED", nameOf(notice[2])))
        : notFound();
    }
    counter.note("other", null);
    notFound();
  });
}

// ---- the webhook receiver ---------------------------------------------------------------------------------

/** Receives deliveries at /hook/<account>, keeps their arrival times, checks X-Service-Signature of each. */
function webhookReceiver(secrets) {
  const got = { times: [], ids: new Map(), valid: 0, invalid: 0, last: 0, example: null };
  const keyOf = (secret) => Buffer.from(secret.slice("whsec_".length), "base64");
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const account = decodeURIComponent(req.url.split("/")[2] ?? "");
      const now = Date.now();
      got.times.push(now);
      got.last = now;
      const id = req.headers["webhook-id"];
      got.ids.set(id, (got.ids.get(id) ?? 0) + 1);
      const header = String(req.headers["x-service-signature"] ?? "");
      const parts = header.split(",").map((p) => p.split("="));
      const t = parts.find(([k]) => k === "t")?.[1];
      const v1 = parts.filter(([k]) => k === "v1").map(([, v]) => v);
      const secret = secrets.get(account);
      let ok = false;
      if (secret && t) {
        const mac = createHmac("sha256", keyOf(secret)).update(`${t}.${body}`, "utf8").digest();
        ok = v1.some((v) => /^[0-9a-f]{64}$/.test(v) && timingSafeEqual(Buffer.from(v, "hex"), mac)) && Math.abs(now / 1000 - Number(t)) <= 300;
      }
      if (ok) got.valid++;
      else got.invalid++;
      if (!got.example) got.example = { account, header, webhookId: id, body: body.slice(0, 300), valid: ok };
      res.writeHead(204).end();
    });
  });
  return { server, got };
}

// ---- wrangler dev, with its log read for the tick's figures and the queue's batches -----------------------

/**
 * wrangler dev on the copy, started through wrangler's own API (unstable_startWorker, what `wrangler dev` runs) in a
 * child process of this script (`--serve`), for two settings the command line does not offer:
 * - no inspector: `wrangler dev` always attaches its inspector proxy, which posts every inspector event (three or four
 *   per subrequest) to the wrangler process on a new connection and leaves them in CLOSE-WAIT: a day of reads
 *   reaches the 20,000 open files limit ("Too many open files") within a few hundred companies;
 * - the tick at /__scheduled (testScheduled): wrangler 4's /cdn-cgi/handler/scheduled fails in its proxy worker
 *   ("Could not serialize object of type ScheduledController").
 * Without the inspector the Worker's console output reaches the log only with workerd's --verbose (log level debug).
 */
function startDev(port, { worker, persistTo, vars = {} }) {
  const opts = JSON.stringify({ config: join(worker, "wrangler.toml"), port, persistTo, vars });
  return spawn(process.execPath, [fileURLToPath(import.meta.url), "--serve", opts], { cwd: worker, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
}

/** Runs `body(base, log)` against a wrangler dev it starts (its whole output kept in `logFile`), and stops exactly that process. */
async function withDevLog(port, opts, logFile, body) {
  const dev = startDev(port, opts);
  const file = createWriteStream(logFile);
  const log = { tail: "", last: Date.now(), ticks: [], batches: [], errors: [] };
  let partial = "";
  const onData = (d) => {
    file.write(d);
    log.last = Date.now();
    const text = partial + d;
    const lines = text.split("\n");
    partial = lines.pop();
    for (const line of lines) {
      log.tail = (log.tail + line + "\n").slice(-6000);
      const tick = /"watchTick":\{"reads":(\d+),"deliveries":(\d+)\}/.exec(line);
      if (tick) log.ticks.push({ reads: +tick[1], deliveries: +tick[2], at: Date.now() });
      // miniflare's queue broker: "QUEUE watch 10/10 (1234ms)"
      const q = /QUEUE watch (\d+)\/(\d+) \((\d+)ms\)/.exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
      if (q) log.batches.push({ acked: +q[1], size: +q[2], ms: +q[3], at: Date.now() });
      if (/watchJob|webhookDelivery|watchWake/.test(line) && log.errors.length < 20) log.errors.push(line.slice(0, 400));
    }
  };
  dev.stdout.on("data", onData);
  dev.stderr.on("data", onData);
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 120_000);
    return await body(`http://127.0.0.1:${port}`, log);
  } catch (e) {
    console.error(log.tail.slice(-3000));
    throw e;
  } finally {
    if (dev.exitCode === null) {
      const exited = new Promise((r) => dev.once("exit", r));
      dev.kill("SIGTERM");
      const late = setTimeout(() => dev.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(late);
    }
    file.end();
  }
}

/** Triggers the five-minute tick and returns what it sent (read from its log line). */
async function tick(base, log) {
  const before = log.ticks.length;
  const r = await fetch(`${base}/__scheduled?cron=${encodeURIComponent(TICK_CRON)}`);
  await r.arrayBuffer();
  const end = Date.now() + 60_000;
  while (log.ticks.length === before) {
    if (Date.now() > end) throw new Error("the tick logged nothing within 60 s");
    await sleep(20);
  }
  return log.ticks[log.ticks.length - 1];
}

/** Waits until nothing has reached the stand-in, the receiver or the log for `ms`. */
async function quiet(ms, ...sources) {
  for (;;) {
    const last = Math.max(...sources.map((s) => s.last));
    const idle = Date.now() - last;
    if (idle >= ms) return;
    await sleep(Math.min(ms - idle + 10, 250));
  }
}

/**
 * One day: ticks until the tick finds no company due and no delivery due. After a tick that sent reads, the next
 * waits until every company sent has started its read (its officers asked for) and the upstreams have been quiet for
 * a second (its reading recorded): the five minutes between real ticks, compressed.
 */
async function runDay(base, log, counter, receiver, label) {
  const t0 = Date.now();
  const ticks = [];
  let busyMs = 0;
  let zeros = 0;
  let lastReadWorkAt = t0;
  for (;;) {
    const startedBefore = counter.current.started.size;
    const at = Date.now();
    const t = await tick(base, log);
    ticks.push({ reads: t.reads, deliveries: t.deliveries });
    if (t.reads > 0) {
      zeros = 0;
      const end = Date.now() + 300_000;
      while (counter.current.started.size < startedBefore + t.reads && Date.now() < end) await sleep(25);
      if (Date.now() >= end) console.warn(`${label}: a tick's reads did not all start within 5 minutes`);
      await quiet(1000, counter);
      busyMs += counter.last - at;
      lastReadWorkAt = counter.last;
      continue;
    }
    // Nothing to read: let the queue drain (a part-filled batch waits up to max_batch_timeout, 5 s), then ask again.
    await quiet(6500, counter, receiver.got, log);
    if (t.deliveries === 0 && ++zeros >= 2) break;
  }
  return { ticks, readTicks: ticks.filter((t) => t.reads > 0).length, wallMs: Date.now() - t0, readsWallMs: lastReadWorkAt - t0, readsBusyMs: busyMs };
}

// ---- the bench ----------------------------------------------------------------------------------------------

export async function benchWatch({
  port = 8795,
  watches = Number(process.env.BENCH_WATCHES ?? DEFAULT_WATCHES),
  viaApi = Number(process.env.BENCH_WATCHES_VIA_API ?? 300),
  accounts = 4,
} = {}) {
  const started = Date.now();
  viaApi = Math.min(viaApi, watches);
  const counter = new Counter();
  const world = { day: 1 };
  const secrets = new Map();
  const upstream = stubUpstreams(counter, world);
  const receiver = webhookReceiver(secrets);
  await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
  await new Promise((r) => receiver.server.listen(0, "127.0.0.1", r));
  const stubUrl = `http://127.0.0.1:${upstream.address().port}`;
  console.error(`watch: stand-in upstream at ${stubUrl}`);
  const hookPort = receiver.server.address().port;
  // workerd may resolve localhost to ::1: the receiver listens there too when the machine has it.
  const receiver6 = createServer((req, res) => receiver.server.emit("request", req, res));
  await new Promise((r) => receiver6.once("error", () => r()).listen(hookPort, "::1", r));

  const vars = {
    COMPANIES_HOUSE_URL: stubUrl,
    GAZETTE_URL: stubUrl,
    COMPANIES_HOUSE_API_KEY: "bench",
    SAFE_FETCH_TEST_HOSTS: HOST,
    WEBHOOK_SECRETS_KEY: `bench-${randomBytes(16).toString("hex")}`,
  };
  // The Worker as it is now, served from a copy (another change to src/ during the run does not restart it).
  const worker = snapshotWorker(join(ROOT, ".bench", "watch-worker"));
  const w = await importTs(".bench/watch-worker/src/db/watch.ts");
  const out = { watches, accounts, viaApi, mix: { active: 0.85, liquidation: 0.1, strikeOffProposed: 0.05 }, changedOnDay2: 0.1 };
  const today = () => new Date().toISOString().slice(0, 10);
  const period = () => new Date().toISOString().slice(0, 7);

  try {
    // ---- state: migrations, the accounts and their keys, the sample registers, the request budgets seeded ----
    const { state, key, accountId } = await benchState("watch");
    const keys = [{ account: accountId, key }];
    for (const name of ["sanctions", "payment-practices", "contracts", "sponsors"]) {
      const file = {
        sanctions: "test/fixtures/sanctions/UK-Sanctions-List.csv",
        "payment-practices": "test/fixtures/payment-practices/export.csv",
        contracts: "test/fixtures/contracts/award-release-package.json",
        sponsors: "test/fixtures/sponsors/SP_-_Worker_and_Temporary_Worker_Web_Register_-_2026-06-26.csv",
      }[name];
      await ingest(name, join(ROOT, file), { persistTo: state, quiet: true, sample: true });
    }
    {
      const proxy = await localEnv(state);
      const db = proxy.env.DB;
      const stmts = [];
      for (let a = 1; a < accounts; a++) {
        const made = await createLocalKey(db, { plan: "enterprise", email: `watch${a}@local.invalid` });
        keys.push({ account: made.accountId, key: made.key });
      }
      // The budgets are fixed 5-minute windows in D1: the next four hours of windows start far below their limit.
      const window = Math.floor(Date.now() / 300_000) * 300;
      for (const source of ["companies-house", "gazette"])
        for (let s = window; s < window + 4 * 3600; s += 300)
          stmts.push(db.prepare(`INSERT OR REPLACE INTO upstream_budget (source, window_start, used) VALUES (?, ?, -100000000)`).bind(source, s));
      await db.batch(stmts);
      await proxy.dispose();
    }
    const accountOf = (i) => keys[i % keys.length];

    // ---- 1. watches through the API, and the webhooks ----
    counter.phase = "watchCreation";
    await withDevLog(port, { worker, persistTo: state, vars }, `${state}-dev-create.log`, async (base) => {
      const t0 = performance.now();
      const statuses = {};
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < viaApi) {
            const i = next++;
            const r = await fetch(`${base}/api/v1/watch`, {
              method: "POST",
              headers: { "x-api-key": accountOf(i).key, "content-type": "application/json" },
              body: JSON.stringify({ company: numberOf(i), label: `bench-${i}` }),
            });
            statuses[r.status] = (statuses[r.status] ?? 0) + 1;
            if (r.status !== 201 && !out.watchErrorExample) out.watchErrorExample = (await r.text()).slice(0, 300);
            else await r.arrayBuffer();
          }
        }),
      );
      const ms = performance.now() - t0;
      out.watchCreation = {
        viaApi,
        statuses,
        ms: Math.round(ms),
        perWatchMs: round(ms / Math.max(viaApi, 1)),
        companiesHouseCalls: counter.current.byKind["ch.profile"] ?? 0,
      };
      for (const { account, key: k } of keys) {
        const r = await fetch(`${base}/api/v1/watch/webhook`, {
          method: "PUT",
          headers: { "x-api-key": k, "content-type": "application/json" },
          body: JSON.stringify({ url: `http://${HOST}:${hookPort}/hook/${account}` }),
        });
        const j = await r.json();
        if (r.status !== 200 || !j.secret) throw new Error(`PUT /api/v1/watch/webhook answered ${r.status}: ${JSON.stringify(j).slice(0, 300)}`);
        secrets.set(account, j.secret);
      }
    });
    console.log("watch: created through the API:", out.watchCreation);

    // ---- the rest as rows in D1 ----
    {
      const t0 = performance.now();
      const proxy = await localEnv(state);
      const db = proxy.env.DB;
      const now = new Date().toISOString();
      // Multi-row inserts of literal values (numbers and labels we make: nothing to escape), 500 rows a statement.
      for (let from = viaApi; from < watches; from += 500) {
        const rows = Array.from({ length: Math.min(500, watches - from) }, (_, k) => from + k);
        await db.batch([
          db.prepare(`INSERT INTO watch_companies (company, slot) VALUES ${rows.map((i) => `('${numberOf(i)}', ${w.slotOf(numberOf(i))})`).join(", ")}`),
          db.prepare(
            `INSERT INTO watches (account_id, company, label, state, added_at, paid_period) VALUES ${rows.map((i) => `('${accountOf(i).account}', '${numberOf(i)}', 'bench-${i}', 'watched', '${now}', '${period()}')`).join(", ")}`,
          ),
        ]);
      }
      const n = await db.prepare(`SELECT (SELECT COUNT(*) FROM watches) AS watches, (SELECT COUNT(*) FROM watch_companies) AS companies`).first();
      await proxy.dispose();
      out.inserted = { rows: watches - viaApi, ms: Math.round(performance.now() - t0), ...n };
    }

    // ---- 2 and 3: day 1 (baselines), then day 2 (10% changed) ----
    const days = {};
    for (const day of [1, 2]) {
      if (day === 2) {
        const proxy = await localEnv(state);
        const db = proxy.env.DB;
        const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
        await db.batch([
          // Every company read yesterday and due now (slot 0: the day compressed into minutes).
          db.prepare(`UPDATE watch_companies SET read_day = ?, slot = 0`).bind(yesterday),
          // The upstream cache a day older, as at the next daily read.
          db.prepare(`UPDATE http_cache SET fetched_at = fetched_at - ?1, expires_at = expires_at - ?1`).bind(DAY_MS),
        ]);
        await proxy.dispose();
        world.day = 2;
      }
      counter.phase = `day${day}`;
      const receivedBefore = receiver.got.times.length;
      days[day] = await withDevLog(port, { worker, persistTo: state, vars }, `${state}-dev-day${day}.log`, async (base, log) => {
        const r = await runDay(base, log, counter, receiver, `day ${day}`);
        const batches = log.batches;
        return {
          ...r,
          queueBatches: batches.length,
          queueMessages: batches.reduce((a, b) => a + b.size, 0),
          consumerMs: batches.reduce((a, b) => a + b.ms, 0),
          errors: log.errors,
        };
      });
      days[day].deliveryTimes = receiver.got.times.slice(receivedBefore);
      console.log(`watch: day ${day} read in ${days[day].readsWallMs} ms (${days[day].readTicks} ticks)`);
    }

    // ---- what the days wrote ----
    const proxy = await localEnv(state);
    const db = proxy.env.DB;
    const read = await db.prepare(`SELECT COUNT(*) AS n FROM watch_companies WHERE read_day = ?`).bind(today()).first();
    const events = (await db.prepare(`SELECT kind, COUNT(*) AS n FROM watch_events GROUP BY kind ORDER BY kind`).all()).results;
    const deliveries = (await db.prepare(`SELECT delivery, COUNT(*) AS n FROM watch_events GROUP BY delivery`).all()).results;
    const notRead = {};
    for (let after = ""; ; ) {
      const rows = (await db.prepare(`SELECT company, unread FROM watch_companies WHERE company > ? ORDER BY company LIMIT 2000`).bind(after).all()).results;
      if (!rows.length) break;
      after = rows[rows.length - 1].company;
      // The sources not read at the last read (watch_companies.unread: [{ source, since, reason }]).
      for (const r of rows) for (const u of JSON.parse(r.unread ?? "[]")) notRead[u.source] = (notRead[u.source] ?? 0) + 1;
    }

    // ---- 4. deliveries alone: every delivered event due again, posted by the tick's sweep ----
    const delivered = await db.prepare(`SELECT COUNT(*) AS n FROM watch_events WHERE delivery = 'delivered'`).first();
    await db
      .prepare(
        `UPDATE watch_events SET delivery = 'pending', delivered = 0, attempts = 0, next_attempt_at = ?, first_attempt_at = NULL, claimed_until = NULL WHERE delivery = 'delivered'`,
      )
      .bind(Date.now())
      .run();
    await proxy.dispose();
    counter.phase = "redelivery";
    const receivedBefore = receiver.got.times.length;
    const sweep = await withDevLog(port, { worker, persistTo: state, vars }, `${state}-dev-sweep.log`, async (base, log) => {
      const t0 = Date.now();
      const ticks = [];
      for (let zeros = 0; zeros < 2; ) {
        const t = await tick(base, log);
        ticks.push(t.deliveries);
        await quiet(6500, receiver.got, log);
        zeros = t.deliveries === 0 ? zeros + 1 : 0;
      }
      return { ticks, wallMs: Date.now() - t0 };
    });
    const sweepTimes = receiver.got.times.slice(receivedBefore);

    // ---- 5. the record step alone: recordRead (one D1 batch) from Node on the same local D1 ----
    const proxy2 = await localEnv(state);
    const db2 = proxy2.env.DB;
    const record = { unchanged: [], oneEvent: [] };
    const rpc = [];
    const sample = Math.min(200, watches);
    for (let j = 0; j < sample; j++) {
      const i = Math.floor((j * watches) / sample);
      const n = numberOf(i);
      const row = await db2.prepare(`SELECT name, reading, unread FROM watch_companies WHERE company = ?`).bind(n).first();
      let t = performance.now();
      await db2.prepare(`SELECT 1`).first();
      rpc.push(performance.now() - t);
      const nowMs = Date.now();
      const base = { company: n, name: row.name, reading: row.reading, unread: row.unread ?? "[]", day: today(), readAt: new Date(nowMs).toISOString(), nowMs };
      t = performance.now();
      await w.recordRead(db2, { ...base, events: [] });
      record.unchanged.push(performance.now() - t);
      t = performance.now();
      await w.recordRead(db2, {
        ...base,
        events: [
          {
            accountId: accountOf(i).account,
            kind: "bench_probe",
            summary: `${row.name} changed (bench).`,
            before: { status: "active" },
            after: { status: "liquidation" },
            key: `${n}:bench-probe:${j}`,
          },
        ],
      });
      record.oneEvent.push(performance.now() - t);
    }
    await db2.prepare(`DELETE FROM watch_events WHERE kind = 'bench_probe'`).run();
    await proxy2.dispose();

    // ---- figures ----
    const perCompany = (phase) => {
      const p = counter.phases[phase];
      const by = { active: [], liquidation: [], "strike-off": [] };
      for (const [n, c] of p.byCompany) by[kindOf(indexOf(n))].push(c);
      const mean = (xs, f) => (xs.length ? round(xs.reduce((a, x) => a + f(x), 0) / xs.length) : null);
      const all = [...p.byCompany.values()];
      return {
        companiesRead: p.byCompany.size,
        requestsByKind: p.byKind,
        companiesHouse: mean(all, (c) => c.ch),
        gazette: mean(all, (c) => c.gazette),
        total: mean(all, (c) => c.ch + c.gazette),
        companiesHouseMax: Math.max(...all.map((c) => c.ch)),
        byCompanyKind: Object.fromEntries(
          Object.entries(by).map(([k, xs]) => [k, { companies: xs.length, companiesHouse: mean(xs, (c) => c.ch), gazette: mean(xs, (c) => c.gazette) }]),
        ),
        companiesReadTwice: all.filter((c) => c.profile > 1).length,
        connections: p.connections ?? 0,
      };
    };
    const day1 = perCompany("day1");
    const day2 = perCompany("day2");
    const chPerCompany = day2.companiesHouse;
    const dayTotal = Math.round(chPerCompany * 10_000);
    const fit = Math.floor(CH_DAILY_BUDGET / chPerCompany);
    const rate = (times) => {
      if (times.length < 2) return { deliveries: times.length, perSecond: null };
      const span = (Math.max(...times) - Math.min(...times)) / 1000;
      const bySecond = new Map();
      for (const t of times) bySecond.set(Math.floor(t / 1000), (bySecond.get(Math.floor(t / 1000)) ?? 0) + 1);
      return {
        deliveries: times.length,
        spanSeconds: round(span, 1),
        perSecond: round(times.length / Math.max(span, 0.001), 1),
        peakSecond: Math.max(...bySecond.values()),
      };
    };
    const changedCompanies = Array.from({ length: watches }, (_, i) => changeOf(i)).filter(Boolean).length;
    const d2 = days[2];
    const dayFigures = (d) => ({
      ticks: d.readTicks,
      readsWallSeconds: round(d.readsWallMs / 1000, 1),
      readsBusySeconds: round(d.readsBusyMs / 1000, 1),
      queueConsumerSeconds: round(d.consumerMs / 1000, 1),
      queueBatches: d.queueBatches,
      queueMessages: d.queueMessages,
      ...(d.errors.length ? { errors: d.errors } : {}),
    });

    // The tick's ceiling, as the source says it (src/jobs/watch/tick.ts).
    const tickMax = Number(/MAX_READS_PER_TICK = ([\d_]+)/.exec(readFileSync(join(ROOT, "src/jobs/watch/tick.ts"), "utf8"))[1].replaceAll("_", ""));
    return {
      ...out,
      ...(watches < 10_000
        ? {
            size: `${watches.toLocaleString("en-GB")} companies, not 10,000: the default is ${DEFAULT_WATCHES.toLocaleString("en-GB")} so the bench finishes within about ten minutes on two cores (10,000 took 835 s); the day's totals are extrapolated to 10,000 (…For10000…). BENCH_WATCHES=10000 for the full size.`,
          }
        : {}),
      note:
        `${watches.toLocaleString("en-GB")} watched companies over ${accounts} enterprise accounts (${viaApi} added through POST /api/v1/watch, the rest as D1 rows), ` +
        "read through the real five-minute tick and watch queue of wrangler dev (local: one queue batch at a time) against a local Companies House and Gazette built from test/fixtures/hosts " +
        "(85% active and quiet, 10% in liquidation, 5% proposed for strike-off), with the sample registers loaded. Day 1 is every company's baseline; for day 2 read_day was moved to yesterday (slot 0, the day compressed), " +
        `the upstream cache aged 24 h, and ${changedCompanies} companies (10%) changed upstream (half went into liquidation, half registered a new charge). ` +
        "The request budgets (D1 window counters) were seeded so the compressed day is not refused. Calls per company are of day 2 (the steady state: yesterday's cache expired).",
      upstreamCallsPerCompany: {
        perDailyRead: {
          note: "profile, charges and insolvency are cached 12 h (officers and PSCs 6 h), less than the day between reads: every daily read refetches them (the bench ages the cache by 24 h, as a day would)",
          companiesHouse: day2.companiesHouse,
          gazette: day2.gazette,
          total: day2.total,
          byCompanyKind: day2.byCompanyKind,
          requestsByKind: day2.requestsByKind,
          companiesRead: day2.companiesRead,
          companiesReadTwice: day2.companiesReadTwice,
          connectionsOpened: day2.connections,
        },
        firstRead: {
          companiesHouse: day1.companiesHouse,
          gazette: day1.gazette,
          total: day1.total,
          byCompanyKind: day1.byCompanyKind,
          requestsByKind: day1.requestsByKind,
          companiesRead: day1.companiesRead,
          companiesReadTwice: day1.companiesReadTwice,
          note: `the ${viaApi} watches added through the API had their profile cached by POST /api/v1/watch`,
        },
        addingAWatch: {
          companiesHouse: round((out.watchCreation.companiesHouseCalls ?? 0) / Math.max(viaApi, 1)),
          note: "POST /api/v1/watch reads the profile (cached 12 h, so a first read within that reuses it)",
        },
      },
      companiesHouseBudget: {
        dailyBudget: CH_DAILY_BUDGET,
        callsFor10000Companies: dayTotal,
        shareOfBudget: round(dayTotal / CH_DAILY_BUDGET, 3),
        note: `the budget is shared with every other Companies House call of the service (600 per 5 minutes per key); the tick reads at most ${tickMax} companies per 5 minutes (${(tickMax * 288).toLocaleString("en-GB")} a day)`,
      },
      largestWatchList: {
        companiesTheDailyBudgetReads: fit,
        atHalfTheBudget: Math.floor(CH_DAILY_BUDGET / 2 / chPerCompany),
        tickCeilingPerDay: tickMax * 288,
        planLimits: await (async () => {
          const { PLANS } = await importTs(".bench/watch-worker/src/shared/plans.ts");
          const { WATCH_MONTHLY_CREDITS } = await importTs(".bench/watch-worker/src/services/watch/feed.ts");
          return Object.fromEntries(
            Object.entries(PLANS).map(([id, p]) => [
              id,
              {
                maxWatches: p.maxWatches,
                monthlyCredits: p.monthlyCredits,
                watchesTheCreditsPay: Math.floor(p.monthlyCredits / WATCH_MONTHLY_CREDITS),
                companiesHouseCallsADay: Math.round(p.maxWatches * chPerCompany),
                shareOfBudget: round((p.maxWatches * chPerCompany) / CH_DAILY_BUDGET, 3),
              },
            ]),
          );
        })(),
        note: "one read per company per day however many accounts watch it; a watch costs 2 credits a month",
      },
      timeToRecord: {
        day2: {
          companies: watches,
          changedCompanies,
          ...dayFigures(d2),
          perCompanyMs: round(d2.readsBusyMs / watches),
          consumerPerCompanyMs: round(d2.consumerMs / watches),
          extrapolatedTo10000Seconds: round(((d2.readsBusyMs / watches) * 10_000) / 1000, 1),
          note: "end to end through the queue: from each tick to the last of its companies read and recorded (read + diff + one D1 batch), one queue batch at a time; perCompanyMs = busy time / companies",
        },
        day1: { companies: watches, ...dayFigures(days[1]), perCompanyMs: round(days[1].readsBusyMs / watches) },
        recordStepAlone: {
          sample,
          unchangedP50Ms: round(pct(record.unchanged, 50)),
          unchangedP99Ms: round(pct(record.unchanged, 99)),
          oneEventP50Ms: round(pct(record.oneEvent, 50)),
          oneEventP99Ms: round(pct(record.oneEvent, 99)),
          nodeToD1RoundTripP50Ms: round(pct(rpc, 50)),
          recordStepFor10000Seconds: round((((pct(record.unchanged, 50) * 9 + pct(record.oneEvent, 50)) / 10) * 10_000) / 1000, 1),
          recordStepFor10000SecondsNetOfRoundTrip: round((((pct(record.unchanged, 50) * 9 + pct(record.oneEvent, 50)) / 10 - pct(rpc, 50)) * 10_000) / 1000, 1),
          note: "db/watch.ts recordRead (events + reading + watches' last read, one D1 batch) called from Node on the same local D1; includes one Node→workerd round trip each (nodeToD1RoundTripP50Ms)",
        },
        companiesReadToday: read.n,
        sourcesNotRead: notRead,
        events,
        deliveries,
      },
      webhookDeliveries: {
        duringDay2: {
          ...rate(d2.deliveryTimes),
          note: "posted as the reads recorded them, so spread over the whole day's reads: bounded by how fast changes are found, not by delivery",
        },
        sweepAlone: {
          ...rate(sweepTimes),
          eventsMadeDueAgain: delivered.n,
          tickDeliveries: sweep.ticks,
          note: "every delivered event made due again and posted by the tick's sweep (at most 1,000 a tick, 25 per message)",
        },
        signatures: {
          valid: receiver.got.valid,
          invalid: receiver.got.invalid,
          duplicatesByWebhookId: [...receiver.got.ids.values()].filter((x) => x > 2).length,
          example: receiver.got.example,
        },
      },
      seconds: Math.round((Date.now() - started) / 1000),
    };
  } finally {
    upstream.close();
    receiver.server.close();
    receiver6.close();
  }
}

if (process.argv[1]?.endsWith("watch.mjs") && process.argv[2] === "--serve") {
  await serveWorker(JSON.parse(process.argv[3]), { testScheduled: true, watch: undefined, logLevel: "debug" });
} else if (process.argv[1]?.endsWith("watch.mjs")) {
  console.log(JSON.stringify(await benchWatch(), null, 2));
  process.exit(0);
}
