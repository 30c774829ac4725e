import { z } from "@hono/zod-openapi";
import type { CqcLocationData } from "../../services/registers/catalogue";
import type { Entry } from "../../services/registers/types";
import { possibleMatchSentence } from "../../services/matching/certainty";
import { companyNotes, queriedAs } from "../../app/registers/lookup";
import { registerCheck } from "../../app/registers/registerCheck";
import { CheckReplyFields, Match, matchOut } from "../../app/registers/schemas";

const LOCATIONS_SHOWN = 100;

const Rating = z.string().nullable();
const KeyQuestions = z.object({ safe: Rating, effective: Rating, caring: Rating, responsive: Rating, wellLed: Rating }).nullable();

const Location = z.object({
  locationId: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  registrationStatus: z.string().describe("Registered or Deregistered."),
  registrationDate: z.string().nullable(),
  deregistrationDate: z
    .string()
    .nullable()
    .describe("CQC's own date of deregistration, when CQC gives it (the API does; the HSCA file of active locations does not)."),
  noticedGoneOn: z
    .string()
    .nullable()
    .describe("The date of the first edition this service read without the location: when the service noticed, not CQC's date."),
  overallRating: Rating,
  keyQuestions: KeyQuestions,
  ratingDate: z.string().nullable().describe("When CQC published the overall rating (else the latest key question's rating)."),
  lastInspectionDate: z.string().nullable(),
  lastReportDate: z.string().nullable(),
  town: z.string().nullable(),
  postcode: z.string().nullable(),
  careHome: z.boolean().nullable(),
  inheritedRating: z
    .boolean()
    .nullable()
    .describe("true when the rating was inherited from a previous provider (HSCA file), not given after inspecting this one; null when not known."),
});

const Provider = z.object({
  providerId: z.string(),
  name: z.string(),
  companyNumber: z.string().nullable(),
  charityNumber: z.string().nullable(),
  ownershipType: z.string().nullable(),
  registrationStatus: z.string(),
  registrationDate: z.string().nullable(),
  deregistrationDate: z.string().nullable(),
  overallRating: Rating,
  keyQuestions: KeyQuestions,
  ratingDate: z.string().nullable().describe("When CQC published the provider's rating, where CQC rates the provider itself."),
  lastInspectionDate: z.string().nullable(),
  match: Match.nullable(),
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    registered: z
      .boolean()
      .describe(
        "The provider, or at least one of its locations, is registered with CQC now, found by a definite match (see the match rule); false for a possible match.",
      ),
    summary: z.string(),
    provider: Provider.nullable(),
    locations: z.array(Location),
    locationsTotal: z.number().int(),
  })
  .openapi("CqcCheck");

/** A CQC entry that is a location. */
type LocationEntry = Omit<Entry<"cqc">, "data"> & { data: CqcLocationData };

/** The locations among CQC entries. */
const locationsIn = (entries: Entry<"cqc">[]): LocationEntry[] => entries.flatMap((e) => (e.data.kind === "location" ? [{ ...e, data: e.data }] : []));

function location(e: LocationEntry): z.infer<typeof Location> {
  const d = e.data;
  return {
    locationId: d.locationId,
    name: e.name,
    type: d.type,
    registrationStatus: e.removedOn ? "Deregistered" : e.status,
    registrationDate: d.registrationDate,
    deregistrationDate: d.deregistrationDate,
    noticedGoneOn: e.removedOn,
    overallRating: d.overallRating,
    keyQuestions: d.keyQuestions,
    ratingDate: d.ratingDate,
    lastInspectionDate: d.lastInspectionDate,
    lastReportDate: d.lastReportDate,
    town: d.address.town,
    postcode: d.address.postcode,
    careHome: d.careHome,
    inheritedRating: d.inheritedRating,
  };
}

export const checkCqcProvider = registerCheck({
  source: "cqc",
  operationId: "checkCqcProvider",
  path: "/api/v1/cqc-check",
  title: "CQC care provider check",
  summary: "A care provider's CQC registration, its locations, ratings and inspection dates.",
  description: `Finds the care provider (by company number, name or CQC id) and its locations on the Care Quality Commission register: registered or deregistered, overall rating and the five key questions (safe, effective, caring, responsive, well-led), the date of the rating, last inspection and report dates, and the changes the service recorded (added, deregistered, re-rated). Where each field comes from: the register is CQC's monthly HSCA file of active locations joined to CQC's ratings file of the same month ("Care directory with ratings", by location id and provider id), kept current daily from CQC's API. From the API: \`overallRating\` and the five key questions (its \`currentRatings\`) and \`lastInspectionDate\`, and for a location \`ratingDate\` (the rating's report date) and \`lastReportDate\`. From the files: \`overallRating\` and the five key questions are the ratings file's (the HSCA file's overall rating when that is the newer, and then no key questions), a location's \`ratingDate\` is the date CQC published its rating and \`lastReportDate\` the latest publication date of its ratings, \`inheritedRating\` is the HSCA file's, and \`lastInspectionDate\` is null, as neither file gives one. The ratings file rates few providers (NHS trusts and some independent healthcare), so most providers have no rating of their own: their locations are rated. A rating is given verbatim ("Not rated" and "Insufficient evidence to rate" included); a service CQC has not rated has null ratings. \`deregistrationDate\` is CQC's own date; \`noticedGoneOn\` is when this service first read an edition without the location. At most ${LOCATIONS_SHOWN} locations are listed; \`locationsTotal\` counts them all. Providers that are individuals are not loaded. Nothing found answers 404 with \`query\`.`,
  output: Output,
  positive: "registered",
  example: { company: "Meadow Care Homes Limited" },
  // Location and provider ids share one form (1-123456789): both are looked up.
  ownNumber: { field: ["locationId", "providerId"], label: "CQC id", pattern: /^1-\d{6,}$/, first: true },
  async reply({ company, found, base: shared, services }) {
    let providerEntry = found.found.find((f) => f.entry.data.kind === "provider");
    const providerId = providerEntry?.entry.data.providerId ?? found.found[0].entry.data.providerId;
    if (!providerEntry && providerId) {
      const [p] = await services.registers.entriesByKeys("cqc", [`provider:${providerId}`]);
      // Reached through the matched location: as sure as that match, no surer.
      if (p) providerEntry = { ...found.found[0], entry: p, match: { score: 0, matchedName: p.name, reasons: ["provider of the matched location"] } };
    }
    const locEntries = locationsIn(
      providerId ? await services.registers.entriesByDataField("cqc", "providerId", providerId, 2000) : found.found.map((f) => f.entry),
    );
    const locations = locEntries.map(location).sort((a, b) => a.registrationStatus.localeCompare(b.registrationStatus) || a.name.localeCompare(b.name));
    // A provider's entry (key `provider:<id>`) is always a provider's.
    const pd = providerEntry?.entry.data;
    const provider =
      providerEntry && pd?.kind === "provider"
        ? {
            providerId: pd.providerId,
            name: providerEntry.entry.name,
            companyNumber: providerEntry.entry.companyNumber,
            charityNumber: pd.charityNumber,
            ownershipType: pd.ownershipType,
            registrationStatus: providerEntry.entry.removedOn ? "Deregistered" : providerEntry.entry.status,
            registrationDate: pd.registrationDate,
            deregistrationDate: pd.deregistrationDate,
            overallRating: pd.overallRating,
            keyQuestions: pd.keyQuestions,
            // Not written by the API's provider records, nor by the first HSCA parser.
            ratingDate: pd.ratingDate ?? null,
            lastInspectionDate: pd.lastInspectionDate,
            match: providerEntry.match.score > 0 ? matchOut(providerEntry) : null,
          }
        : null;
    const keys = [...(providerEntry ? [providerEntry.entry.entity] : []), ...locEntries.map((e) => e.entity)];
    const base = await shared(keys);
    const registeredLocations = locations.filter((l) => l.registrationStatus === "Registered");
    const onRegister = provider?.registrationStatus === "Registered" || registeredLocations.length > 0;
    // The positive answer comes from a definite match only (issue 28 §1).
    const registered = onRegister && !found.possibleMatch;
    const who = provider?.name ?? locations[0]?.name ?? found.found[0].entry.name;
    const inadequate = registeredLocations.filter((l) => l.overallRating === "Inadequate").length;
    const summary = found.possibleMatch
      ? possibleMatchSentence(
          `${who} (${onRegister ? `listed as registered with CQC${provider?.overallRating ? `, overall rating ${provider.overallRating}` : ""}` : "deregistered"})`,
          queriedAs(found, company),
          found.certainty,
        )
      : registered
        ? `${who} is registered with CQC${locations.length ? ` with ${registeredLocations.length} registered location${registeredLocations.length === 1 ? "" : "s"}` : ""}${provider?.overallRating ? `; overall rating ${provider.overallRating}` : ""}${inadequate ? `; ${inadequate} location${inadequate === 1 ? " is" : "s are"} rated Inadequate` : ""}.`
        : `${who} is not registered with CQC now (deregistered).`;
    const inherited = registeredLocations.filter((l) => l.inheritedRating).length;
    const notes = inherited
      ? ` ${inherited} location rating${inherited === 1 ? " is" : "s are"} inherited from a previous provider, not from an inspection of this one.`
      : "";
    return {
      ...base,
      matchedOn: found.matchedOn,
      registered,
      summary: summary + notes + companyNotes(found),
      provider,
      locations: locations.slice(0, LOCATIONS_SHOWN),
      locationsTotal: locations.length,
    };
  },
});
