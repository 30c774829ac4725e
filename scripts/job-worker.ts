/**
 * The Worker `npm run job` starts (scripts/job.mjs): wiring only, like src/index.ts. It is served under the API
 * Worker's name with the API Worker's D1 databases and KeyLedger class, on the same local state as `npm start`, so a
 * job reads and writes what the local server serves, and a watch's month is charged on the same ledger. Each POST
 * runs one job (src/cli/jobs.ts) with the ports the cron and the queues run with (src/platform/jobPorts.ts), and
 * answers its events as they come, one JSON object a line.
 */
import { type JobEvent, type JobRequest, runJob } from "../src/cli/jobs";
import type { Env } from "../src/env";
import { jobPortsFor } from "../src/platform/jobPorts";

export { KeyLedger } from "../src/ledger/KeyLedger";

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (request.method !== "POST") return new Response('POST a job: {"job": "watch", "args": []}\n', { status: 405 });
    const req = (await request.json()) as JobRequest;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = writable.getWriter();
    const encoder = new TextEncoder();
    let writing = Promise.resolve();
    const emit = (e: JobEvent) => {
      writing = writing.then(() => writer.write(encoder.encode(`${JSON.stringify(e)}\n`))).catch(() => {});
    };
    ctx.waitUntil(
      runJob(jobPortsFor(env), env, req, emit)
        .catch((e) => emit({ kind: "fail", what: req.job, text: `stopped: ${String((e as Error)?.stack ?? e)}`, upstreams: [] }))
        .then(() => writing)
        .finally(() => writer.close().catch(() => {})),
    );
    return new Response(readable, { headers: { "content-type": "application/x-ndjson" } });
  },
} satisfies ExportedHandler<Env>;
