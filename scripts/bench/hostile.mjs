// The hostile inputs (issue 29 §1), part of `npm run bench`: every case of scripts/hostile/index.mjs sent once to a live
// local server (scripts/hostile/harness.mjs: a copy of the Worker with its own state under .bench/hostile/), with its
// figures: status and code, seconds against the operation's time limit, credits taken, workerd's resident memory
// before and at its peak (and the growth, goal < 128 MB), the slowest /api/status while the call ran (goal < 1 s), and
// whether the server answered after. Prints the table; returns the figures and the goals each case missed.
// Runnable alone: node scripts/bench/hostile.mjs  (prints the table, then the JSON)
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT } from "../lib.mjs";
import { runHostile, tableOf } from "../hostile/harness.mjs";

export async function benchHostile() {
  const result = await runHostile({ root: join(ROOT, ".bench", "hostile"), only: process.env.HOSTILE_ONLY });
  if (result.skipped) return { skipped: result.skipped };
  console.log(`hostile inputs (${result.rows.length} cases, ${result.seconds} s):\n${tableOf(result.rows)}`);
  const met = result.rows.length - result.failures.length;
  return {
    goals: {
      reply: "2xx, or 4xx with a code, or the refunded 503 timeout; 400/413 beyond a cap",
      withinTimeLimitPlusMs: result.goals.graceMs,
      memoryGrowthUnderMB: result.goals.memoryGrowthMB,
      statusUnderMs: result.goals.statusMs,
      statusAskedEveryMs: result.goals.statusEveryMs,
      memorySampledEveryMs: result.goals.rssEveryMs,
    },
    casesMeetingEveryGoal: `${met} of ${result.rows.length}`,
    seconds: result.seconds,
    cases: result.rows,
    failures: result.failures,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await benchHostile(), null, 2));
  process.exit(0);
}
