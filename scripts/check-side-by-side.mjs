// node scripts/check-side-by-side.mjs
// Two scripts started at once (npm start in one terminal, npm run key or ingest in another) both apply the
// D1 migrations: they must not apply them twice ("duplicate column name"). Runs two migrations side by side on
// a fresh, temporary local database, then once more on it; exits 1 if any fails. Stops nothing it did not start.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const dir = mkdtempSync(join(tmpdir(), "ukbi-side-by-side-"));
const migrate = () =>
  new Promise((resolve) => {
    const p = spawn(
      process.execPath,
      ["--input-type=module", "-e", `import("${join(ROOT, "scripts/lib.mjs").replace(/\\/g, "/")}").then((m) => m.migrateLocal(${JSON.stringify(dir)}))`],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("exit", (code) => resolve({ code, out }));
  });
let failed = false;
try {
  const both = await Promise.all([migrate(), migrate()]);
  const again = await migrate();
  for (const [i, r] of [...both, again].entries()) {
    if (r.code !== 0) {
      failed = true;
      console.error(`migration run ${i + 1} failed (exit ${r.code}):\n${r.out.slice(-2000)}`);
    }
  }
  console.log(failed ? "FAIL: migrations applied side by side clashed" : "ok: two migrations side by side and a re-run all succeeded");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
