import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { enrich } from "../../../src/app/enrichment/enrich";
import { logoImage } from "../../../src/app/web/logoImage";
import type { OpContext } from "../../../src/platform/registry";
import { type Services, buildServices } from "../../../src/platform/services";
import { UpstreamError } from "../../../src/shared/errors";
import { loadEnrichRegister } from "./register";

/**
 * The enrichment core when the websites a company's name suggests cannot be looked for (the DNS resolver down, an
 * upstream of ours): never "no website found". Fixture .test names never reach the resolver, so the safe fetcher is
 * stood in for: it fails as the resolver's failure does for the suggested domains, and reads the fixtures otherwise.
 */

const resolverDown = (real: Services["web"]): Services["web"] => ({
  fetch: async (url, opts) => {
    if (/bayside-?hospitality/.test(new URL(url).hostname))
      throw new UpstreamError("dns", "unreachable", "The DNS resolver could not be reached, so nothing was fetched; retry shortly.");
    return real.fetch(url, opts);
  },
});

const ctxOf = (): OpContext => {
  const base = buildServices(env as never);
  return {
    services: { ...base, web: resolverDown(base.web) },
    requestId: "req_enrich_core",
    origin: "http://api.test",
    caller: null,
    ip: "192.0.2.61",
    now: new Date("2026-11-25T09:00:00.000Z"),
    signal: new AbortController().signal,
    charge: async () => ({ charged: 0, remaining: 0 }),
    refund: () => {},
    waitUntil: () => {},
  };
};

beforeAll(loadEnrichRegister);

describe("issue 18 §1 an upstream of ours failing while a website is looked for", () => {
  it("a company number: the register's facts are the answer, without a website, and websiteNote says it could not be looked for", async () => {
    const e = await enrich(ctxOf(), "07654321", undefined, { cache: false });
    expect(e.profile).toMatchObject({ found: true, companyNumber: "07654321", name: "BAYSIDE HOSPITALITY LIMITED" });
    expect(e.profile.website).toBeUndefined();
    expect(e.profile.websiteNote).toMatch(/could not be looked for just now/);
  });

  it("such an answer says so in siteLookupUnavailable and is never cached; the logo image by that number is a 503, never the monogram", async () => {
    const ctx = ctxOf();
    const e = await enrich(ctx, "07654321", undefined);
    expect(e.siteLookupUnavailable).toMatch(/DNS resolver/);
    expect((await enrich(ctx, "07654321", undefined)).cached).toBe(false);
    const asked = logoImage(ctx, { company: "07654321", size: 64, format: "png", theme: "light", greyscale: false, fallback: "monogram" });
    await expect(asked).rejects.toBeInstanceOf(UpstreamError);
    await expect(asked).rejects.toThrow(/could not be looked for just now/);
  });

  it("a name: the failure propagates (a 503 with credits back), never 'no website confirming it was found'", async () => {
    await expect(enrich(ctxOf(), "Bayside Hospitality", undefined, { cache: false })).rejects.toBeInstanceOf(UpstreamError);
  });

  it("a domain whose site states its number: unaffected", async () => {
    const e = await enrich(ctxOf(), "bayside.test", undefined, { cache: false });
    expect(e.profile.companyNumber).toBe("07654321");
    expect(e.profile.websiteNote).toBeUndefined();
  });
});
