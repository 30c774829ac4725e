import { z } from "@hono/zod-openapi";
import { type SanctionsMatch, noDefiniteMatchSentence } from "../../services/sanctions/match";

/** A definite match on the UK sanctions list (SPEC §1 rule 6): the list entry, its regimes, the name type matched, and why. */
export const SanctionsMatchSchema = z
  .object({
    listId: z.string().describe("The list entry's unique id: its UK Sanctions List Unique ID (e.g. RUS2305)."),
    ofsiGroupId: z.string().nullable(),
    regimes: z.array(z.string()),
    nameType: z
      .enum(["primary", "variation", "alias", "former"])
      .describe("The kind of the list's name that matched (or primary when the match is by company number)."),
    matchedName: z.string().describe("The entity's name on the list that matched."),
    reasons: z
      .array(z.string())
      .describe("Why the match is definite: the same company number, or the identical normalised name and the corroborating facts (country, postcode)."),
  })
  .openapi("SanctionsMatch");

export const SanctionsCheck = z
  .object({
    checked: z.boolean().describe("False when this service has not loaded the UK sanctions list yet: nothing was checked."),
    listDate: z.string().nullable().describe("The date of the list checked."),
    definiteMatches: z.array(SanctionsMatchSchema).describe("Definite matches only; weaker resemblances are never reported, as matches or as clearances."),
    note: z.string().describe("With no definite match: 'No definite match on the UK sanctions list (list of …); this is not a clearance.'"),
  })
  .openapi("SanctionsCheck");

/** The sanctions block of a reply; `list` null when no list has been loaded. Individuals are never matched or named. */
export function sanctionsCheckOf(list: { listDate: string | null; definite: SanctionsMatch[] } | null): z.infer<typeof SanctionsCheck> {
  if (!list)
    return {
      checked: false,
      listDate: null,
      definiteMatches: [],
      note: "The UK sanctions list has not been loaded on this service yet, so it was not checked; this is not a clearance.",
    };
  const definiteMatches = list.definite
    .filter((m) => m.kind !== "individual")
    .map((m) => ({ listId: m.id, ofsiGroupId: m.ofsiGroupId, regimes: m.regimes, nameType: m.nameType, matchedName: m.matchedName, reasons: m.reasons }));
  return {
    checked: true,
    listDate: list.listDate,
    definiteMatches,
    note: definiteMatches.length
      ? `Definite match on the UK sanctions list (list of ${list.listDate ?? "unknown date"}).`
      : noDefiniteMatchSentence(list.listDate),
  };
}
