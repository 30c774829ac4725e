import { z } from "@hono/zod-openapi";
import type { WatchListRow } from "../../services/watch/records";
import { COMPANY_NUMBER_PATTERN, INPUT_LIMITS } from "../../platform/schemas";
import type { Reading } from "../../services/watch/reading";

/**
 * What the watch operations share (issue 15; SPEC §2.7, §3.1, §4.6): the Watch record with the last state seen,
 * and the Event (exactly the SPEC §2.7 fields).
 */

export const WatchCompany = z
  .string()
  .trim()
  .min(1, "is required")
  .max(12, "must be at most 12 characters")
  .regex(COMPANY_NUMBER_PATTERN, "must be a company number such as 01234567 or SC123456")
  .openapi({ example: "12300001" })
  .describe("A Companies House company number (e.g. 01234567, SC123456); unpadded numbers are padded.");

export const Label = z
  .string()
  .trim()
  .max(INPUT_LIMITS.label.max, `must be at most ${INPUT_LIMITS.label.max} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters")
  .describe(
    `Your own name for the watch (at most ${INPUT_LIMITS.label.max} characters), e.g. a supplier id. Given again on an existing watch, it replaces the label; an empty label clears it.`,
  );

const NotRead = z.object({ source: z.string(), since: z.string(), reason: z.string() });

export const LastSeen = z
  .object({
    readAt: z.string().describe("When the company was last read."),
    register: z
      .object({
        status: z.string(),
        statusDetail: z.string().nullable(),
        accountsOverdue: z.boolean(),
        accountsDueOn: z.string().nullable(),
        confirmationOverdue: z.boolean(),
        confirmationDueOn: z.string().nullable(),
        directors: z.number().int().nullable().describe("Active directors, counted (never named)."),
        pscs: z.number().int().nullable().describe("Active persons with significant control, counted (never named)."),
        idVerified: z
          .object({ directors: z.number().int().nullable(), pscs: z.number().int().nullable() })
          .describe("Directors and PSCs whose identity is verified."),
        idOverdue: z
          .object({ directors: z.number().int().nullable(), pscs: z.number().int().nullable() })
          .describe("Directors and PSCs whose identity statement is overdue."),
      })
      .nullable(),
    distress: z
      .object({
        strikeOffProposed: z.boolean().nullable(),
        insolvencyNotices: z.number().int().nullable().describe("Corporate insolvency notices in The Gazette matched to the company."),
        insolvencyCases: z.number().int().nullable(),
        charges: z.number().int().nullable(),
        chargesOutstanding: z.number().int().nullable(),
      })
      .nullable(),
    sanctions: z
      .object({
        checked: z.boolean(),
        listDate: z.string().nullable(),
        definiteMatches: z.array(z.string()).describe("List ids the company definitely matches; empty is no definite match, never a clearance."),
      })
      .nullable(),
    payments: z
      .object({
        reports: z.number().int(),
        latest: z
          .object({ reportId: z.number().int().nullable(), periodEnd: z.string(), avgDays: z.number().nullable(), pctLate: z.number().nullable() })
          .nullable(),
      })
      .nullable(),
    contracts: z.object({ awards: z.number().int(), newestAwardDate: z.string().nullable() }).nullable(),
    sponsors: z.object({ listedRoutes: z.number().int(), ratings: z.array(z.string()) }).nullable(),
    notRead: z
      .array(NotRead)
      .describe(
        "Sources that could not be read at the last read (register, distress, sanctions, payments, contracts, sponsors), with why: each keeps its previous reading (shown above) and is never reported as a change. A section never read yet is null.",
      ),
  })
  .openapi("WatchLastSeen");

export const Watch = z
  .object({
    company: z.string().describe("Company number."),
    name: z.string().nullable().describe("The registered name at the last read (null before the first)."),
    label: z.string().nullable(),
    state: z
      .enum(["watched", "paused"])
      .describe("paused: a month's credits could not be taken; the watch is kept and resumes when credits are there (see the description)."),
    addedAt: z.string(),
    lastReadAt: z.string().nullable().describe("The last daily read counted for this watch; null until its first (its baseline)."),
    paidFor: z.string().nullable().describe("YYYY-MM: the last calendar month (UTC) whose 2 credits were taken."),
    paused: z.object({ since: z.string(), reason: z.string() }).nullable(),
    lastSeen: LastSeen.nullable().describe("The last state seen of the company (null before its first read)."),
  })
  .openapi("Watch");

export const Event = z
  .object({
    id: z.number().int().describe("Increasing."),
    company: z.string().describe("Company number."),
    seenAt: z.string().describe("When the change was found (the daily read)."),
    kind: z.string().describe("One of the kinds in the description (e.g. payment_report)."),
    summary: z.string().describe("A plain sentence; it names the company and never a person."),
    before: z.record(z.string(), z.unknown()).describe("The reading before the change (the kind's shape)."),
    after: z.record(z.string(), z.unknown()).describe("The reading after the change."),
    deliveredToWebhook: z.boolean().describe("True once a delivery to your webhook succeeded (2xx within 15 s)."),
  })
  .openapi("WatchEvent");

type Ok<S> = Extract<S, { ok: true }>;
const ok = <S extends { ok: boolean }>(s: S | undefined): s is Ok<S> & S => !!s && s.ok;

/** The last state seen, from the kept reading (no person is in a reading). */
export function lastSeenOf(readingJson: string | null, unreadJson: string | null): z.infer<typeof LastSeen> | null {
  if (!readingJson) return null;
  let r: Reading;
  let notRead: z.infer<typeof NotRead>[];
  try {
    r = JSON.parse(readingJson) as Reading;
    notRead = unreadJson ? (JSON.parse(unreadJson) as z.infer<typeof NotRead>[]) : [];
  } catch {
    return null;
  }
  const reg = r.register;
  const dis = r.distress;
  return {
    readAt: r.readAt,
    register: ok(reg)
      ? {
          status: reg.status,
          statusDetail: reg.statusDetail,
          accountsOverdue: reg.accountsOverdue,
          accountsDueOn: reg.accountsDueOn,
          confirmationOverdue: reg.confirmationOverdue,
          confirmationDueOn: reg.confirmationDueOn,
          directors: reg.directors,
          pscs: reg.pscs,
          idVerified: { directors: reg.idv.directors?.verified ?? null, pscs: reg.idv.pscs?.verified ?? null },
          idOverdue: { directors: reg.idv.directors?.overdue ?? null, pscs: reg.idv.pscs?.overdue ?? null },
        }
      : null,
    distress: ok(dis)
      ? {
          strikeOffProposed: dis.strikeOff?.proposed ?? null,
          insolvencyNotices: dis.notices?.length ?? null,
          insolvencyCases: dis.cases?.length ?? null,
          charges: dis.charges?.length ?? null,
          chargesOutstanding: dis.charges ? dis.charges.filter((c) => !/satisfied/.test(c.status ?? "") || c.status === "part-satisfied").length : null,
        }
      : null,
    sanctions: ok(r.sanctions) ? { checked: r.sanctions.checked, listDate: r.sanctions.listDate, definiteMatches: r.sanctions.listIds } : null,
    payments: ok(r.payments)
      ? {
          reports: r.payments.reports,
          latest: r.payments.latest && {
            reportId: r.payments.latest.reportId,
            periodEnd: r.payments.latest.periodEnd,
            avgDays: r.payments.latest.avgDays,
            pctLate: r.payments.latest.pctLate,
          },
        }
      : null,
    contracts: ok(r.contracts) ? { awards: r.contracts.total, newestAwardDate: r.contracts.awards[0]?.awardDate ?? null } : null,
    sponsors: ok(r.sponsors)
      ? {
          listedRoutes: r.sponsors.entries.filter((e) => e.listed).length,
          ratings: [...new Set(r.sponsors.entries.filter((e) => e.listed && e.rating).map((e) => e.rating!))].sort(),
        }
      : null,
    notRead,
  };
}

export function watchReplyOf(row: WatchListRow): z.infer<typeof Watch> {
  return {
    company: row.company,
    name: row.name,
    label: row.label,
    state: row.state,
    addedAt: row.added_at,
    lastReadAt: row.last_read_at,
    paidFor: row.paid_period,
    paused: row.state === "paused" ? { since: row.paused_at ?? row.added_at, reason: row.paused_reason ?? "This month's credits could not be taken." } : null,
    lastSeen: lastSeenOf(row.reading, row.unread),
  };
}

/** The state table (SPEC §3.1) and the limits, for the descriptions. */
export const WATCH_RULES_DOC = `**Price and states** (SPEC §3.1). Watching a company costs 2 credits now, then 2 in each calendar month (UTC), taken at the company's first daily read of that month.
- not watched → watched: \`POST /api/v1/watch\` with enough credits (2 charged now). Without them: 429 \`quota_exhausted\` and nothing is added.
- watched → watched: the first daily read of a month takes the month's 2 credits.
- watched → **paused**: at that read the credits are not there. The watch is kept and says so (\`state: paused\`, \`paused.since\`, \`paused.reason\`); a paused watch is not read and produces no events.
- paused → watched: at each daily read a paused watch tries again and resumes the day the credits are there (a new month's allowance, or credits added), charged then; or at once with \`POST /api/v1/watch\` for the company (2 credits). A resumed watch starts from a fresh baseline: changes while it was paused are not reported.
- watched or paused → not watched: \`DELETE /api/v1/watch?company=\`. Its events stay in the feed.
Watching a company already watched is idempotent and charges nothing (a label given replaces the label).

**Limits.** Labels: at most ${INPUT_LIMITS.label.max} characters. Companies watched per account by plan: free 25, starter 500, growth 2,500, team 5,000, scale 10,000, enterprise 10,000; past it, 409 \`watch_limit_reached\`.`;
