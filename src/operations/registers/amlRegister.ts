import { z } from "@hono/zod-openapi";
import { countByMlr } from "../../db/registers";
import { defineOperation } from "../../platform/registry";
import { CheckReplyFields, CompanyQuery, checkReply, lookup, textOf } from "./lookup";

const ENTRIES_SHOWN = 50;

const Registration = z.object({
  mlrNumber: z.string().nullable(),
  name: z.string(),
  businessName: z.string(),
  status: z.string().describe("Approved, Applied or Expired (other values verbatim)."),
  sectors: z.array(z.string()),
  registeredSince: z.string().nullable(),
  seenSince: z.string().describe("First edition this service saw the registration in."),
  premises: z.number().int().describe("Premises (agent or branch rows) listed now: every row of the register is read, so this is the full count."),
  premisesAtLeast: z.number().int().optional().describe("Present only when not every premises could be read; then `premises` is a lower bound."),
  districts: z.array(z.string()).describe("Postcode districts of the premises."),
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
  match: z.object({ score: z.number(), reasons: z.array(z.string()) }),
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    supervisedByHmrc: z.boolean().describe("false does not mean unsupervised: another body (the FCA or a professional body) may supervise."),
    summary: z.string(),
    registrations: z.array(Registration),
    entries: z.array(EntryOut),
    entriesTotal: z.number().int(),
  })
  .openapi("AmlRegister");


export const amlRegister = defineOperation({
  operationId: "checkAmlRegister",
  method: "get",
  path: "/api/v1/aml-register",
  family: "registers",
  title: "HMRC money-laundering supervision register",
  summary: "Is a business on HMRC's register of businesses supervised under the Money Laundering Regulations?",
  description: `Looks the business up in HMRC's supervised business register (estate and letting agents, accountancy service providers, trust or company service providers, high value dealers, art market participants, money service businesses and bill payment and IT payment providers). \`company\` is a company number (its registered and former names, from Companies House, are matched) or a business name. The register has no company numbers, so name matches are scored and explained. Entries are premises: up to ${ENTRIES_SHOWN} are listed, \`entriesTotal\` counts all. \`history\` lists changes the service recorded between register files (kept since \`historySince\`). Not being on the register does not mean a business is unsupervised: the FCA or a professional body may supervise it. Nothing found answers 404 with \`query\`.`,
  input: z.object({ company: CompanyQuery }),
  output: Output,
  price: 1,
  auth: "key",
  errors: ["not_found", "upstream_unavailable"],
  readOnly: true,
  example: { company: "Riverside Lettings Ltd" },
  async handler({ company }, ctx) {
    const found = await lookup(ctx.env, "aml", company);
    const base = await checkReply(ctx.env, "aml", found);
    const entries = found.found.map(({ entry, match }) => ({
      mlrNumber: textOf(entry.data.mlrNumber),
      name: entry.name,
      businessName: textOf(entry.data.businessName) ?? entry.name,
      tradingName: textOf(entry.data.tradingName),
      postcodeDistrict: textOf(entry.data.postcodeDistrict),
      status: entry.status,
      sectors: (entry.data.sectors as string[]) ?? [],
      registeredSince: textOf(entry.data.registeredSince),
      seenSince: entry.firstSeen,
      lastSeen: entry.lastListed,
      removedOn: entry.removedOn,
      match: { score: match.score, reasons: match.reasons },
    }));
    const mlrs = [...new Set(entries.map((e) => e.mlrNumber).filter((m): m is string => !!m))];
    const counts = await countByMlr(ctx.env.DB, mlrs);
    const groups = new Map<string, typeof entries>();
    for (const e of entries) groups.set(e.mlrNumber ?? `name:${e.businessName}`, [...(groups.get(e.mlrNumber ?? `name:${e.businessName}`) ?? []), e]);
    const registrations = [...groups.values()].map((g) => {
      const listed = g.filter((e) => !e.removedOn);
      const c = g[0].mlrNumber ? counts.get(g[0].mlrNumber) : undefined;
      return {
        mlrNumber: g[0].mlrNumber,
        name: g[0].name,
        businessName: g[0].businessName,
        status: listed.length ? listed[0].status : "Removed from the register",
        sectors: [...new Set(g.flatMap((e) => e.sectors))].sort(),
        registeredSince: g.map((e) => e.registeredSince).filter((d): d is string => !!d).sort()[0] ?? null,
        seenSince: g.map((e) => e.seenSince).sort()[0],
        premises: c?.premises ?? listed.length,
        districts: c?.districts ?? [...new Set(listed.map((e) => e.postcodeDistrict).filter((d): d is string => !!d))].sort(),
      };
    });
    const current = registrations.filter((r) => r.status !== "Removed from the register");
    const supervised = current.some((r) => r.status === "Approved" || r.status === "Applied");
    const strong = found.found[0].match.score >= 0.95;
    const summary = supervised
      ? `${current[0].businessName} is on HMRC's supervised business register (${current.map((r) => `${r.mlrNumber ?? "no number"}: ${r.status}`).join("; ")})${strong ? "" : "; this is a possible match by name only, so confirm the business"}.`
      : `No current HMRC registration was found for this business${registrations.length ? " (it was listed before and has been removed)" : ""}. That does not mean it is unsupervised: another body, such as the FCA or a professional body, may supervise it.`;
    return {
      ...base,
      matchedOn: found.matchedOn,
      supervisedByHmrc: supervised,
      summary,
      registrations,
      entries: entries.slice(0, ENTRIES_SHOWN),
      entriesTotal: entries.length,
    };
  },
});
