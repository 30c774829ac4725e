// node scripts/bench/first-start.mjs (item 14 of npm run bench): the first `npm start` on a fresh clone, step by step
// (issue 30 §4: first answer ≤ 60 s, busy machine or not, with every sample register loaded). Clones this repository
// (its committed HEAD) into a temporary folder, links node_modules from here (hard links, as a fresh `npm ci` would
// leave them), runs `npm start` on a free port in a process group of its own, and times the first 200 from
// /api/status and the first keyed answer (the local key it printed); the step times are the ones npm start prints.
// Stops exactly the process group it started and removes the clone.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, freePort, wranglerEnv } from "../lib.mjs";

export async function benchFirstStart({ timeoutMs = 600_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "ukbi-first-start-"));
  const clone = join(dir, "repo");
  let child = null;
  try {
    spawnSync("git", ["clone", "-q", ROOT, clone], { stdio: "ignore" });
    spawnSync("cp", ["-al", join(ROOT, "node_modules"), join(clone, "node_modules")], { stdio: "ignore" });
    const port = await freePort();
    let log = "";
    const t0 = performance.now();
    child = spawn("npm", ["start"], { cwd: clone, env: wranglerEnv({ PORT: String(port), CI: "" }), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (d) => (log += d));
    child.stderr.on("data", (d) => (log += d));
    const base = `http://127.0.0.1:${port}`;
    let statusAt = null;
    while (performance.now() - t0 < timeoutMs && child.exitCode === null) {
      const ok = await fetch(`${base}/api/status`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        statusAt = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    if (statusAt === null) return { error: "npm start did not answer", log: log.slice(-2000) };
    const keyFile = join(clone, ".wrangler", "state", "local-key.txt");
    const key = existsSync(keyFile) ? readFileSync(keyFile, "utf8").trim() : "";
    const r = await fetch(`${base}/api/v1/sra-check?company=Riverine%20Solicitors`, { headers: { "x-api-key": key } });
    await r.body?.cancel();
    const keyedAt = performance.now() - t0;
    const plain = log.replace(/\x1b\[[0-9;]*m/g, "");
    const step = (re) => Number(plain.match(re)?.[1] ?? NaN);
    return {
      note: "a fresh clone of HEAD with node_modules linked; seconds from `npm start` (the machine as it is: busy or not)",
      migrationsS: step(/migrations (?:applied|up to date)[^(]*\(([\d.]+) s\)/),
      sampleRegistersS: step(/sample registers loaded \(([\d.]+) s\)/),
      readyToServeS: step(/Ready to serve after ([\d.]+) s/),
      firstStatusS: Number((statusAt / 1000).toFixed(1)),
      firstKeyedAnswerS: Number((keyedAt / 1000).toFixed(1)),
      keyedStatus: r.status,
      goalS: 60,
    };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((res) => child.once("exit", res));
      try {
        process.kill(-child.pid, "SIGTERM"); // the process group started here (npm, node, wrangler, workerd), nothing else
      } catch {
        // gone already
      }
      await Promise.race([exited, new Promise((res) => setTimeout(res, 10_000))]);
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith("first-start.mjs") && process.argv[1].endsWith("first-start.mjs"))
  console.log(JSON.stringify(await benchFirstStart(), null, 2));
