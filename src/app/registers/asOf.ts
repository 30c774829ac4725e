import type { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import type { OpContext } from "../../platform/registry";
import type { Services } from "../../platform/services";
import { IsoDate } from "../../platform/schemas";
import type { CompanyProfile } from "../../services/companies/profile";
import { REGISTER_CATALOGUE as REGISTERS } from "../../services/registers/catalogue";
import type { RegisterSource } from "../../services/registers/types";
import type { LookupResult } from "./lookup";
import type { AsOfReply } from "./schemas";

type RegisterReads = Services["registers"];

/**
 * A register as it stood on a date (issue 33 §1): every register check, and licences-and-registers, can answer from the
 * editions the service has kept instead of the newest one. Each part of a register (the sponsors' workers and students
 * registers) is read at its newest edition published on or before the date; the reply names those editions and the
 * files they were loaded from. A date before the first edition kept is 422 naming the first date that can be answered
 * for; a date after today is 400.
 */

export const AsOfParam = IsoDate.describe(
  "Answer as the register stood on this date (YYYY-MM-DD): from the newest edition published on or before it, among the editions this service has kept. Not after today; a date before the first edition kept answers 422 `date_out_of_range` naming the first date it can answer for. Without it, the newest edition.",
);

export type AsOf = z.infer<typeof AsOfReply>;

const today = (ctx: OpContext) => ctx.now.toISOString().slice(0, 10);

/** The reads of `source` as it stood on `asOf`, after checking the date (400 after today, 422 before the first edition kept). */
export async function registerAt(ctx: OpContext, source: RegisterSource, asOf: string): Promise<RegisterReads> {
  if (asOf > today(ctx))
    throw new ApiError("bad_request", `\`asOf\`: ${asOf} is after today (${today(ctx)}); a register can be read as it stood on a past date or today.`, {
      field: "asOf",
    });
  const first = await ctx.services.registersAsOf.firstDate(source);
  if (!first || asOf < first)
    throw new ApiError(
      "date_out_of_range",
      first
        ? `\`asOf\`: the first edition of the ${REGISTERS[source].title} this service has kept is of ${first}; it can answer for ${first} or later, not ${asOf}.`
        : `\`asOf\`: this service has no edition of the ${REGISTERS[source].title} yet.`,
      { field: "asOf", details: { firstDate: first } },
    );
  return ctx.services.registersAsOf.at(asOf);
}

/** The company's name on a date, from its former names (null when its record does not reach that date). */
export function companyNameOn(profile: CompanyProfile, date: string): string | null {
  if (profile.incorporatedOn && date < profile.incorporatedOn) return null;
  for (const p of profile.previousNames) if ((!p.from || p.from <= date) && p.until && date < p.until) return p.name;
  return profile.name;
}

/** The `asOf` part of a reply: the date, the editions read, each organisation's first and last editions, and the note. */
export async function asOfReply(ctx: OpContext, source: RegisterSource, asOf: string, at: RegisterReads, found: LookupResult | null): Promise<AsOf> {
  const entries = found?.found.map((f) => f.entry) ?? [];
  const scopes = [...new Set(entries.map((e) => e.scope))];
  const editions = await at.editionsSeen(source, scopes.length ? scopes : undefined);
  // Where an organisation has left, the editions kept say when, also after the date asked for (the newest view).
  const now = entries.length ? await ctx.services.registers.entriesByKeys(source, [...new Set(entries.map((e) => e.key))]) : [];
  const leftNow = new Map(now.map((e) => [e.key, e.removedOn]));
  const seen = new Set<string>();
  const list = entries.flatMap((e) => {
    if (seen.has(e.key)) return [];
    seen.add(e.key);
    return [{ name: e.name, firstListed: e.firstSeen, leftOn: e.removedOn ?? leftNow.get(e.key) ?? null }];
  });
  const profile = found?.profile ?? null;
  return {
    date: asOf,
    editions: editions.map((e) => ({ part: e.scope || null, editionDate: e.editionDate, file: e.fileName, url: e.url, loadedAt: e.loadedAt })),
    entries: list,
    ...(profile ? { companyNameOnDate: companyNameOn(profile, asOf) } : {}),
    note: `The register's fields describe the ${REGISTERS[source].title} as it stood on ${asOf} (the edition${editions.length > 1 ? "s" : ""} of ${
      [...new Set(editions.map((e) => e.editionDate ?? "unknown date"))].join(" and ") || "no date"
    }). \`company\` (Companies House) describes the company today${profile ? "; `companyNameOnDate` is its name on that date" : ""}.`,
  };
}

/** A summary sentence said of the date: what follows is what the register's edition of that date said. */
export const summaryAsOf = (summary: string, a: AsOf): string =>
  `As the register stood on ${a.date} (edition of ${[...new Set(a.editions.map((e) => e.editionDate ?? "unknown date"))].join(" and ")}): ${summary}`;
