import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type JobEvent, runJob } from "../../src/cli/jobs";
import type { Env } from "../../src/env";
import { jobPortsFor, watchPortsFor } from "../../src/platform/jobPorts";
import type { CompanyRead, WatchPorts } from "../../src/services/watch/feed";
import { call, createTestKey } from "../helpers";

/**
 * Issue 31: `npm run job -- <name>` runs a background job now (scripts/job.mjs starts scripts/job-worker.ts, which
 * hands the request to src/cli/jobs.ts runJob). Here runJob runs in the test runtime over the fixture upstreams: the
 * watch list's forced read records an event and delivers it, the queue's messages are handled in the same run, and an
 * upstream that cannot be read is said as such with the variable it is configured by (a key's value never shown).
 */

const json = { "content-type": "application/json" };

async function run(job: string, args: string[] = [], over: Partial<Env> = {}, ports?: () => WatchPorts): Promise<JobEvent[]> {
  const e = { ...env, ...over } as Env;
  const out: JobEvent[] = [];
  const all = jobPortsFor(e);
  await runJob({ ...all, watch: ports?.() ?? all.watch }, e, { job, args }, (x) => out.push(x));
  return out;
}
const done = (evs: JobEvent[]) => evs.at(-1);
const of = (evs: JobEvent[], kind: JobEvent["kind"]) => evs.filter((e) => e.kind === kind) as Extract<JobEvent, { what: string }>[];

beforeEach(async () => {
  await env.DB.batch(["watches", "watch_companies", "watch_events", "watch_webhooks"].map((t) => env.DB.prepare(`DELETE FROM ${t}`)));
});

describe("issue 31 npm run job: a job run now, and said", () => {
  it("watch-now reads every watched company now: the first read is the baseline, a change read again the same day is an event, delivered to the webhook", async () => {
    const a = await createTestKey();
    expect((await call("/api/v1/watch", { method: "POST", key: a.key, headers: json, body: JSON.stringify({ company: "01234567" }) })).status).toBe(201);
    expect(
      (await call("/api/v1/watch/webhook", { method: "PUT", key: a.key, headers: json, body: JSON.stringify({ url: "https://hooks.test/ok" }) })).status,
    ).toBe(200);
    let liquidation = false;
    const ports = () => {
      const base = watchPortsFor(env);
      return {
        ...base,
        read: async (company: string, now: Date): Promise<CompanyRead> => {
          const r = await base.read(company, now);
          if (!liquidation || r.input.profile instanceof Error || !r.input.profile) return r;
          return { ...r, input: { ...r.input, profile: { ...r.input.profile, status: "liquidation" } } };
        },
      };
    };
    const first = await run("watch-now", [], {}, ports);
    expect(first[0]).toEqual({ kind: "info", text: "watch-now: 1 watched company to read now" });
    expect(of(first, "ok").map((e) => [e.what, e.text])).toEqual([
      ["watch/01234567 HARBOURSIDE LEGAL LIMITED", "read; 0 events recorded (GET /api/v1/watch/events)"],
    ]);
    expect(done(first)).toEqual({ kind: "done", ok: true, failed: 0, warned: of(first, "warn").length });

    liquidation = true;
    const second = await run("watch-now", ["1234567"], {}, ports); // a number as typed: normalised
    const ok = of(second, "ok");
    expect(ok[0]).toMatchObject({
      what: "watch/01234567 HARBOURSIDE LEGAL LIMITED",
      text: expect.stringMatching(/^read; 1 event recorded, 1 to deliver to webhooks/),
    });
    expect(ok[1]).toMatchObject({ what: expect.stringMatching(/^watch\/event \d+$/), text: "delivered to https://hooks.test/ok (answered 204)" });
    const feed = (await (await call("/api/v1/watch/events?since=0", { key: a.key })).json()) as { events: { kind: string; deliveredToWebhook: boolean }[] };
    expect(feed.events).toHaveLength(1);
    expect(feed.events[0].deliveredToWebhook).toBe(true);

    // The tick: read today already, so nothing is due.
    const tick = await run("watch", [], {}, ports);
    expect(tick.map((e) => (e.kind === "info" ? e.text : e.kind === "ok" ? e.text : e.kind))).toEqual([
      "watch: the tick found 0 companies due for their daily read and 0 webhook deliveries due",
      "nothing to do now",
      "done",
    ]);
  });

  it("a watch reading's section that cannot be read is a warning naming its upstream (the job goes on: the last good reading stays)", async () => {
    const a = await createTestKey();
    expect((await call("/api/v1/watch", { method: "POST", key: a.key, headers: json, body: JSON.stringify({ company: "01234567" }) })).status).toBe(201);
    // Without the key Companies House is not asked (its cache of the profile the watch was added with is not read either).
    const evs = await run("watch-now", [], { COMPANIES_HOUSE_API_KEY: "" } as Partial<Env>);
    const register = of(evs, "warn").find((e) => e.what.endsWith(" register")) as Extract<JobEvent, { kind: "warn" }>;
    expect(register.text).toBe("not read, the last good reading is kept: Companies House API key not configured");
    expect(register.upstreams).toEqual([
      { name: "COMPANIES_HOUSE_URL", value: env.COMPANIES_HOUSE_URL, secret: false },
      { name: "COMPANIES_HOUSE_API_KEY", value: null, secret: true },
    ]);
    expect(done(evs)).toMatchObject({ kind: "done", ok: true, failed: 0 });
  });

  it("bank-rate reads the series; an upstream that cannot be read fails the job and names its variable and value", async () => {
    const good = await run("bank-rate");
    expect(of(good, "ok")).toEqual([
      { kind: "ok", what: "bank-rate", text: expect.stringMatching(/^\d+ rate changes stored, known through \d{4}-\d{2}-\d{2}$/) },
    ]);
    expect(done(good)).toEqual({ kind: "done", ok: true, failed: 0, warned: 0 });
    const bad = await run("bank-rate", [], { BOE_IADB_URL: "https://down.test/iadb" } as Partial<Env>);
    expect(of(bad, "fail")).toEqual([
      {
        kind: "fail",
        what: "bank-rate",
        text: expect.stringMatching(/^not read: .+ \(late-payment keeps the rates it holds\)$/),
        upstreams: [{ name: "BOE_IADB_URL", value: "https://down.test/iadb", secret: false }],
      },
    ]);
    expect(done(bad)).toEqual({ kind: "done", ok: false, failed: 1, warned: 0 });
  });

  it("registers reads each named register (the run log says why one failed, with its variables); an unknown name or job is refused", async () => {
    const evs = await run("registers", ["sra", "sanctions"], { SANCTIONS_LIST_URL: "http://files.test/sanctions/none.csv", SRA_API_KEY: "" } as Partial<Env>);
    const fails = of(evs, "fail") as Extract<JobEvent, { kind: "fail" }>[];
    expect(fails.map((f) => [f.what, f.upstreams])).toEqual([
      [
        "registers/sra",
        [
          { name: "SRA_URL", value: env.SRA_URL, secret: false },
          { name: "SRA_API_KEY", value: null, secret: true },
        ],
      ],
      ["registers/sanctions", [{ name: "SANCTIONS_LIST_URL", value: "http://files.test/sanctions/none.csv", secret: false }]],
    ]);
    expect(fails[0].text).toMatch(/^failed: .*key.* \(run \d+ in the run log; the published edition stays\)$/i);
    expect(done(evs)).toEqual({ kind: "done", ok: false, failed: 2, warned: 0 });

    // A key that is set is said to be set: its value is never in what the job says.
    const down = await run("registers", ["sra"], { SRA_URL: "https://down.test/V1" } as Partial<Env>);
    expect((of(down, "fail")[0] as Extract<JobEvent, { kind: "fail" }>).upstreams).toEqual([
      { name: "SRA_URL", value: "https://down.test/V1", secret: false },
      { name: "SRA_API_KEY", value: "(set)", secret: true },
    ]);
    expect(JSON.stringify(down)).not.toContain(env.SRA_API_KEY);

    const loaded = await run("registers", ["sra"]);
    expect(of(loaded, "ok")).toEqual([{ kind: "ok", what: "registers/sra", text: expect.stringMatching(/^(loaded|unchanged), edition /) }]);

    expect(of(await run("registers", ["nope"]), "fail")[0].text).toMatch(/^no such register: nope; registers: /);
    expect(of(await run("nope"), "fail")[0].text).toMatch(/^no such job; jobs: watch, watch-now, registers, bank-rate, tenders, daily$/);
  });
});
