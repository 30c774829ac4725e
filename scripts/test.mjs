// npm test: every test. The vitest suite in two lanes (docs/testing.md), the Node lane (tests that need no Workers
// runtime, in plain Node) then the Workers lane (inside the Workers runtime), each with a line of its wall time and
// test counts; then the accessibility audit's ACT conformance run (scripts/act.mjs), the pages in a real browser
// (scripts/test-browser.mjs), the hostile inputs against a live server (scripts/test-hostile.mjs), then each Worker's
// deploy bundle (scripts/check-bundles.mjs: the API Worker holds none of the heavy readers).
//
// Arguments after `npm test --` go to vitest, for both lanes (`--project node` or `--project workers` runs one). The
// JSON reporter's file (`--outputFile=<file>` or `--outputFile.json=<file>`) holds both lanes: their counts summed,
// their files' results one list. Another reporter's file (`--outputFile.<reporter>=<file>`) is written per lane,
// as <file> with the lane's name before its extension.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, resolve } from "node:path";
import { ROOT } from "./lib.mjs";

const LANES = ["node", "workers"];
const began = Date.now();
const run = (args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit" }).status ?? 1;

/** The caller's vitest arguments, without the ones this script handles itself (projects, reporters' files). */
function parseArgs(argv) {
  const passed = [];
  const projects = [];
  const files = {}; // reporter ("" for every reporter) -> file
  const reporters = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(project|outputFile(?:\.(\w+))?|reporter)(?:=(.*))?$/.exec(argv[i]);
    if (!m) {
      passed.push(argv[i]);
      continue;
    }
    const value = m[3] ?? argv[++i];
    if (value === undefined) throw new Error(`${argv[i - 1]} needs a value`);
    if (m[1] === "project") projects.push(value);
    else if (m[1] === "reporter") reporters.push(value);
    else files[m[2] ?? ""] = resolve(process.cwd(), value);
  }
  return { passed, projects, files, reporters };
}

const { passed, projects, files, reporters } = parseArgs(process.argv.slice(2));
const unknown = projects.filter((p) => !LANES.includes(p));
if (unknown.length) {
  console.error(`no lane ${unknown.join(", ")}: the lanes are ${LANES.join(" and ")}`);
  process.exit(1);
}
const jsonFile = files.json ?? files[""];
const tmp = mkdtempSync(join(tmpdir(), "vitest-lanes-"));

/** One lane: vitest with the caller's arguments, its JSON results into a file of its own. */
function runLane(lane) {
  const perLane = Object.entries(files)
    .filter(([reporter]) => reporter !== "" && reporter !== "json")
    .map(([reporter, file]) => `--outputFile.${reporter}=${file.slice(0, file.length - extname(file).length)}.${lane}${extname(file)}`);
  const json = join(tmp, `${lane}.json`);
  const args = [
    join(ROOT, "node_modules/vitest/vitest.mjs"),
    "run",
    `--project=${lane}`,
    // A file filter may match files of one lane only: the other lane then has nothing to run, which is no failure.
    "--passWithNoTests",
    ...(reporters.length ? reporters : ["default"]).map((r) => `--reporter=${r}`),
    ...(reporters.includes("json") ? [] : ["--reporter=json"]),
    `--outputFile.json=${json}`,
    ...perLane,
    ...passed,
  ];
  const started = Date.now();
  const status = run(args);
  const seconds = Math.round((Date.now() - started) / 1000);
  const result = existsSync(json) ? JSON.parse(readFileSync(json, "utf8")) : null;
  return { lane, status, seconds, result };
}

const lanes = LANES.filter((l) => !projects.length || projects.includes(l)).map(runLane);

/** Both lanes' JSON results as one: counts summed, flags all true only if true in every lane, lists joined. */
function merge(results) {
  const out = {};
  for (const r of results)
    for (const [key, value] of Object.entries(r)) {
      if (typeof value === "number") out[key] = key === "startTime" && key in out ? Math.min(out[key], value) : (out[key] ?? 0) + value;
      else if (typeof value === "boolean") out[key] = (out[key] ?? true) && value;
      else if (Array.isArray(value)) out[key] = [...(out[key] ?? []), ...value];
      else if (value && typeof value === "object") out[key] = merge([out[key] ?? {}, value]);
      else out[key] ??= value;
    }
  return out;
}

const results = lanes.map((l) => l.result).filter(Boolean);
const merged = merge(results);
if (lanes.some((l) => !l.result)) merged.success = false;
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(merged));
rmSync(tmp, { recursive: true, force: true });

console.log("");
for (const { lane, status, seconds, result } of lanes) {
  if (!result) {
    console.log(`lane ${lane}: no results (vitest exited ${status}) in ${seconds} s`);
    continue;
  }
  const skipped = result.numPendingTests + (result.numTodoTests ?? 0);
  console.log(
    `lane ${lane}: ${result.numTotalTests} tests (${result.numPassedTests} passed, ${result.numFailedTests} failed, ${skipped} skipped) in ${result.testResults.length} files, ${seconds} s`,
  );
}
let unit = lanes.some((l) => l.status !== 0) ? 1 : 0;
if (!unit && results.length && !merged.testResults.length) {
  console.error("no test file matched");
  unit = 1;
}

/** A step after the lanes, timed: its exit status, and a line of its wall time in the summary at the end. */
const steps = [];
const step = (name, script) => {
  const started = Date.now();
  const status = run([join(ROOT, script)]);
  steps.push(`${name} ${Math.round((Date.now() - started) / 1000)} s${status ? " (failed)" : ""}`);
  return status;
};
const act = step("ACT conformance", "scripts/act.mjs");
const browser = step("browser", "scripts/test-browser.mjs");
const hostile = step("hostile inputs", "scripts/test-hostile.mjs");
const bundles = step("bundles", "scripts/check-bundles.mjs");
console.log(`\nnpm test: ${Math.round((Date.now() - began) / 1000)} s in all (${[...lanes.map((l) => `${l.lane} lane ${l.seconds} s`), ...steps].join(", ")})`);
process.exit(unit || act || browser || hostile || bundles);
