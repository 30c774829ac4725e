/**
 * A DNS-over-HTTPS resolver (JSON API: `GET <url>?name=<host>&type=A|AAAA`, `accept: application/dns-json`),
 * used by the safe fetcher to check every address a host resolves to before connecting (issue: hardening §1).
 * Answers are cached briefly per isolate. A resolver that cannot be reached fails closed: upstream_unavailable,
 * never "connect anyway". A name that does not exist resolves to no address.
 *
 * The limit, said honestly: DNS can change between this check and the connection (rebinding). The lasting
 * defence on Cloudflare is the platform, whose Workers cannot reach private networks; a self-hosted workerd
 * should run with the outbound network allow-list in deploy/workerd-public-only.capnp.
 */
import { UpstreamError } from "../../shared/errors";

interface DohAnswer {
  type?: number;
  data?: string;
  TTL?: number;
}

const A = 1;
const AAAA = 28;
const MAX_CACHE_MS = 60_000;

export function createDohResolver(cfg: { url: string; fetchImpl?: typeof fetch; timeoutMs?: number; now?: () => number }): (host: string) => Promise<string[]> {
  const cache = new Map<string, { addresses: string[]; until: number }>();
  const now = cfg.now ?? Date.now;
  const ask = async (host: string, type: "A" | "AAAA"): Promise<{ addresses: string[]; ttl: number }> => {
    const u = new URL(cfg.url);
    u.searchParams.set("name", host);
    u.searchParams.set("type", type);
    let res: Response;
    try {
      res = await (cfg.fetchImpl ?? fetch)(u.href, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(cfg.timeoutMs ?? 3_000) });
    } catch {
      throw new UpstreamError(
        "dns",
        "unreachable",
        "The DNS resolver could not be reached, so the address was not checked and nothing was fetched; retry shortly.",
      );
    }
    if (!res.ok)
      throw new UpstreamError(
        "dns",
        res.status === 429 ? "rate_limited" : "refused",
        `The DNS resolver answered HTTP ${res.status}, so nothing was fetched; retry shortly.`,
        { status: res.status },
      );
    let body: { Status?: number; Answer?: DohAnswer[] };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new UpstreamError("dns", "malformed", "The DNS resolver's answer could not be read, so nothing was fetched; retry shortly.");
    }
    if (body.Status === 3) return { addresses: [], ttl: 60 }; // NXDOMAIN
    if (body.Status !== 0)
      throw new UpstreamError("dns", "refused", `The DNS resolver could not answer for ${host} (status ${body.Status}); nothing was fetched.`);
    const want = type === "A" ? A : AAAA;
    const answers = (body.Answer ?? []).filter((a) => a.type === want && typeof a.data === "string");
    return { addresses: answers.map((a) => a.data!.trim()), ttl: Math.min(...answers.map((a) => a.TTL ?? 60), 60) };
  };
  return async (host) => {
    const name = host.toLowerCase().replace(/\.$/, "");
    const hit = cache.get(name);
    if (hit && hit.until > now()) return hit.addresses;
    const [a, aaaa] = await Promise.all([ask(name, "A"), ask(name, "AAAA")]);
    const addresses = [...a.addresses, ...aaaa.addresses];
    cache.set(name, { addresses, until: now() + Math.min(MAX_CACHE_MS, Math.max(0, Math.min(a.ttl, aaaa.ttl)) * 1000) });
    return addresses;
  };
}

/** One resolver (and its cache) per resolver URL, for the life of the isolate. */
const resolvers = new Map<string, (host: string) => Promise<string[]>>();
export function dohResolverFor(url: string): (host: string) => Promise<string[]> {
  let r = resolvers.get(url);
  if (!r) resolvers.set(url, (r = createDohResolver({ url })));
  return r;
}
