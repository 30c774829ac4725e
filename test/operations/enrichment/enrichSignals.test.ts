import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { storeOf } from "../../../src/jobs/ingest/pipeline";
import { enrich } from "../../../src/app/enrichment/enrich";
import type { OpContext } from "../../../src/platform/registry";
import { type Services, buildServices } from "../../../src/platform/services";
import { UpstreamError } from "../../../src/shared/errors";
import { call, createTestKey, json } from "../../helpers";
import { load } from "../registers/registerData";
import { loadEnrichRegister } from "./register";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * Issue 18 §2 enrich: the signals and size facts a confirmed company gets from the other sources, read by its number —
 * its CQC registration and ratings (test/fixtures/cqc: MEADOW CARE HOMES LIMITED's provider rated Good, its care home
 * re-rated Inadequate), its payment practices reports (HARBOURSIDE LEGAL LIMITED: 89% within 60 days in the period to
 * 2025-06-30, 95% in the period to 2026-06-30), its gender pay gap headcount band, and the average employees of its
 * latest tagged accounts (HARBOURSIDE's 2025 iXBRL: 23). `today` is fixed through the context, so "new" stays new.
 */

const ctxAt = (
  today: string,
  web?: (real: Services["web"]) => Services["web"],
  ch?: (real: Services["companiesHouse"]) => Services["companiesHouse"],
): OpContext => {
  const base = buildServices(env as never);
  return {
    services: { ...base, ...(web ? { web: web(base.web) } : {}), ...(ch ? { companiesHouse: ch(base.companiesHouse) } : {}) },
    requestId: "req_enrich_signals",
    origin: "http://api.test",
    caller: null,
    ip: "192.0.2.62",
    now: new Date(`${today}T09:00:00.000Z`),
    signal: new AbortController().signal,
    charge: async () => ({ charged: 0, remaining: 0 }),
    refund: () => {},
    waitUntil: () => {},
  };
};

beforeAll(async () => {
  await loadEnrichRegister();
  await load("cqc");
  for (const [source, path, fileName] of [
    ["payment-practices", "payment-practices/operations-export.csv", "operations-export.csv"],
    ["gender-pay-gap", "gender-pay-gap/2025", "UK Gender Pay Gap Data - 2025 to 2026.csv"],
    ["gender-pay-gap", "gender-pay-gap/2026", "UK Gender Pay Gap Data - 2026 to 2027.csv"],
  ] as const) {
    if (source === "payment-practices") await storeOf(source).reset(ingestPortsFor(env), source);
    const bytes = new Uint8Array(await (await fetch(`http://files.test/${path}`)).arrayBuffer());
    const r = await ingestEdition(ingestPortsFor(env), { source, bytes, fileName, url: null, editionDate: null });
    expect(r.outcome, path).toBe("loaded");
  }
});

describe("issue 18 §2 enrich: signals of the registers this service keeps", () => {
  it("CQC rated: the care provider's and its locations' ratings, and a risk for an Inadequate location; its headcount band", async () => {
    const e = await enrich(ctxAt("2026-11-25"), "meadowcare.test", undefined, { cache: false });
    expect(e.profile.companyNumber).toBe("03712548");
    const cqc = e.profile.signals.filter((s) => s.code.startsWith("cqc-"));
    expect(cqc).toEqual([
      {
        code: "cqc-registered",
        label: "Registered with the Care Quality Commission: provider rated Good; 1 registered location (1 Inadequate)",
        kind: "info",
        source: "CQC register of care providers",
      },
      { code: "cqc-rating-concern", label: "CQC ratings: 1 location is rated Inadequate", kind: "risk", source: "CQC register of care providers" },
    ]);
    expect(e.profile.sizeSignal).toContain("500 to 999 employees (gender pay gap report 2025 to 2026)");
    expect(e.profile.sources).toEqual(expect.arrayContaining(["CQC register", "gender pay gap reports (headcount band)"]));
  });

  it("a new report of slow payment is a risk; a year later, the newer report that meets the test is info", async () => {
    const then = await enrich(ctxAt("2025-08-15"), "harbourside-legal.test", undefined, { cache: false });
    expect(then.profile.companyNumber).toBe("01234567");
    const slow = then.profile.signals.find((s) => s.code === "slow-payment-report");
    expect(slow).toMatchObject({
      kind: "risk",
      label: expect.stringContaining("(period ending 2025-06-30, filed 2025-07-21): average 52 days to pay; 89% of invoices paid within 60 days"),
    });
    expect(then.profile.sources).toContain("payment practices reports");

    const now = await enrich(ctxAt("2026-11-25"), "harbourside-legal.test", undefined, { cache: false });
    expect(now.profile.signals.find((s) => s.code === "slow-payment-report")).toBeUndefined();
    expect(now.profile.signals.find((s) => s.code === "payment-practices-report")).toMatchObject({
      kind: "info",
      label: expect.stringContaining("period ending 2026-06-30"),
    });
  });

  it("sizeSignal: the latest tagged accounts' average employees and the gender pay gap band, each with its source", async () => {
    const e = await enrich(ctxAt("2026-11-25"), "harbourside-legal.test", undefined, { cache: false });
    expect(e.register?.employees).toMatchObject({ average: 23, band: "250 to 499", bandYear: "2026", note: null });
    expect(e.profile.sizeSignal).toMatch(/average 23 employees \(accounts to \d{4}-\d{2}-\d{2}\); 250 to 499 employees \(gender pay gap report 2026 to 2027\)/);
  });

  it("the accounts unreadable just now (Companies House failing for them): said in the size signal, the enrichment still answers", async () => {
    const failing = (real: Services["companiesHouse"]): Services["companiesHouse"] =>
      Object.assign(Object.create(real) as Services["companiesHouse"], {
        getFilingHistory: async () => {
          throw new UpstreamError("companies-house", "refused", "Companies House answered 503.");
        },
      });
    const e = await enrich(ctxAt("2026-11-25", undefined, failing), "harbourside-legal.test", undefined, { cache: false });
    expect(e.profile.companyNumber).toBe("01234567");
    expect(e.profile.sizeSignal).toContain("employees in the filed accounts not read (Companies House could not be read just now)");
    expect(e.profile.sizeSignal).not.toMatch(/average \d+ employees/);
  });

  it("the officers unreadable just now: not counted, said in the size signal, and the answer is not cached", async () => {
    const failing = (real: Services["companiesHouse"]): Services["companiesHouse"] =>
      Object.assign(Object.create(real) as Services["companiesHouse"], {
        getOfficers: async () => {
          throw new UpstreamError("companies-house", "refused", "Companies House answered 503.");
        },
      });
    const kept: Promise<unknown>[] = [];
    const ctx = { ...ctxAt("2026-11-25", undefined, failing), waitUntil: (p: Promise<unknown>) => void kept.push(p) };
    const e = await enrich(ctx, "harbourside-legal.test", undefined);
    expect(e.profile.companyNumber).toBe("01234567");
    expect(e.profile.sizeSignal).toContain("officers not counted: Companies House could not be read just now");
    expect(e.profile.sizeSignal).not.toMatch(/\d+ active officers?/);
    // Nothing was written to the cache (the cache write is the enrichment's only waitUntil).
    expect(kept).toHaveLength(0);
  });

  it("an answer missing the accounts just now is not cached: the next call reads them; a whole answer is cached", async () => {
    const failing = (real: Services["companiesHouse"]): Services["companiesHouse"] =>
      Object.assign(Object.create(real) as Services["companiesHouse"], {
        getFilingHistory: async () => {
          throw new UpstreamError("companies-house", "refused", "Companies House answered 503.");
        },
      });
    const kept: Promise<unknown>[] = [];
    const withCache = (ctx: OpContext): OpContext => ({ ...ctx, waitUntil: (p: Promise<unknown>) => void kept.push(p) });
    const q = "HTTPS://harbourside-legal.test";
    const degraded = await enrich(withCache(ctxAt("2026-11-25", undefined, failing)), q, undefined);
    await Promise.all(kept);
    expect(degraded.profile.sizeSignal).toContain("not read");
    const whole = await enrich(withCache(ctxAt("2026-11-25")), q, undefined);
    await Promise.all(kept);
    expect(whole.cached).toBe(false);
    expect(whole.profile.sizeSignal).toContain("average 23 employees");
    const again = await enrich(withCache(ctxAt("2026-11-25")), q, undefined);
    expect(again).toMatchObject({ cached: true, upstreamCalls: 0 });
    expect(again.profile.sizeSignal).toBe(whole.profile.sizeSignal);
  });

  it("upstream requests are counted as asked: the filing history, the document's metadata and the document", async () => {
    const withAccounts = await enrich(ctxAt("2026-11-25"), "harbourside-legal.test", undefined, { cache: false });
    const asked: string[] = [];
    const watching = (real: Services["companiesHouse"]): Services["companiesHouse"] =>
      Object.assign(Object.create(real) as Services["companiesHouse"], {
        getFilingHistory: async (n: string) => {
          asked.push(n);
          return null;
        },
      });
    const none = await enrich(ctxAt("2026-11-25", undefined, watching), "harbourside-legal.test", undefined, { cache: false });
    expect(asked).toEqual(["01234567"]);
    // No filing history: the metadata and the document are never asked, two requests fewer.
    expect(withAccounts.upstreamCalls - none.upstreamCalls).toBe(2);
  });

  it("over HTTP: the same signals in the reply, and the size signal's sources named", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/enrich?q=meadowcare.test", { key });
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.profile.signals.map((s: { code: string }) => s.code)).toEqual(expect.arrayContaining(["cqc-registered", "cqc-rating-concern"]));
  });
});
