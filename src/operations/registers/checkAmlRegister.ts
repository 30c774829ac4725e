import { z } from "@hono/zod-openapi";
import { possibleMatchSentence } from "../../services/matching/certainty";
import { companyNotes, queriedAs } from "../../app/registers/lookup";
import { registerCheck } from "../../app/registers/registerCheck";
import { CheckReplyFields, MatchBasis } from "../../app/registers/schemas";

const ENTRIES_SHOWN = 50;

const Registration = z.object({
  mlrNumber: z.string().nullable(),
  name: z.string(),
  businessName: z.string(),
  status: z
    .string()
    .describe(
      "Approved, Applied or Expired, as the register gives it (a value HMRC adds later is passed on verbatim). A registration no longer in the file keeps its last status and has `removedOn`.",
    ),
  sectors: z.array(z.string()),
  registeredSince: z.string().nullable(),
  seenSince: z.string().describe("First edition this service saw the registration in."),
  removedOn: z.string().nullable().describe("Date of the first register file without the registration; null while it is listed."),
  premises: z.number().int().describe("Premises (agent or branch rows) listed now: every row of the register is read, so this is the full count."),
  premisesAtLeast: z.number().int().optional().describe("Present only when not every premises could be read; then `premises` is a lower bound."),
  districts: z.array(z.string()).describe("Postcode districts of the premises."),
  definite: z.boolean().describe("This registration is the queried business for certain (see the match rule); false for a possible match."),
});

const EntryOut = z.object({
  mlrNumber: z.string().nullable(),
  name: z.string(),
  businessName: z.string(),
  tradingName: z.string().nullable(),
  postcodeDistrict: z.string().nullable(),
  status: z.string(),
  sectors: z.array(z.string()),
  registeredSince: z.string().nullable(),
  seenSince: z.string(),
  lastSeen: z.string().nullable(),
  removedOn: z.string().nullable(),
  match: z.object({ score: z.number(), reasons: z.array(z.string()), basis: MatchBasis, definite: z.boolean() }),
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    supervisedByHmrc: z
      .boolean()
      .describe(
        "true only when a registration found by a definite match (see the match rule) is listed now with status Approved; a possible match is false. Applied (being considered) and Expired are false. false does not mean unsupervised: another body (the FCA or a professional body) may supervise.",
      ),
    summary: z.string(),
    registrations: z.array(Registration),
    entries: z.array(EntryOut),
    entriesTotal: z.number().int(),
  })
  .openapi("AmlRegister");

export const checkAmlRegister = registerCheck({
  source: "aml",
  operationId: "checkAmlRegister",
  path: "/api/v1/aml-register",
  title: "HMRC money-laundering supervision register",
  summary: "Is a business on HMRC's register of businesses supervised under the Money Laundering Regulations?",
  description: `Looks the business up in HMRC's supervised business register (estate and letting agents, accountancy service providers, trust or company service providers, high value dealers, art market participants, money service businesses and bill payment and IT payment providers). \`company\` is a company number (its registered and former names, from Companies House, are matched) or a business name. The register has no company numbers, so name matches are scored and explained. Entries are premises: up to ${ENTRIES_SHOWN} are listed, \`entriesTotal\` counts all. \`history\` lists changes the service recorded between register files (kept since \`historySince\`). Not being on the register does not mean a business is unsupervised: the FCA or a professional body may supervise it. Nothing found answers 404 with \`query\`.`,
  output: Output,
  positive: "supervisedByHmrc",
  example: { company: "Harbour Formations Ltd" },
  // Modern `X?ML` numbers and the 8-digit legacy ones (the latter also look like company numbers: both are tried).
  ownNumber: { field: "mlrNumber", label: "MLR number", pattern: /^(?:X[A-Z]ML\d{11}|\d{8})$/i },
  async reply({ company, found, base: shared, services }) {
    const base = await shared();
    const entries = found.found.map(({ entry, match }, i) => ({
      mlrNumber: entry.data.mlrNumber,
      name: entry.name,
      businessName: entry.data.businessName,
      tradingName: entry.data.tradingName,
      postcodeDistrict: entry.data.postcodeDistrict,
      status: entry.status,
      sectors: entry.data.sectors,
      registeredSince: entry.data.registeredSince,
      seenSince: entry.firstSeen,
      lastSeen: entry.lastListed,
      removedOn: entry.removedOn,
      match: { score: match.score, reasons: match.reasons, basis: found.found[i].certainty.basis, definite: found.found[i].certainty.definite },
    }));
    // One registration per entity: its MLR number (a renamed business keeps it), or the business name where the row has none.
    const entityOf = new Map(found.found.map((f, i) => [entries[i], f.entry.entity]));
    const mlrs = [...new Set(entries.map((e) => e.mlrNumber).filter((m): m is string => !!m))];
    const counts = await services.registers.countByMlr(mlrs);
    const groups = new Map<string, typeof entries>();
    for (const e of entries) groups.set(entityOf.get(e)!, [...(groups.get(entityOf.get(e)!) ?? []), e]);
    const registrations = [...groups.values()].map((g) => {
      const listed = g.filter((e) => !e.removedOn);
      const lastRemoved =
        g
          .map((e) => e.removedOn!)
          .sort()
          .at(-1) ?? null;
      const shown = listed.length ? listed : g.filter((e) => e.removedOn === lastRemoved);
      const c = shown[0].mlrNumber ? counts.get(shown[0].mlrNumber) : undefined;
      return {
        mlrNumber: shown[0].mlrNumber,
        name: shown[0].name,
        businessName: shown[0].businessName,
        status: [...new Set(shown.map((e) => e.status))].join("; "),
        sectors: [...new Set(shown.flatMap((e) => e.sectors))].sort(),
        registeredSince:
          g
            .map((e) => e.registeredSince)
            .filter((d): d is string => !!d)
            .sort()[0] ?? null,
        seenSince: g.map((e) => e.seenSince).sort()[0],
        removedOn: listed.length ? null : lastRemoved,
        premises: listed.length ? (c?.premises ?? listed.length) : 0,
        districts: listed.length ? (c?.districts ?? [...new Set(listed.map((e) => e.postcodeDistrict).filter((d): d is string => !!d))].sort()) : [],
        definite: g.some((e) => e.match.definite),
      };
    });
    // The positive answer comes from definite matches only (issue 28 §1); possible ones are described, never affirmed.
    const current = registrations.filter((r) => r.removedOn === null && r.definite);
    const approved = current.filter((r) => r.status === "Approved");
    const describe = (r: (typeof registrations)[number]) =>
      `${r.mlrNumber ?? "no number"}: ${r.status === "Approved" ? "Approved" : r.status === "Applied" ? "Applied (being considered, not yet approved)" : r.status === "Expired" ? "Expired (listed, but the registration has expired)" : r.status}`;
    const elsewhere =
      "Not being supervised by HMRC does not mean a business is unsupervised: another body, such as the FCA or a professional body, may supervise it.";
    const top = registrations[0];
    const summary = found.possibleMatch
      ? `${possibleMatchSentence(`${top.businessName} (${top.removedOn ? `${top.mlrNumber ?? "no number"}, gone from the file of ${top.removedOn}` : describe(top)})`, queriedAs(found, company), found.certainty)} ${elsewhere}`
      : current.length
        ? `${current[0].businessName} is on HMRC's supervised business register (${current.map(describe).join("; ")}).${approved.length ? "" : ` No registration found is Approved. ${elsewhere}`}`
        : `No current HMRC registration was found for this business: it was on the register and is no longer in the file (last listed ${registrations
            .filter((r) => r.definite)
            .map((r) => `${r.mlrNumber ?? "no number"} as ${r.status}, gone from the file of ${r.removedOn}`)
            .join("; ")}). ${elsewhere}`;
    return {
      ...base,
      matchedOn: found.matchedOn,
      supervisedByHmrc: approved.length > 0,
      summary: summary + companyNotes(found),
      registrations,
      entries: entries.slice(0, ENTRIES_SHOWN),
      entriesTotal: entries.length,
    };
  },
});
