import { z } from "@hono/zod-openapi";
import { normaliseName } from "../../services/matching/names";
import { placeAgreement, possibleMatchSentence } from "../../services/matching/certainty";
import { companyNotes, queriedAs } from "../../app/registers/lookup";
import { registerCheck } from "../../app/registers/registerCheck";
import { CheckReplyFields, Match, matchOut } from "../../app/registers/schemas";

const Route = z.object({
  route: z.string().describe("The route under its current name (a route the Home Office renamed is shown under its new name)."),
  listedAs: z.string().optional().describe("The name the register edition lists the route under, when it differs from `route`."),
  typeAndRating: z.string().nullable(),
  rating: z.string().nullable(),
});

const Sponsor = z.object({
  name: z.string(),
  town: z.string().nullable(),
  towns: z
    .array(z.string())
    .describe("Every town the register lists the sponsor in (one sponsor, several sites; organisations sharing a name exactly cannot be told apart)."),
  county: z.string().nullable(),
  register: z.enum(["workers", "students"]),
  routes: z.array(Route),
  listed: z.boolean(),
  seenSince: z.string(),
  removedOn: z.string().nullable(),
  immigrationCompliance: z
    .string()
    .nullable()
    .describe("Students register: `Subject to Action Plan` when the Home Office has put the sponsor under an action plan; null otherwise."),
  match: Match,
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    licensed: z
      .boolean()
      .describe("On the current register of licensed sponsors (workers or students), by a definite match (see the match rule): false for a possible match."),
    summary: z.string(),
    sponsors: z.array(Sponsor),
    ratings: z.array(z.string()).describe("Ratings held now, e.g. A rating, B rating (under an action plan), A (Premium)."),
    townCheck: z
      .object({
        registeredOfficeTown: z.string().nullable(),
        registerTowns: z.array(z.string()),
        agrees: z.boolean().nullable().describe("null when the registered office is not known."),
        note: z.string(),
      })
      .describe("Does the register's town agree with the company's registered office?"),
  })
  .openapi("SponsorLicence");

const townKey = (t: string | null | undefined) => (t ? normaliseName(t) : "");

export const checkSponsorLicence = registerCheck({
  source: "sponsors",
  operationId: "checkSponsorLicence",
  path: "/api/v1/sponsor-licence",
  title: "Licensed visa sponsor check",
  summary: "Is the company on the Home Office register of licensed sponsors (workers and students)?",
  description:
    "Looks the organisation up on the Home Office registers of licensed sponsors (workers and temporary workers; students and child students): its routes and ratings (a B rating means the sponsor is under an action plan), a town check against the company's registered office, and the changes the service recorded (added, removed, returned, re-rated, moved). The register has no company numbers, so a company number is matched through the company's registered and former names; name matches are scored and explained. A licence revoked or surrendered simply disappears from the register. Nothing found answers 404 with `query`.",
  output: Output,
  positive: "licensed",
  example: { company: "Bayside Hotel Group Ltd" },
  async reply({ company, found, base: shared, services }) {
    const base = await shared();
    // One sponsor per entity (register and organisation name): its rows are its routes, in one or more towns.
    const byEntity = new Map<string, typeof found.found>();
    for (const f of found.found) byEntity.set(f.entry.entity, [...(byEntity.get(f.entry.entity) ?? []), f]);
    const groups = [...byEntity.values()].map((all): z.infer<typeof Sponsor> => {
      const listedRows = all.filter((f) => !f.entry.removedOn);
      // A sponsor no longer listed shows what it held when it was last listed.
      const lastRemoved =
        all
          .map((f) => f.entry.removedOn!)
          .sort()
          .at(-1) ?? null;
      const shown = listedRows.length ? listedRows : all.filter((f) => f.entry.removedOn === lastRemoved);
      const first = shown[0].entry;
      const routes: z.infer<typeof Route>[] = [];
      const towns: string[] = [];
      for (const { entry } of shown) {
        const d = entry.data;
        // The route under its current name (rows stored before routes were renamed carry only the name they were listed under).
        const route = d.currentRoute ?? d.route;
        const listedAs = d.route;
        // Workers: Type & Rating; students: the register's Status.
        const typeAndRating = d.register === "workers" ? d.typeAndRating : d.status;
        if (!routes.some((r) => r.route === route && r.typeAndRating === typeAndRating))
          routes.push({ route, ...(listedAs && listedAs !== route ? { listedAs } : {}), typeAndRating, rating: d.rating });
        if (entry.town && !towns.some((t) => townKey(t) === townKey(entry.town))) towns.push(entry.town);
      }
      return {
        name: first.name,
        town: first.town,
        towns,
        county: shown.map((f) => f.entry.data.county).find((c) => c) ?? null,
        register: first.data.register,
        routes,
        listed: listedRows.length > 0,
        seenSince: all.map((f) => f.entry.firstSeen).sort()[0],
        removedOn: listedRows.length ? null : lastRemoved,
        immigrationCompliance: shown.map(({ entry: { data: d } }) => (d.register === "students" ? d.immigrationCompliance : null)).find((c) => c) ?? null,
        match: matchOut(all.find((f) => f.certainty.definite) ?? all.reduce((best, f) => (f.match.score > best.match.score ? f : best), all[0])),
      };
    });
    const sponsors = groups.sort(
      (a, b) => Number(b.match.definite) - Number(a.match.definite) || b.match.score - a.match.score || Number(b.listed) - Number(a.listed),
    );
    // The positive answer comes from definite matches only (issue 28 §1).
    const listed = sponsors.filter((s) => s.listed && s.match.definite);
    const ratings = [...new Set(listed.flatMap((s) => s.routes.map((r) => r.rating).filter((r): r is string => !!r)))].sort();
    const office = found.profile?.registeredOffice.locality ?? null;
    const registerTowns = [...new Set(sponsors.filter((s) => s.listed).flatMap((s) => s.towns))];
    // The match rule's own place comparison (services/matching/certainty.ts), so the town check and the match never disagree.
    const agrees = office ? (placeAgreement({ town: office, postcode: null }, { towns: registerTowns, postcodes: [], districts: [] }).agrees ?? false) : null;
    const townNote =
      agrees === null
        ? "The company's registered office is not known (query by company number to check it)."
        : agrees
          ? `The register's town agrees with the registered office (${office}).`
          : `The register gives ${registerTowns.join(", ") || "no town"}, the registered office is in ${office}: sponsors often list a trading site, but check it is the same organisation.`;
    const top = sponsors[0];
    const describe = (s: (typeof sponsors)[number]) =>
      s.listed
        ? `${s.name}, listed as a sponsor (${s.register}; ${[...new Set(s.routes.map((r) => r.rating).filter(Boolean))].join(", ") || "rating not stated"})`
        : `${s.name}, no longer on the register (removed ${s.removedOn})`;
    const summary = listed.length
      ? `${listed[0].name} is a licensed sponsor (${[...new Set(listed.map((s) => s.register))].join(" and ")}; ${ratings.join(", ") || "rating not stated"}).${ratings.some((r) => /^B\b/.test(r)) ? " A B rating means the sponsor is under an action plan." : ""}${listed.some((s) => s.immigrationCompliance) ? ` As a student sponsor it is ${listed.find((s) => s.immigrationCompliance)!.immigrationCompliance}: the Home Office has put it under an action plan.` : ""}`
      : found.possibleMatch
        ? possibleMatchSentence(describe(top), queriedAs(found, company), found.certainty)
        : `${top.name} is no longer on the register of licensed sponsors (removed ${top.removedOn}); a licence that is revoked or surrendered disappears from the register.`;
    return {
      ...base,
      matchedOn: found.matchedOn,
      licensed: listed.length > 0,
      summary: summary + companyNotes(found),
      sponsors,
      ratings,
      townCheck: { registeredOfficeTown: office, registerTowns, agrees, note: townNote },
    };
  },
});
