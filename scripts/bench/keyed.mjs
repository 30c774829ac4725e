// Keyed against bare (issue 30 §3), part of `npm run bench` (section 1): the bare route `/` and the keyed, charged
// late-payment call at 50 connections, in rounds side by side (bare then keyed in each round), p50 and p99 of each,
// the keyed/bare ratio per round and the spread of the ratios (min–max) over the rounds.
//
// Runnable alone against a copy of the Worker with its own state (migrations and an enterprise key, in memory when
// /dev/shm exists):
//   node scripts/bench/keyed.mjs                 three rounds of BENCH_SECONDS (default 10) at 50 connections
//   node scripts/bench/keyed.mjs --stress        issue 30 §7: bare and keyed at 50, 100 and 200 (STRESS_CONNECTIONS) connections for
//                                                STRESS_SECONDS (default 40) each, STRESS_RUNS times (default 2),
//                                                watching the server for an exit (code, signal, last output)
// Both take --serve-api to serve through wrangler's API (unstable_startWorker, no inspector) instead of `wrangler dev`.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { ROOT, serveWorker, snapshotWorker, waitFor, wranglerEnv } from "../lib.mjs";
import { freshBenchState } from "./state.mjs";

export const KEYED_PATH = "/api/v1/late-payment?amount=2400&due=2026-01-15&paid=2026-02-05";

function load(url, { headers = {}, connections = 50, seconds = 10 } = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers }, (err, r) => (err ? reject(err) : resolve(r)));
  });
}
const fig = (r) => ({ p50: r.latency.p50, p99: r.latency.p99, rps: Math.round(r.requests.average), non2xx: r.non2xx, errors: r.errors });
const ratio = (a, b) => +(a / Math.max(b, 0.001)).toFixed(2);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => ({ min: Math.min(...xs), max: Math.max(...xs) });

/**
 * Rounds of the bare route then the keyed call against a server at `base` (key: an enterprise key, whose burst ceiling
 * the load does not reach). Each round: p50, p99, requests/s of each, the ratios keyed/bare; then the spread of the
 * ratios over the rounds and their medians.
 */
export async function keyedRounds(base, key, { rounds = 3, seconds = 10, connections = 50 } = {}) {
  await load(`${base}/`, { seconds: Math.min(seconds, 3), connections }); // warm-up
  await load(`${base}${KEYED_PATH}`, { headers: { "x-api-key": key }, seconds: Math.min(seconds, 3), connections });
  const out = [];
  for (let i = 0; i < rounds; i++) {
    const bare = fig(await load(`${base}/`, { seconds, connections }));
    const keyed = fig(await load(`${base}${KEYED_PATH}`, { headers: { "x-api-key": key }, seconds, connections }));
    out.push({ bare, keyed, p50Ratio: ratio(keyed.p50, bare.p50), p99Ratio: ratio(keyed.p99, bare.p99) });
  }
  const p50s = out.map((r) => r.p50Ratio);
  const p99s = out.map((r) => r.p99Ratio);
  return {
    connections,
    seconds,
    goal: "keyed p50 / bare p50 ≤ 1.2",
    p50Ratio: { median: median(p50s), ...spread(p50s) },
    p99Ratio: { median: median(p99s), ...spread(p99s) },
    median: {
      bareP50: median(out.map((r) => r.bare.p50)),
      keyedP50: median(out.map((r) => r.keyed.p50)),
      bareP99: median(out.map((r) => r.bare.p99)),
      keyedP99: median(out.map((r) => r.keyed.p99)),
      bareRps: median(out.map((r) => r.bare.rps)),
      keyedRps: median(out.map((r) => r.keyed.rps)),
    },
    rounds: out,
  };
}

/** `wrangler dev` (or, with `api`, wrangler's API in a child of this script) on the copy in `worker`. */
function startServer(port, { worker, persistTo, api }) {
  if (api) {
    const opts = JSON.stringify({ config: join(worker, "wrangler.toml"), port, persistTo, vars: {} });
    return spawn(process.execPath, [fileURLToPath(import.meta.url), "--serve", opts], { cwd: worker, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
  }
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--config",
    join(worker, "wrangler.toml"),
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    persistTo,
  ];
  return spawn(process.execPath, args, { cwd: worker, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Runs `body(base, server)` against the server; `server.exited` is set (code, signal, the last of its output) if it
 * exits before `body` is done. Stops exactly that process afterwards.
 */
async function withServer(port, opts, body) {
  const child = startServer(port, opts);
  const server = { exited: null, tail: "", log: join(ROOT, ".bench", `keyed-server-${port}.log`) };
  const file = createWriteStream(server.log);
  const keep = (d) => {
    file.write(d);
    server.tail = (server.tail + d).slice(-6000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.once("exit", (code, signal) => (server.exited = { code, signal, at: new Date().toISOString(), tail: server.tail.slice(-3000) }));
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 180_000);
    return await body(`http://127.0.0.1:${port}`, server);
  } finally {
    if (!server.exited) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    file.end();
  }
}

/** The copy of the Worker and its state (in memory when the machine has /dev/shm). */
async function prepare(name) {
  // KEYED_WORKER: a copy made earlier (e.g. one changed by hand to time a part of the call) instead of a fresh one.
  const worker = process.env.KEYED_WORKER || snapshotWorker(join(ROOT, ".bench", `${name}-worker`));
  const state = existsSync("/dev/shm") ? join("/dev/shm", `ukbi-${name}-${process.pid}`) : join(ROOT, ".bench", `${name}-state`);
  const key = await freshBenchState(state);
  return { worker, state, key };
}

/** The bench's section 1 run alone: rounds of bare and keyed against a copy of the Worker. */
export async function benchKeyed({ rounds = 3, seconds = 10, port = 8797, api = false } = {}) {
  const { worker, state, key } = await prepare("keyed");
  try {
    return await withServer(port, { worker, persistTo: state, api }, async (base, server) => {
      const r = await keyedRounds(base, key, { rounds, seconds });
      return {
        server: api ? "wrangler API (unstable_startWorker, no inspector)" : "wrangler dev",
        ...r,
        ...(server.exited ? { serverExited: server.exited } : {}),
      };
    });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

/**
 * Issue 30 §7: bare and keyed at 50, 100 and 200 connections, `seconds` each, `runs` times, against one server; stops
 * at the first exit of the server and reports it (code, signal, its last output), with the open files of the server's
 * processes after each load.
 */
export async function stressKeyed({ runs = 2, seconds = 40, port = 8796, api = false, levels = [50, 100, 200] } = {}) {
  const { worker, state, key } = await prepare("stress");
  const steps = [];
  try {
    return await withServer(port, { worker, persistTo: state, api }, async (base, server) => {
      for (let run = 0; run < runs && !server.exited; run++)
        for (const connections of levels)
          for (const [route, url, headers] of [
            ["bare", `${base}/`, {}],
            ["keyed", `${base}${KEYED_PATH}`, { "x-api-key": key }],
          ]) {
            if (server.exited) break;
            const r = fig(await load(url, { headers, connections, seconds }));
            steps.push({ run, connections, route, ...r, serverUp: !server.exited });
            console.error(JSON.stringify(steps.at(-1)));
          }
      return { server: api ? "wrangler API" : "wrangler dev", steps, exited: server.exited };
    });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const api = process.argv.includes("--serve-api");
  if (process.argv[2] === "--serve") {
    await serveWorker(JSON.parse(process.argv[3]));
  } else if (process.argv.includes("--stress")) {
    const levels = (process.env.STRESS_CONNECTIONS ?? "50,100,200").split(",").map(Number);
    console.log(
      JSON.stringify(
        await stressKeyed({ api, levels, runs: Number(process.env.STRESS_RUNS ?? 2), seconds: Number(process.env.STRESS_SECONDS ?? 40) }),
        null,
        2,
      ),
    );
    process.exit(0);
  } else {
    console.log(
      JSON.stringify(await benchKeyed({ api, rounds: Number(process.env.BENCH_ROUNDS ?? 3), seconds: Number(process.env.BENCH_SECONDS ?? 10) }), null, 2),
    );
    process.exit(0);
  }
}
