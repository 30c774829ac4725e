import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { UpstreamError } from "../../shared/errors";
import { defineOperation } from "../../platform/registry";
import { addressBucket } from "../../services/net/clientBucket";
import { enrich } from "../../app/enrichment/enrich";
import { Alternative, Q, Signal, StatusSource } from "../../app/enrichment/schemas";

/** SPEC §4.7 and §8: one enrichment per IP address per day. */
export const DEMO_IP_LIMIT = { limit: 1, windowSeconds: 86_400 };

const Output = z
  .object({
    query: z.object({ q: z.string() }),
    ms: z.number().int(),
    profile: z
      .object({
        found: z.boolean(),
        name: z.string().optional(),
        website: z.string().optional(),
        companyNumber: z.string().optional().describe("Absent when the business's own website does not confirm the company (as enrich)."),
        status: z.string().optional(),
        statusDetail: z.string().optional(),
        registerSource: StatusSource.optional(),
        sicCodes: z.array(z.string()).optional(),
        incorporationDate: z.string().optional(),
        whatTheyDo: z.string().optional(),
        signals: z.array(Signal).describe("At most three, risks first."),
        confidence: z.enum(["high", "medium", "low"]),
        alternatives: z.array(Alternative).optional().describe("At most three."),
        registryNote: z.string().optional(),
        attribution: z.string(),
      })
      .describe(
        "A trimmed BusinessProfile: enrich's answer without services, size, sector, sources or the accuracy breakdown, and at most three signals and alternatives.",
      ),
    demo: z.object({
      note: z.string(),
      limit: z.string().describe("The demo's limit, in words."),
    }),
  })
  .openapi("EnrichDemo");

export const enrichDemo = defineOperation({
  operationId: "enrichDemo",
  method: "get",
  path: "/api/v1/demo",
  family: "enrichment",
  title: "Enrichment demo (keyless)",
  summary: "Try enrichment without a key: one company name, domain or number per IP address per day, a trimmed profile.",
  description: [
    "The keyless demo of `GET /api/v1/enrich` (SPEC §4.7): the same enrichment, the same matching rules (the business's own website decides the company; unconfirmed gets no company number), trimmed to the profile's core: name, website, company number, status (with its detail and where it comes from, as enrich gives them), SIC codes, incorporation date, what the business does, up to three signals (risks first), confidence, up to three alternatives and the registry note.",
    "",
    `**Limit.** One enrichment per IP address (IPv6: per /64 network) per calendar day (UTC): a second call the same day answers 429 \`rate_limited\` with \`Retry-After\` (the seconds to midnight UTC). A call refused for bad input does not count, nor does one that fails on our side (a 503: an upstream or the DNS resolver could not be read); a miss (\`found: false\`) does. Answers are cached for 6 hours, shared with enrich. No key and no credits; for the full profile, batch and the rest, get a free key.`,
  ].join("\n"),
  input: z.object({ q: Q.openapi({ example: "harbourside-legal.co.uk" }) }),
  output: Output,
  price: 0,
  auth: "keyless",
  errors: ["rate_limited", "upstream_unavailable"],
  readOnly: true,
  timeoutMs: 45_000,
  example: { q: "harbourside-legal.co.uk" },
  async handler({ q }, ctx) {
    const started = Date.now();
    const bucket = `ip:demo:${addressBucket(ctx.ip, 64)}`;
    const limited = await ctx.services.limits.take(bucket, DEMO_IP_LIMIT.limit, DEMO_IP_LIMIT.windowSeconds, ctx.now.getTime());
    if (!limited.ok)
      throw new ApiError("rate_limited", "The demo allows one enrichment per IP address per day (UTC); retry after midnight UTC, or use a free key.", {
        retryAfter: limited.retryAfterSeconds,
      });
    let p: Awaited<ReturnType<typeof enrich>>["profile"];
    try {
      p = (await enrich(ctx, q, undefined)).profile;
    } catch (e) {
      // A failure of ours (an upstream, the DNS resolver) does not use up the day's enrichment.
      if (e instanceof UpstreamError) await ctx.services.limits.release(bucket, DEMO_IP_LIMIT.windowSeconds, ctx.now.getTime()).catch(() => {});
      throw e;
    }
    return {
      query: { q },
      ms: Date.now() - started,
      profile: {
        found: p.found,
        ...(p.name ? { name: p.name } : {}),
        ...(p.website ? { website: p.website } : {}),
        ...(p.companyNumber ? { companyNumber: p.companyNumber } : {}),
        ...(p.status ? { status: p.status } : {}),
        ...(p.statusDetail ? { statusDetail: p.statusDetail } : {}),
        ...(p.registerSource ? { registerSource: p.registerSource } : {}),
        ...(p.sicCodes ? { sicCodes: p.sicCodes } : {}),
        ...(p.incorporationDate ? { incorporationDate: p.incorporationDate } : {}),
        ...(p.whatTheyDo ? { whatTheyDo: p.whatTheyDo } : {}),
        // Risks first (a stable sort), so a proposal to strike off or an insolvency notice is never trimmed away.
        signals: [...p.signals].sort((a, b) => Number(b.kind === "risk") - Number(a.kind === "risk")).slice(0, 3),
        confidence: p.confidence,
        ...(p.alternatives ? { alternatives: p.alternatives.slice(0, 3) } : {}),
        ...(p.registryNote ? { registryNote: p.registryNote } : {}),
        attribution: p.attribution,
      },
      demo: {
        note: "A trimmed enrichment, free and without a key. The full profile (services, size, sector, accuracy breakdown, every signal) is GET /api/v1/enrich with a key.",
        limit: "one enrichment per IP address per day",
      },
    };
  },
});
