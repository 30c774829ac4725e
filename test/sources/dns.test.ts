import { afterEach, describe, expect, it, vi } from "vitest";
import { InputError, toApiError } from "../../src/platform/errors";
import { isLocalName } from "../../src/services/net/address";
import { createDohResolver } from "../../src/sources/dns/doh";
import { safeFetch } from "../../src/sources/web/safeFetch";
import { call, json } from "../helpers";

/**
 * Issue "hardening" §1: a public name that resolves to a private address is never connected to. Every host is
 * resolved first; any non-public address refuses it. No test here sends traffic anywhere: resolvers are injected
 * or stubbed, and a fetch to a refused host fails the test.
 */

afterEach(() => vi.restoreAllMocks());

const MAP: Record<string, string[]> = {
  "loopback-probe.co.uk": ["127.0.0.1"],
  "v6-loopback.co.uk": ["::1"],
  "mapped.co.uk": ["::ffff:127.0.0.1"],
  "mapped-hex.co.uk": ["::ffff:7f00:1"],
  "metadata.co.uk": ["169.254.169.254"],
  "rfc1918.co.uk": ["10.0.0.5"],
  "cgnat.co.uk": ["100.64.0.1"],
  "ula.co.uk": ["fd00::1"],
  "mixed.co.uk": ["93.184.216.34", "192.168.1.10"],
  "mixed6.co.uk": ["2606:4700::6810:85e5", "fe80::1"],
};
const resolve = async (host: string) => MAP[host] ?? ["93.184.216.34"];

/** Fails the test if anything is fetched. */
const noTraffic = () =>
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    throw new Error(`no traffic may be sent in this test: ${String(input instanceof Request ? input.url : input)}`);
  });

describe("issue: hardening §1 safeFetch resolves every host before connecting", () => {
  it("SPEC §4.7 a name resolving to a private address in any notation (IPv4, IPv6, IPv4-mapped, one of several) is refused before any connection", async () => {
    const fetchSpy = noTraffic();
    for (const host of Object.keys(MAP)) {
      const e = await safeFetch(`https://${host}/`, { resolve }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e, host).toBeInstanceOf(InputError);
      expect([host, (e as InputError).code]).toEqual([host, "blocked_address"]);
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("SPEC §4.7 special-use names (home.arpa, .onion, .alt, the reverse zones) are refused without resolving", () => {
    for (const h of ["home.arpa", "printer.home.arpa", "1.0.0.127.in-addr.arpa", "abc.onion", "x.alt", "intranet"]) expect(isLocalName(h), h).toBe(true);
    expect(isLocalName("example.co.uk")).toBe(false);
  });
});

describe("issue: hardening §1 the DNS-over-HTTPS resolver", () => {
  const answer = (entries: Array<{ type: number; data: string; TTL?: number }>, status = 0) => Response.json({ Status: status, Answer: entries });

  it("asks for A and AAAA, returns every address, caches briefly; NXDOMAIN is no address", async () => {
    const asked: string[] = [];
    let t = 1_000_000;
    const r = createDohResolver({
      url: "https://dns.test/dns-query",
      now: () => t,
      fetchImpl: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const u = new URL(String(input));
        asked.push(`${u.searchParams.get("name")} ${u.searchParams.get("type")}`);
        expect(new Headers(init?.headers).get("accept")).toBe("application/dns-json");
        if (u.searchParams.get("name") === "nope.co.uk") return answer([], 3);
        return u.searchParams.get("type") === "A"
          ? answer([
              { type: 5, data: "alias.example.net." },
              { type: 1, data: "93.184.216.34", TTL: 30 },
            ])
          : answer([{ type: 28, data: "2606:2800:220:1::1", TTL: 300 }]);
      }) as typeof fetch,
    });
    expect(await r("Example.co.uk.")).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(await r("example.co.uk")).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
    expect(asked).toEqual(["example.co.uk A", "example.co.uk AAAA"]); // the second came from the cache
    t += 31_000;
    await r("example.co.uk");
    expect(asked).toHaveLength(4); // the shortest TTL (30 s) passed
    expect(await r("nope.co.uk")).toEqual([]);
  });

  it("a resolver that cannot be reached, or answers an error, fails closed (upstream_unavailable), and nothing is fetched", async () => {
    for (const fetchImpl of [
      (async () => {
        throw new TypeError("Network connection lost.");
      }) as unknown as typeof fetch,
      (async () => new Response("busy", { status: 503 })) as unknown as typeof fetch,
      (async () => Response.json({ Status: 2 })) as unknown as typeof fetch,
    ]) {
      const r = createDohResolver({ url: "https://dns.test/dns-query", fetchImpl });
      const fetchSpy = noTraffic();
      const e = await safeFetch("https://www.example.co.uk/", { resolve: r }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ name: "UpstreamError", source: "dns" });
      expect(toApiError(e).code).toBe("upstream_unavailable");
      expect(fetchSpy).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    }
  });
});

describe("issue: hardening §1 company-logo checks the address first (resolver from configuration)", () => {
  it("SPEC §4.7 a public name resolving to 127.0.0.1 → 422 blocked_address, never connected; the resolver down → 503", async () => {
    const realFetch = globalThis.fetch;
    const hits: string[] = [];
    let resolverUp = true;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const u = new URL(input instanceof Request ? input.url : String(input));
      if (u.hostname === "dns.test") {
        if (!resolverUp) throw new TypeError("Network connection lost.");
        const name = u.searchParams.get("name")!;
        const type = u.searchParams.get("type");
        return Response.json({
          Status: 0,
          Answer: type === "A" && MAP[name] ? MAP[name].filter((a) => !a.includes(":")).map((data) => ({ type: 1, data, TTL: 5 })) : [],
        });
      }
      if (u.hostname !== "api.test") hits.push(u.hostname);
      return realFetch(input, init);
    });
    const blocked = await call("/api/v1/company-logo?domain=loopback-probe.co.uk", { headers: { "cf-connecting-ip": "198.51.100.77" } });
    expect(blocked.status).toBe(422);
    expect(await json(blocked)).toMatchObject({ code: "blocked_address" });
    resolverUp = false;
    const down = await call("/api/v1/company-logo?domain=resolver-down-probe.co.uk", { headers: { "cf-connecting-ip": "198.51.100.77" } });
    expect(down.status).toBe(503);
    expect(await json(down)).toMatchObject({ code: "upstream_unavailable" });
    expect(hits).toEqual([]); // neither site was ever connected to
  });
});
