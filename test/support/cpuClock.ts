/**
 * A clock of this process's CPU time, in milliseconds, for the Node lane's hostile-input tests (issue 31): they bound
 * the work a reader does on a hostile document (a hang guard, far above its usual cost; speed itself is measured in
 * `npm run bench`). Wall time stretches with everything else a loaded two-core machine runs (an ixbrl case once took
 * 10.6 s of wall time against its usual 0.5 s under a full `npm test`); the CPU time of the work does not. Where
 * `process.cpuUsage` does not work (the Workers runtime), it is wall time.
 */
export function cpuNow(): number {
  try {
    const usage = process.cpuUsage(); // workerd's process has one that throws "not implemented"
    return (usage.user + usage.system) / 1000;
  } catch {
    return performance.now();
  }
}
