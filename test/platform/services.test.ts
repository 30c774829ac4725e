import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { calculateLatePayment } from "../../src/operations/money/calculateLatePayment";
import { type CallMeta, execute } from "../../src/platform/gateway";
import { buildServices } from "../../src/platform/services";
import { createTestKey } from "../helpers";

const meta = (apiKey: string, extra: Partial<CallMeta> = {}): CallMeta => ({
  requestId: "req_services",
  headers: new Headers(),
  ip: "192.0.2.1",
  apiKey,
  waitUntil: () => {},
  ...extra,
});

describe("issue 10 §3: handlers receive their services, built in one place", () => {
  it("buildServices builds every client and store from env; an override replaces one and leaves the rest", () => {
    const stored = async () => null;
    const s = buildServices(env, { bankRates: { stored } });
    expect(s.bankRates.stored).toBe(stored);
    for (const k of ["companiesHouse", "registers", "accounts", "limits", "ledger", "messenger", "web", "cache"] as const) expect(s[k], k).toBeTruthy();
    expect(typeof s.companiesHouse.getProfile).toBe("function");
  });

  it("a test swaps in an in-memory service through execute(): late payment answers from a Bank Rate series that only the stand-in holds", async () => {
    const { key } = await createTestKey();
    // Past the repo's table and with nothing stored in D1, so without the stand-in this is 422 date_out_of_range.
    const input = { amount: "2400", due: "2031-03-02", paid: "2031-04-09" };
    const without = await execute(env, calculateLatePayment as never, input, meta(key));
    expect(without.status).toBe(422);
    const series = {
      changes: [
        ["2025-01-01", 4.0],
        ["2031-01-01", 3.0],
      ] as const,
      knownThrough: "2031-12-31",
      source: "stand-in series",
    };
    const withStandIn = await execute(env, calculateLatePayment as never, input, meta(key, { services: { bankRates: { stored: async () => series } } }));
    expect(withStandIn.status).toBe(200);
    expect(withStandIn.body).toMatchObject({ referenceDate: "2030-12-31", referenceRate: 4, rateApplied: 12, rateSource: "stand-in series" });
  });
});

describe("issue 10 §3: an operation never reads env to build a client", () => {
  const files = import.meta.glob("/src/operations/**/*.ts", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
  it("no operation module imports env.ts or touches ctx.env", () => {
    expect(Object.keys(files).length).toBeGreaterThan(15);
    const offenders = Object.entries(files)
      .filter(([, t]) => /ctx\.env\b|from "(?:\.\.\/)+env"/.test(t))
      .map(([f]) => f);
    expect(offenders).toEqual([]);
  });
});
