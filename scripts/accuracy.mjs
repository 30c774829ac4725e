// npm run accuracy: the document readers measured on real documents (issue 17 §5). Runs the accuracy tests
// (test/accuracy/*.accuracy.test.ts, also part of `npm test`) and prints the figures they log, one line each:
//  - the modern slavery reader's agreement with the WikiRate "MSA training" label on 213 real statements (goal ≥ 90%);
//  - approval and signature on the six hand-checked statements (all correct);
//  - the eight carbon reduction plan parts on the four real plans, checked by hand (goal ≥ 90%);
//  - the Ofsted 2016 report's overall grade and four sub-judgements.
// The real documents are in ../shared/corpora; without them the tests skip and nothing is measured.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const r = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "test/accuracy", "--reporter=verbose"], {
  cwd: ROOT,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const out = `${r.stdout}\n${r.stderr}`;
const figures = [
  ...new Set(
    out
      .split("\n")
      .filter((l) => /^ACCURACY /.test(l.replace(/\x1b\[[0-9;]*m/g, "").trim()))
      .map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim()),
  ),
];
if (r.status !== 0) process.stdout.write(out);
console.log("\nDocument readers' accuracy on real documents:");
for (const l of figures) console.log("  " + l.replace(/^ACCURACY /, ""));
if (!figures.length) console.log("  (nothing measured: ../shared/corpora is not beside the repo)");
process.exit(r.status ?? 1);
