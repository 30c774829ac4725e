import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, json } from "../../helpers";
import { loadEnrichRegister } from "./register";

/** Issue 18 §2 demo (SPEC §4.7): keyless, one enrichment per IP per day, then 429 with Retry-After; a trimmed profile. */

const demo = (q: string, ip: string) => call(`/api/v1/demo?${new URLSearchParams({ q })}`, { headers: { "cf-connecting-ip": ip } });

beforeAll(loadEnrichRegister);
afterEach(() => vi.restoreAllMocks());

describe("SPEC §4.7 the keyless demo", () => {
  it("no key needed; a trimmed profile with the same matching rules", async () => {
    const r = await demo("bayside.test", "203.0.113.10");
    expect(r.status).toBe(200);
    const body = await json(r);
    expect(body.profile).toMatchObject({
      found: true,
      companyNumber: "07654321",
      name: "BAYSIDE HOSPITALITY LIMITED",
      website: "https://bayside.test/",
      confidence: "high",
    });
    expect(body.profile.services).toBeUndefined();
    expect(body.profile.accuracy).toBeUndefined();
    expect(body.profile.signals.length).toBeLessThanOrEqual(3);
    expect(body.demo.limit).toBe("one enrichment per IP address per day");
    expect(r.headers.get("x-credits-remaining")).toBeNull();
  });

  it("one per IP per day: the second call from the same address is 429 rate_limited with Retry-After; another address is not limited", async () => {
    expect((await demo("acme-widgets.test", "203.0.113.20")).status).toBe(200);
    const again = await demo("bayside.test", "203.0.113.20");
    expect(again.status).toBe(429);
    expect((await json(again)).code).toBe("rate_limited");
    const retry = Number(again.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect((await demo("acme-widgets.test", "203.0.113.21")).status).toBe(200);
  });

  it("a failure of ours (Companies House down: 503, never a miss) does not use the day's enrichment; a miss does", async () => {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) =>
      String(input instanceof Request ? input.url : input).includes("ch.test/company/")
        ? new Response("upstream connect error", { status: 502 })
        : real(input, init),
    );
    // A company number the bulk file does not list: only Companies House can answer it (one the file lists is answered
    // from the file, as of its date, when the live profile cannot be read: issue 28 §2).
    const down = await demo("09182736", "203.0.113.50");
    expect(down.status).toBe(503);
    expect((await json(down)).code).toBe("upstream_unavailable");
    vi.restoreAllMocks();
    expect((await demo("09182736", "203.0.113.50")).status).toBe(200);
    expect((await demo("bayside.test", "203.0.113.50")).status).toBe(429);
    // A miss is an answer: it uses the day's enrichment.
    expect((await json(await demo("down.test", "203.0.113.51"))).profile.found).toBe(false);
    expect((await demo("bayside.test", "203.0.113.51")).status).toBe(429);
  });

  it("issue 28 §2: the live status detail and where it comes from are kept, and risk signals come first", async () => {
    const body = await json(await demo("bayside.test", "203.0.113.60"));
    expect(body.profile).toMatchObject({ status: "active", statusDetail: "active-proposal-to-strike-off", registerSource: { statusFrom: "companies-house" } });
    expect(body.profile.signals[0]).toMatchObject({ code: "proposal-to-strike-off", kind: "risk" });
    const kinds = body.profile.signals.map((s: { kind: string }) => s.kind);
    expect(kinds).toEqual([...kinds].sort((a: string, b: string) => Number(b === "risk") - Number(a === "risk")));
  });

  it("bad input is 400 naming q and does not use the day's enrichment", async () => {
    const bad = await demo("", "203.0.113.30");
    expect(bad.status).toBe(400);
    expect((await json(bad)).message).toContain("q");
    expect((await demo("sunny-days.test", "203.0.113.30")).status).toBe(200);
  });

  it("the unconfirmed stays unconfirmed: no number for a site that states someone else's", async () => {
    const body = await json(await demo("brightbakes.test", "203.0.113.40"));
    expect(body.profile.companyNumber).toBeUndefined();
    expect(body.profile.registryNote).toContain("01234567");
  });
});
