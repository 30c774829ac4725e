import { z } from "@hono/zod-openapi";
import { type Operation, defineOperation } from "../../platform/registry";
import { INPUT_LIMITS, IsoDate, strictInt, wordListPattern } from "../../platform/schemas";
import { CHANGE_RULES } from "../../services/registers/rules";
import type { RegisterSource } from "../../services/registers/types";
import { REGISTER_CATALOGUE as REGISTERS } from "../../services/registers/catalogue";
import { Provenance, provenanceOf } from "./schemas";

/**
 * The change feeds of the registers (SPEC §4.5, §4.8, §6.3): pull only, oldest first, paged.
 * One factory; each feed is declared in its own file with its source's kinds (attribution from the register catalogue).
 */

export const FEED_PRICE = 1;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = INPUT_LIMITS.feedLimit.max;

const encodeCursor = (id: number) => btoa(`c:${id}`).replace(/=+$/, "");
/** The change id a cursor stands for, or null when it is not one this feed gave out. */
function decodeCursor(c: string): number | null {
  try {
    const m = /^c:(\d{1,15})$/.exec(atob(c));
    if (m) return Number(m[1]);
  } catch {
    // fall through
  }
  return null;
}

/** The kinds asked for, lower case, once each. */
const kindsOf = (v: string) => [
  ...new Set(
    v
      .split(",")
      .map((k) => k.trim().toLowerCase())
      .filter(Boolean),
  ),
];

export interface FeedSpec {
  source: RegisterSource;
  operationId: string;
  path: string;
  title: string;
  /** What each kind means on this register (the kinds themselves come from CHANGE_RULES). */
  kindHelp: string;
  keptSince: string;
  /** CQC: filter changes to those whose rating before or after is this value (e.g. Inadequate). */
  ratingFilter?: boolean;
  /** The documented example's `since` (default 2026-10-07): a date the sample data has changes after, so the example shows some. */
  exampleSince?: string;
}

/** CQC's overall ratings, as the register writes them. */
const CQC_RATINGS = ["Outstanding", "Good", "Requires improvement", "Inadequate"] as const;

const ChangeOut = z.object({
  id: z.number().int(),
  date: z.string().describe("Edition date in which the change was seen."),
  kind: z.string(),
  name: z.string(),
  // The register's own identifier of the organisation (its catalogue entry's `changeIdentifier`): one of these.
  mlrNumber: z.string().nullable().optional().describe("HMRC register: the registration's MLR number (null for the rare row without one)."),
  sraNumber: z.number().int().optional().describe("SRA register: the firm's SRA number."),
  charityNumber: z.string().nullable().optional().describe("Charity register: the registered charity number."),
  locationId: z.string().optional().describe("CQC: the location id, for a location."),
  providerId: z.string().optional().describe("CQC: the provider id, for a provider."),
  register: z.string().optional().describe("Sponsors register (which has no sponsor number): workers or students."),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

export function changesFeed(spec: FeedSpec): Operation<z.ZodObject, z.ZodType> {
  const registerName = REGISTERS[spec.source].title;
  const rules = CHANGE_RULES[spec.source];
  const identify = REGISTERS[spec.source].changeIdentifier;
  const kindList: readonly string[] = rules.kinds;
  const never = Object.entries(rules.neverOccurs ?? {})
    .map(([k, why]) => ` \`${k}\` is accepted but matches nothing: ${why}.`)
    .join("");
  const Input = z.object({
    since: IsoDate.openapi({ example: "2026-10-07" }).describe("Changes seen on or after this date (YYYY-MM-DD)."),
    // Validated here, before any credit is taken (a bad kind is never charged, nor uses a burst slot).
    kind: z
      .string()
      .max(100)
      .regex(wordListPattern(kindList), `must be kinds of change on this feed, comma-separated: ${kindList.join(", ")}`)
      .superRefine((v, ctx) => {
        const bad = kindsOf(v).filter((k) => !kindList.includes(k));
        if (bad.length) ctx.addIssue({ code: "custom", message: `${bad.join(", ")} is not a kind of change on this feed; use ${kindList.join(", ")}` });
      })
      .optional()
      .describe(`Only these kinds of change, comma-separated: ${kindList.join(", ")}.`)
      .openapi({ example: kindList.slice(0, 2).join(",") }),
    ...(spec.ratingFilter
      ? {
          rating: z
            .string()
            .trim()
            .max(INPUT_LIMITS.rating.max)
            .transform((v, ctx) => {
              const r = CQC_RATINGS.find((x) => x.toLowerCase() === v.toLowerCase().replace(/\s+/g, " "));
              if (!r) ctx.addIssue({ code: "custom", message: `must be one of ${CQC_RATINGS.join(", ")}` });
              return r ?? v;
            })
            .optional()
            .openapi({ example: "Inadequate", enum: [...CQC_RATINGS] })
            .describe(`Only changes where the rating before or after is this value: ${CQC_RATINGS.join(", ")} (any letter case).`),
        }
      : {}),
    limit: strictInt(1, MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Changes per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}).`),
    cursor: z
      .string()
      .max(40)
      .refine((c) => decodeCursor(c) !== null, "is not a cursor this feed gave out")
      .optional()
      .describe("`nextCursor` from the previous page."),
  });
  const Output = z
    .object({
      query: z
        .object({ since: z.string(), kind: z.string().optional(), rating: z.string().optional(), limit: z.number().int(), cursor: z.string().optional() })
        .describe("The request, as read (SPEC §2.1)."),
      source: z.string(),
      since: z.string(),
      kinds: z.array(z.string()),
      changes: z.array(ChangeOut),
      more: z.boolean(),
      nextCursor: z.string().nullable(),
      historySince: z.string().nullable().describe("The service records changes from this date on."),
      registerDate: z.string().nullable(),
      provenance: Provenance,
    })
    .openapi(`${spec.operationId[0].toUpperCase()}${spec.operationId.slice(1)}Reply`);
  return defineOperation({
    operationId: spec.operationId,
    method: "get",
    path: spec.path,
    family: "registers",
    title: spec.title,
    summary: `Changes on the ${registerName} since a date, oldest first.`,
    description: `Every change the service recorded between editions of the ${registerName} on or after \`since\`, oldest first, one per organisation and kind: ${spec.kindHelp}${never} Filter with \`kind\` (comma-separated). Pages of up to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); pass \`nextCursor\` as \`cursor\` for the next page while \`more\` is true. Kept since ${spec.keptSince} (\`historySince\` gives this installation's first edition). The first edition loaded is the baseline and records no changes. Pull only.`,
    input: Input,
    output: Output,
    price: FEED_PRICE,
    auth: "key",
    errors: [],
    readOnly: true,
    example: { since: spec.exampleSince ?? "2026-10-07", kind: kindList.slice(0, 2).join(",") },
    async handler(input, ctx) {
      const i = input as z.infer<typeof Input> & { rating?: string };
      const kinds = i.kind ? kindsOf(i.kind) : null;
      const afterId = (i.cursor && decodeCursor(i.cursor)) || 0;
      const page = await ctx.services.registers.changesSince(spec.source, {
        since: i.since,
        kinds,
        afterId,
        limit: i.limit,
        filter: i.rating ? { field: "rating", value: i.rating } : undefined,
      });
      const edition = await ctx.services.registers.editionInfo(spec.source);
      const last = page.changes[page.changes.length - 1];
      return {
        query: {
          since: i.since,
          ...(i.kind ? { kind: i.kind } : {}),
          ...(i.rating ? { rating: i.rating } : {}),
          limit: i.limit,
          ...(i.cursor ? { cursor: i.cursor } : {}),
        },
        source: spec.source,
        since: i.since,
        kinds: kinds ?? [...kindList],
        changes: page.changes.map((c) => ({
          id: c.id,
          date: c.date,
          kind: c.kind,
          name: c.name,
          ...identify(c.key),
          before: c.before,
          after: c.after,
        })),
        more: page.more,
        nextCursor: page.more && last ? encodeCursor(last.id) : null,
        historySince: edition.historySince,
        registerDate: edition.editionDate,
        provenance: provenanceOf(spec.source, edition),
      };
    },
  }) as unknown as Operation<z.ZodObject, z.ZodType>;
}
