import { enrich } from "../enrichment/enrich";
import { ApiError } from "../../platform/errors";
import { ImageReply, type OpContext } from "../../platform/registry";
import { sha256HexOf } from "../../platform/crypto";
import { IMAGE_LIMITS, probeImage } from "../../services/images/probe";
import { checkSvgBudget } from "../../services/images/svgBudget";
import { initialsOf, monogramColour, monogramSvg } from "../../services/images/monogram";
import type { LogoSize } from "../../services/images/sizes";
import type { LogoCandidate } from "../../services/logo/extractLogos";
import { addressBucket } from "../../services/net/clientBucket";
import { InputError, NotFoundError, UpstreamError } from "../../shared/errors";
import { lookupLogos } from "./logos";

/**
 * The logo image (issue 32): a domain's logo, or a company's by its number, as the image itself, for <img> tags. The
 * logo is company-logo's first choice (the next candidates when it is not a usable image), fetched once through the
 * safe fetcher, checked to be an image of a sane size (services/images/probe.ts), made to the asked size and format in
 * the readers Worker, and kept: in D1 (db/logos.ts) and in the data centre's cache. A repeat is served from either
 * without reading the site again and without counting against a limit.
 */

/** Uncached lookups a minute: per IP address (IPv6: per /64) without a key, per publishable key with one. */
export const LOGO_IMAGE_LIMITS = {
  keyless: { limit: 30, windowSeconds: 60 },
  publishable: { limit: 600, windowSeconds: 60 },
} as const;

/** How long a reply may be kept by browsers and caches, and how long an image made is reused. */
export const LOGO_MAX_AGE_S = 7 * 24 * 3600;
/** A monogram (no logo found) is kept for a day: the site may publish one. */
export const MONOGRAM_MAX_AGE_S = 24 * 3600;
/** A monogram given because the site could not be read just now is kept for an hour, and not stored. */
export const UNREAD_MAX_AGE_S = 3600;
/** A company's confirmed website is reused for this long (none confirmed: a day). */
const COMPANY_SITE_DAYS = 30;
/** Logo candidates tried, in order, when the first is not a usable image. */
const CANDIDATES_TRIED = 3;
/** Bumped when the images made change, so neither store serves the old ones. */
const IMAGE_VERSION = "1";

/** An SVG served as the site published it: never active content from our origin (no script, no loads, no navigation). */
export const SVG_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  "x-content-type-options": "nosniff",
} as const;

export interface LogoImageRequest {
  domain?: string;
  company?: string;
  size: LogoSize;
  format: "png" | "webp" | "svg";
  theme: "light" | "dark";
  greyscale: boolean;
  fallback: "monogram" | "404";
}

type Source = LogoCandidate["source"] | "monogram";

interface Made {
  bytes: Uint8Array;
  mime: string;
  source: Source;
  /** Seconds a browser or cache may keep it. */
  maxAge: number;
  /** Kept in D1 (false: the site could not be read just now). */
  store: boolean;
}

/** The logo image for one request: from the edge cache, from D1, or made now (counted against the caller's limit). */
export async function logoImage(ctx: OpContext, req: LogoImageRequest): Promise<ImageReply> {
  const subject = req.domain ? `d:${req.domain}` : `c:${req.company}`;
  const variant = `${subject}|${req.theme}|${req.size}|${req.format}|${req.greyscale ? "grey" : "colour"}|v${IMAGE_VERSION}`;
  const edgeKey = `${ctx.origin}/api/v1/company-logo/image?variant=${encodeURIComponent(variant)}`;
  const edge = ctx.services.edgeCache;

  const cached = await edge?.match(edgeKey);
  // A monogram kept for this variant is no answer to fallback=404: that asks whether the site has a logo.
  const noLogo = () =>
    new ApiError("not_found", `No usable logo was found for ${req.domain ?? `company ${req.company}`}.`, { query: req.domain ?? req.company });
  if (cached?.ok && req.fallback === "404" && cached.headers.get("x-logo-source") === "monogram") {
    await cached.body?.cancel();
    throw noLogo();
  }
  if (cached?.ok) {
    const headers: Record<string, string> = {};
    cached.headers.forEach((v, k) => {
      headers[k] = v;
    });
    headers["x-cache"] = "hit";
    return new ImageReply(new Uint8Array(await cached.arrayBuffer()), headers["content-type"], headers);
  }

  const now = ctx.now.getTime();
  const stored = await ctx.services.logos.logoImage(variant);
  if (stored) {
    const maxAge = stored.source === "monogram" ? MONOGRAM_MAX_AGE_S : LOGO_MAX_AGE_S;
    const age = Math.floor((now - stored.madeAt) / 1000);
    if (age >= 0 && age < maxAge) {
      if (req.fallback === "404" && stored.source === "monogram") throw noLogo();
      const reply = replyOf(stored.bytes, stored.mime, stored.etag, stored.source as Source, maxAge - age);
      if (edge) ctx.waitUntil(edge.put(edgeKey, responseOf(reply)));
      reply.headers["x-cache"] = "stored";
      return reply;
    }
  }

  const bucket = await takeLimit(ctx);
  let made: Made;
  try {
    made = await make(ctx, req);
  } catch (e) {
    // Our own failure (the image maker, the DNS resolver): the lookup is not counted against the caller.
    const ours = e instanceof ApiError ? e.status >= 500 : !(e instanceof InputError || e instanceof NotFoundError);
    if (ours) ctx.waitUntil(ctx.services.limits.release(bucket.name, bucket.windowSeconds, ctx.now.getTime()).catch(() => {}));
    throw e;
  }
  const etag = `"${(await sha256HexOf(made.bytes)).slice(0, 32)}"`;
  const reply = replyOf(made.bytes, made.mime, etag, made.source, made.maxAge);
  if (made.store)
    ctx.waitUntil(
      ctx.services.logos
        .putLogoImage({ variant, domain: subject, source: made.source, mime: made.mime, etag, bytes: made.bytes, madeAt: now })
        .catch(() => false),
    );
  if (edge) ctx.waitUntil(edge.put(edgeKey, responseOf(reply)));
  reply.headers["x-cache"] = "miss";
  return reply;
}

function replyOf(bytes: Uint8Array, mime: string, etag: string, source: Source, maxAge: number): ImageReply {
  const headers: Record<string, string> = {
    "cache-control": `public, max-age=${maxAge}, stale-while-revalidate=86400`,
    etag,
    "x-logo-source": source,
    // Other sites may show it (pages with Cross-Origin-Embedder-Policy too); nothing may sniff it as another type.
    "cross-origin-resource-policy": "cross-origin",
    "x-content-type-options": "nosniff",
  };
  if (mime === "image/svg+xml") Object.assign(headers, SVG_HEADERS);
  return new ImageReply(bytes, mime, headers);
}

const responseOf = (reply: ImageReply) => new Response(reply.bytes, { headers: { ...reply.headers, "content-type": reply.contentType } });

/** Counts an uncached lookup against the caller's limit: its publishable key's, or its IP address's. */
async function takeLimit(ctx: OpContext): Promise<{ name: string; windowSeconds: number }> {
  const pk = ctx.publishable;
  const { limit, windowSeconds } = pk ? LOGO_IMAGE_LIMITS.publishable : LOGO_IMAGE_LIMITS.keyless;
  const bucket = pk ? `pk:logo-image:${pk.key}` : `ip:logo-image:${addressBucket(ctx.ip, 64)}`;
  const taken = await ctx.services.limits.take(bucket, limit, windowSeconds, ctx.now.getTime());
  if (!taken.ok)
    throw new ApiError(
      "rate_limited",
      pk
        ? `At most ${limit} logos not yet cached a minute for this publishable key; logos already made are not counted. Retry later.`
        : `At most ${limit} logos not yet cached a minute per IP address without a key (logos already made are not counted); a publishable key allows ${LOGO_IMAGE_LIMITS.publishable.limit}. Retry later.`,
      { retryAfter: taken.retryAfterSeconds },
    );
  return { name: bucket, windowSeconds };
}

/** Why there is no logo to show, for the fallback or the 404. */
class NoLogo {
  constructor(
    readonly message: string,
    /**
     * The site could not be read just now (not "it has no logo"): its own failure, which fallback=404 answers as such
     * (422 with the fetch's code, as company-logo does), never as "not found".
     */
    readonly unread: InputError | null,
  ) {}
}

async function make(ctx: OpContext, req: LogoImageRequest): Promise<Made> {
  let domain = req.domain ?? null;
  let name = domain ?? "";
  if (req.company) {
    const company = await companySite(ctx, req.company);
    domain = company.domain;
    name = company.name;
  }
  const found = domain
    ? await fromSite(ctx, domain, req)
    : new NoLogo(`No website has been confirmed for company ${req.company} (SPEC §2.2), so it has no logo here.`, null);
  if (!(found instanceof NoLogo)) return found;
  if (req.fallback === "404") {
    if (found.unread) throw new InputError(found.unread.code, found.message, { query: req.domain ?? req.company });
    throw new ApiError("not_found", found.message, { query: req.domain ?? req.company });
  }
  return { ...(await monogram(ctx, name, req)), store: !found.unread, maxAge: found.unread ? UNREAD_MAX_AGE_S : MONOGRAM_MAX_AGE_S };
}

/** A company's website as enrichment confirms it (SPEC §2.2: the site must state the number, or name and postcode), and its name. */
async function companySite(ctx: OpContext, number: string): Promise<{ domain: string | null; name: string }> {
  const now = ctx.now.getTime();
  const kept = await ctx.services.logos.logoCompany(number);
  if (kept) {
    const days = (now - kept.resolvedAt) / 86_400_000;
    if (days >= 0 && days < (kept.domain ? COMPANY_SITE_DAYS : 1)) return { domain: kept.domain, name: kept.name };
  }
  const out = await enrich(ctx, number, undefined);
  if (!out.register) throw new NotFoundError(`No company with number ${number} is on the companies register.`, number);
  // The websites could not be looked for (our DNS resolver): not "no website", so no monogram and nothing kept (503).
  if (out.siteLookupUnavailable)
    throw new UpstreamError(
      "dns",
      "unreachable",
      `The website of company ${number} could not be looked for just now (${out.siteLookupUnavailable}); retry shortly.`,
    );
  const domain = out.site ? new URL(out.site.url).hostname.toLowerCase() : null;
  const row = { companyNumber: number, domain, name: out.register.name, resolvedAt: now };
  ctx.waitUntil(ctx.services.logos.putLogoCompany(row).catch(() => {}));
  return { domain, name: out.register.name };
}

/** The site's logo made to the request, or why there is none. Our own failures (the DNS resolver) propagate as 503. */
async function fromSite(ctx: OpContext, domain: string, req: LogoImageRequest): Promise<Made | NoLogo> {
  let candidates: LogoCandidate[];
  try {
    candidates = (await lookupLogos(ctx, domain)).reply.logos;
  } catch (e) {
    if (e instanceof NotFoundError) return new NoLogo(e.message, null);
    if (e instanceof InputError) return new NoLogo(`${domain}'s homepage could not be read: ${e.message}`, e);
    throw e;
  }
  // Dark: the site's dark-scheme logo when it offers one, else its default. Light: the default (dark variants come last).
  const ordered =
    req.theme === "dark" ? [...candidates.filter((c) => c.theme === "dark"), ...candidates.filter((c) => !c.theme)] : candidates.filter((c) => !c.theme);
  const reasons: string[] = [];
  let unread: InputError | null = null;
  for (const c of ordered.slice(0, CANDIDATES_TRIED)) {
    let file: { bytes: Uint8Array; kept: boolean };
    try {
      file = await logoFile(ctx, domain, req.theme, c);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      reasons.push(`${c.url}: ${e.message}`);
      unread ??= e;
      continue;
    }
    const probe = probeImage(file.bytes);
    if (!probe.ok) {
      reasons.push(`${c.url}: ${probe.message}`);
      continue;
    }
    // A real image: kept, so another size or format needs no fetch.
    if (!file.kept) ctx.waitUntil(keepFile(ctx, domain, req.theme, c, probe.image.mime, file.bytes));
    // An SVG asked for as SVG is served as published (sandboxed), within the same budget as one drawn; anything else is made into pixels.
    if (req.format === "svg" && probe.image.format === "svg") {
      const budget = checkSvgBudget(new TextDecoder().decode(file.bytes));
      if (!budget.ok) {
        reasons.push(`${c.url}: ${budget.message}`);
        continue;
      }
      return { bytes: file.bytes, mime: "image/svg+xml", source: c.source, maxAge: LOGO_MAX_AGE_S, store: true };
    }
    try {
      const made = await ctx.services.images.makeLogo(file.bytes, { size: req.size, format: req.format === "webp" ? "webp" : "png", greyscale: req.greyscale });
      return { bytes: made.bytes, mime: made.mime, source: c.source, maxAge: LOGO_MAX_AGE_S, store: true };
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      reasons.push(`${c.url}: ${e.message}`);
    }
  }
  return new NoLogo(`None of ${domain}'s logo images could be used (${reasons.join("; ") || "none found"}).`, unread);
}

/** The logo file: kept from an earlier fetch of the same URL, or fetched now through the safe fetcher (a non-2xx is its InputError). */
async function logoFile(ctx: OpContext, domain: string, theme: string, c: LogoCandidate): Promise<{ bytes: Uint8Array; kept: boolean }> {
  const kept = await ctx.services.logos.logoFile(domain, theme);
  if (kept?.bytes && kept.url === c.url && ctx.now.getTime() - kept.fetchedAt < LOGO_MAX_AGE_S * 1000) return { bytes: kept.bytes, kept: true };
  const r = await ctx.services.web.fetch(c.url, {
    accept: "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8",
    timeoutMs: 8_000,
    maxBytes: IMAGE_LIMITS.maxBytes,
  });
  return { bytes: r.body, kept: false };
}

/** Keeps a logo file that is a real image (db/logos.ts: at most 1 MiB of it). */
const keepFile = (ctx: OpContext, domain: string, theme: string, c: LogoCandidate, mime: string, bytes: Uint8Array) =>
  sha256HexOf(bytes)
    .then((sha256) => ctx.services.logos.putLogoFile({ domain, theme, url: c.url, source: c.source, mime, sha256, bytes, fetchedAt: ctx.now.getTime() }))
    .catch(() => {});

/** The monogram: the name's initials on its colour (grey for greyscale), made as the request asks; as our own SVG for format=svg. */
async function monogram(ctx: OpContext, name: string, req: LogoImageRequest): Promise<{ bytes: Uint8Array; mime: string; source: Source }> {
  if (req.format === "svg")
    return { bytes: new TextEncoder().encode(monogramSvg(name, { size: req.size, greyscale: req.greyscale })), mime: "image/svg+xml", source: "monogram" };
  const made = await ctx.services.images.makeMonogram(initialsOf(name), monogramColour(name, { greyscale: req.greyscale }), {
    size: req.size,
    format: req.format,
  });
  return { bytes: made.bytes, mime: made.mime, source: "monogram" };
}
