// node scripts/test-hostile.mjs (the last step of npm test): the hostile inputs of issue 29 §1 (scripts/hostile/index.mjs)
// against a live local server with its own state (scripts/hostile/harness.mjs), each once. Prints a table and fails when
// a case misses a goal: a reply (never a 5xx but the refunded 503 `timeout`), within the operation's time limit, nothing
// charged on an error, workerd's memory growing by less than 128 MB, /api/status answering within 1 s while the call
// runs and after it. HOSTILE_ONLY=<text> runs the cases whose name includes it. Skipped, with a line saying why, without
// /proc. Fixtures (made again only when their generators change), the Worker copy, its state and log: .wrangler/hostile/.
import { join } from "node:path";
import { ROOT } from "./lib.mjs";
import { runHostile, tableOf } from "./hostile/harness.mjs";

const root = join(ROOT, ".wrangler", "hostile");
let result;
try {
  result = await runHostile({ root, only: process.env.HOSTILE_ONLY });
} catch (e) {
  console.error(`Hostile inputs: the harness could not run: ${e?.stack ?? e}`);
  process.exit(1);
}
if (result.skipped) {
  console.log(`Hostile inputs skipped: ${result.skipped}.`);
  process.exit(0);
}
console.log(`\n${tableOf(result.rows)}`);
console.log(
  `\nst: status; s/lim: seconds and the operation's time limit; cr: credits taken; ΔRSS: workerd's peak resident memory over the figure before the call; status: slowest /api/status while the call ran; up: /api/status answered after.`,
);
console.log(`Hostile inputs: ${result.rows.length - result.failures.length} of ${result.rows.length} cases met every goal, in ${result.seconds} s.`);
if (result.failures.length) {
  console.log(result.failures.map((f) => `- ${f}`).join("\n"));
  process.exit(1);
}
