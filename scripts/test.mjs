// npm test: every test. The unit and integration tests in the Workers runtime (vitest; arguments after
// `npm test --` go to vitest), the accessibility audit's ACT conformance run (scripts/act.mjs), the pages in a
// real browser (scripts/test-browser.mjs), the hostile inputs against a live server (scripts/test-hostile.mjs), then
// each Worker's deploy bundle (scripts/check-bundles.mjs: the API Worker holds none of the heavy readers).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit" }).status ?? 1;

const unit = run([join(ROOT, "node_modules/vitest/vitest.mjs"), "run", ...process.argv.slice(2)]);
const act = run([join(ROOT, "scripts/act.mjs")]);
const browser = run([join(ROOT, "scripts/test-browser.mjs")]);
const hostile = run([join(ROOT, "scripts/test-hostile.mjs")]);
const bundles = run([join(ROOT, "scripts/check-bundles.mjs")]);
process.exit(unit || act || browser || hostile || bundles);
