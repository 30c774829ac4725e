// node scripts/check-cold-start.mjs: the first Companies House lookup of a freshly started `wrangler dev`.
// Serves Companies House profiles (test/fixtures/hosts/ch.test/company/<number>/index.json) from a local HTTP host on
// 127.0.0.1, starts wrangler dev on a free 127.0.0.1 port with its own empty state (a temporary folder, so
// neither .wrangler/state nor .dev.vars is touched), creates a key, and makes the Worker's very first request
// GET /api/v1/deadlines?company=01234567 (read live from Companies House: a register check by number reads the
// companies register loaded from the bulk file instead), then a second one for comparison.
// Passes when that first call reached the host and answered from the profile; exits 1 otherwise, printing
// both replies, what the host saw and wrangler's log (Companies House failures are logged with their cause).
// Stops exactly what it started: the fixture host and wrangler's own process group.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, devConfigArgs, freePort, localEnv, migrateLocal, wranglerEnv } from "./lib.mjs";
import { createLocalKey } from "./key.mjs";

const FIRST = "01234567"; // HARBOURSIDE LEGAL LIMITED
const SECOND = "03712548"; // MEADOW CARE HOMES LIMITED
const NAMES = { [FIRST]: "HARBOURSIDE LEGAL LIMITED", [SECOND]: "MEADOW CARE HOMES LIMITED" };
const PROFILES = join(ROOT, "test/fixtures/hosts/ch.test/company");

const listen = (server, port = 0) =>
  new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server.address().port));
  });

// ---- the fixture host ----
const seen = [];
const host = createServer(async (req, res) => {
  seen.push({ at: new Date().toISOString(), method: req.method, url: req.url, authorization: req.headers.authorization ?? null });
  // A profile is <number>/index.json; a sub-resource (officers, charges, …) the file of its name beside it.
  const m = /^\/company\/([A-Z0-9]{8})(?:\/([a-z-]+))?(?:\?.*)?$/i.exec(req.url ?? "");
  const body = m ? await readFile(join(PROFILES, m[1].toUpperCase(), m[2] ?? "index.json")).catch(() => null) : null;
  if (body) res.writeHead(200, { "content-type": "application/json" }).end(body);
  else res.writeHead(404, { "content-type": "application/json" }).end('{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}');
});
const hostPort = await listen(host);
const state = mkdtempSync(join(tmpdir(), "ukbi-cold-start-"));
let dev = null;
let devLog = "";

async function stop() {
  if (dev && dev.exitCode === null && dev.signalCode === null) {
    const exited = new Promise((r) => dev.once("exit", r));
    try {
      process.kill(-dev.pid, "SIGTERM"); // wrangler's own process group (spawned detached), nothing else
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-dev.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  }
  await new Promise((r) => host.close(r));
  rmSync(state, { recursive: true, force: true });
}
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => stop().then(() => process.exit(130)));

let failed = true;
try {
  // ---- state: migrations and one key, in the temporary folder ----
  migrateLocal(state);
  const proxy = await localEnv(state);
  const { key } = await createLocalKey(proxy.env.DB, { plan: "free" });
  await proxy.dispose();

  // ---- wrangler dev, in its own process group ----
  const port = await freePort();
  const vars = { ENVIRONMENT: "development", COMPANIES_HOUSE_URL: `http://127.0.0.1:${hostPort}`, COMPANIES_HOUSE_API_KEY: "dummy-ch-key" };
  const args = [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    ...devConfigArgs(),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    state,
  ];
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  dev = spawn(process.execPath, args, { cwd: ROOT, env: wranglerEnv(), stdio: ["ignore", "pipe", "pipe"], detached: true });
  // Ready is read from the log, not polled: the lookup below is the first request the Worker serves.
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("wrangler dev did not report Ready within 120 s")), 120_000);
    const onData = (d) => {
      devLog += d;
      if (/Ready on/.test(devLog)) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev.stdout.on("data", onData);
    dev.stderr.on("data", onData);
    dev.once("exit", (code) => reject(new Error(`wrangler dev exited (${code}) before it was ready`)));
  });

  const lookup = async (number) => {
    const t = performance.now();
    const r = await fetch(`http://127.0.0.1:${port}/api/v1/deadlines?company=${number}`, { headers: { "x-api-key": key } });
    return { number, status: r.status, ms: Math.round(performance.now() - t), body: await r.text() };
  };
  // As a newcomer does: the status page first (it checks every upstream, Companies House included), then,
  // a little later (past the fixture host's 5 s keep-alive), the first lookup.
  if (process.env.STATUS_FIRST !== "0") {
    await fetch(`http://127.0.0.1:${port}/api/status`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, Number(process.env.STATUS_WAIT_MS ?? 6000)));
  }
  const first = await lookup(FIRST);
  const second = await lookup(SECOND);
  await new Promise((r) => setTimeout(r, 300)); // let wrangler print the request lines

  const reached = (number) => seen.some((s) => s.method === "GET" && s.url.split("?")[0] === `/company/${number}`);
  const companyOf = (body) => {
    try {
      return JSON.parse(body).company ?? null;
    } catch {
      return null;
    }
  };
  const ok = (c) => c.status === 200 && reached(c.number) && companyOf(c.body)?.name === NAMES[c.number] && companyOf(c.body)?.number === c.number;
  for (const c of [first, second])
    console.log(`${c === first ? "first " : "second"} call: ${c.status} in ${c.ms} ms, host ${reached(c.number) ? "saw it" : "never saw it"}: ${c.body}`);
  console.log(`fixture host requests: ${JSON.stringify(seen)}`);
  const logLines = devLog.split("\n").filter((l) => /companies-house|deadlines|Error|error/.test(l));
  if (logLines.length) console.log(`wrangler log:\n  ${logLines.join("\n  ")}`);
  failed = !ok(first) || !ok(second);
  console.log(
    failed ? "FAIL: a Companies House lookup did not reach the fixture host" : "ok: the first Companies House lookup of a fresh wrangler dev reached the host",
  );
} catch (e) {
  console.error(String(e?.stack ?? e));
  console.error(devLog.slice(-3000));
} finally {
  await stop();
}
process.exit(failed ? 1 : 0);
