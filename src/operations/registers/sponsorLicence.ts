import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { normaliseName } from "../../services/matching/names";
import { CheckReplyFields, CompanyQuery, Match, checkReply, lookup } from "./lookup";

const Route = z.object({ route: z.string(), typeAndRating: z.string().nullable(), rating: z.string().nullable() });

const Sponsor = z.object({
  name: z.string(),
  town: z.string().nullable(),
  county: z.string().nullable(),
  register: z.enum(["workers", "students"]),
  routes: z.array(Route),
  listed: z.boolean(),
  seenSince: z.string(),
  removedOn: z.string().nullable(),
  match: Match,
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    licensed: z.boolean().describe("On the current register of licensed sponsors (workers or students)."),
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

export const sponsorLicence = defineOperation({
  operationId: "checkSponsorLicence",
  method: "get",
  path: "/api/v1/sponsor-licence",
  family: "registers",
  title: "Licensed visa sponsor check",
  summary: "Is the company on the Home Office register of licensed sponsors (workers and students)?",
  description:
    "Looks the organisation up on the Home Office registers of licensed sponsors (workers and temporary workers; students and child students): its routes and ratings (a B rating means the sponsor is under an action plan), a town check against the company's registered office, and the changes the service recorded (added, removed, returned, re-rated, moved). The register has no company numbers, so a company number is matched through the company's registered and former names; name matches are scored and explained. A licence revoked or surrendered simply disappears from the register. Nothing found answers 404 with `query`.",
  input: z.object({ company: CompanyQuery }),
  output: Output,
  price: 1,
  auth: "key",
  errors: ["not_found", "upstream_unavailable"],
  readOnly: true,
  example: { company: "Bayside Hotel Group Ltd" },
  async handler({ company }, ctx) {
    const found = await lookup(ctx.env, "sponsors", company);
    const base = await checkReply(ctx.env, "sponsors", found);
    const groups = new Map<string, z.infer<typeof Sponsor>>();
    for (const { entry, match } of found.found) {
      const d = entry.data;
      const register = d.register === "students" ? "students" : "workers";
      const id = `${register}|${normaliseName(entry.name)}|${townKey(entry.town)}`;
      const g = groups.get(id) ?? {
        name: entry.name,
        town: entry.town,
        county: (d.county as string | null) ?? null,
        register,
        routes: [],
        listed: false,
        seenSince: entry.firstSeen,
        removedOn: entry.removedOn,
        match,
      };
      g.routes.push({ route: String(d.route ?? ""), typeAndRating: (d.typeAndRating as string | null) ?? null, rating: (d.rating as string | null) ?? null });
      g.listed ||= !entry.removedOn;
      if (entry.firstSeen < g.seenSince) g.seenSince = entry.firstSeen;
      if (!entry.removedOn) g.removedOn = null;
      if (match.score > g.match.score) g.match = match;
      groups.set(id, g);
    }
    const sponsors = [...groups.values()].sort((a, b) => b.match.score - a.match.score || Number(b.listed) - Number(a.listed));
    const listed = sponsors.filter((s) => s.listed);
    const ratings = [...new Set(listed.flatMap((s) => s.routes.map((r) => r.rating).filter((r): r is string => !!r)))].sort();
    const office = found.profile?.registeredOffice.locality ?? null;
    const registerTowns = [...new Set(listed.map((s) => s.town).filter((t): t is string => !!t))];
    const agrees = office ? registerTowns.some((t) => townKey(t) === townKey(office)) : null;
    const townNote =
      agrees === null
        ? "The company's registered office is not known (query by company number to check it)."
        : agrees
          ? `The register's town agrees with the registered office (${office}).`
          : `The register gives ${registerTowns.join(", ") || "no town"}, the registered office is in ${office}: sponsors often list a trading site, but check it is the same organisation.`;
    const possible = found.found[0].match.score < 0.95 ? " This is a possible match by name only; confirm the organisation." : "";
    const summary = listed.length
      ? `${listed[0].name} is a licensed sponsor (${[...new Set(listed.map((s) => s.register))].join(" and ")}; ${ratings.join(", ") || "rating not stated"}).${ratings.some((r) => /^B\b/.test(r)) ? " A B rating means the sponsor is under an action plan." : ""}${possible}`
      : `${sponsors[0].name} is no longer on the register of licensed sponsors (removed ${sponsors[0].removedOn}); a licence that is revoked or surrendered disappears from the register.${possible}`;
    return {
      ...base,
      matchedOn: found.matchedOn,
      licensed: listed.length > 0,
      summary,
      sponsors,
      ratings,
      townCheck: { registeredOfficeTown: office, registerTowns, agrees, note: townNote },
    };
  },
});
