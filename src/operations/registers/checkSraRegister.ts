import { z } from "@hono/zod-openapi";
import { possibleMatchSentence } from "../../services/matching/certainty";
import { companyNotes, queriedAs } from "../../app/registers/lookup";
import { registerCheck } from "../../app/registers/registerCheck";
import { CheckReplyFields, Match, matchOut } from "../../app/registers/schemas";

/** workAreas longer than this are cut, with a final element counting the rest (SPEC §2.6). */
export const WORK_AREAS_SHOWN = 10;
const SRA_REGISTER_ENTRY = "https://www.sra.org.uk/consumers/register/organisation/?sraNumber=";

const Firm = z.object({
  sraNumber: z.number().int(),
  name: z.string(),
  companyNumber: z.string().nullable(),
  authorised: z.boolean(),
  status: z.string().describe("authorised, authorised with conditions, ceased, revoked or intervened (other values verbatim)."),
  statusCode: z.string().describe("The register's code; YES for authorised."),
  authorisedSince: z.string().nullable(),
  statusDate: z.string().nullable().describe("The date the current status took effect, as the SRA gives it."),
  statusMeaning: z.string().describe("What the status means for the firm's clients, in plain words."),
  kind: z.string().nullable().describe("recognised body, licensed body or sole practice."),
  constitution: z.string().nullable(),
  offices: z.number().int(),
  headOffice: z
    .object({
      name: z.string().nullable(),
      town: z.string().nullable(),
      county: z.string().nullable(),
      country: z.string().nullable(),
      website: z.string().nullable(),
      postcode: z.string().nullable(),
    })
    .nullable(),
  workAreas: z.array(z.string()),
  sraRegisterEntry: z.string(),
  listed: z.boolean().describe("false when the firm has dropped out of the register's data."),
  match: Match,
});

const Output = z
  .object({
    ...CheckReplyFields,
    authorised: z
      .boolean()
      .describe(
        "true only when an authorised firm is the queried company for certain: matched by SRA number, by the company number on the SRA's own record, or by the exact name asked for (or the company's current registered name). A firm found only through a former name or a near name is a possible match: `authorised` is false and `possibleMatch` says so.",
      ),
    summary: z.string(),
    firms: z.array(Firm),
    attribution: z.string().describe("The SRA's data-supply attribution."),
  })
  .openapi("SraCheck");

/** SPEC §2.6: what each status means, said plainly (an intervention most of all). */
const STATUS_MEANING: Record<string, string> = {
  authorised: "Authorised by the SRA to practise.",
  "authorised with conditions": "Authorised by the SRA, with conditions on how it may practise.",
  ceased: "No longer practising: the firm has closed or stopped offering regulated legal services.",
  revoked: "The SRA has revoked the firm's authorisation: it may not practise.",
  intervened: "The SRA has intervened: it has closed the practice and taken its client files and client money.",
};

export function cutWorkAreas(areas: string[]): string[] {
  if (areas.length <= WORK_AREAS_SHOWN) return areas;
  const rest = areas.length - (WORK_AREAS_SHOWN - 1);
  return [...areas.slice(0, WORK_AREAS_SHOWN - 1), `and ${rest} more`];
}

export const checkSraRegister = registerCheck({
  source: "sra",
  operationId: "checkSraRegister",
  path: "/api/v1/sra-check",
  title: "Solicitors Regulation Authority register check",
  summary: "Is a law firm authorised by the Solicitors Regulation Authority?",
  description: `Finds the firm on the SRA's register of organisations (firms only: no individual solicitor is loaded). \`company\` is matched in this order: a company number (the register's own company number first, then the company's registered and former names from Companies House), a firm name, or an SRA number. Status is authorised, authorised with conditions, ceased, revoked or intervened (the SRA has closed the practice and taken its files and client money); \`statusCode\` is \`YES\` for authorised. \`workAreas\` shows at most ${WORK_AREAS_SHOWN} entries, the last counting the rest. \`history\` holds changes the service recorded between daily copies (since \`historySince\`). Nothing found answers 404 with \`query\`.`,
  output: Output,
  positive: "authorised",
  example: { company: "Riverine Solicitors" },
  ownNumber: { field: "sraNumber", label: "SRA number", pattern: /^\d{5,7}$/, asNumber: true },
  async reply({ company, found, base: shared, services }) {
    const base = await shared();
    const firms = found.found.map((f) => {
      const { entry } = f;
      const d = entry.data;
      const ho = d.headOffice;
      return {
        sraNumber: d.sraNumber,
        name: entry.name,
        companyNumber: entry.companyNumber,
        authorised: !entry.removedOn && entry.status.startsWith("authorised"),
        status: entry.status,
        statusCode: d.statusCode ?? "",
        authorisedSince: d.authorisedSince,
        statusDate: d.statusDate,
        statusMeaning: STATUS_MEANING[entry.status] ?? `The SRA gives the status "${entry.status}".`,
        kind: d.kind,
        constitution: d.constitution,
        offices: d.offices,
        headOffice: ho ? { name: ho.name, town: ho.town, county: ho.county, country: ho.country, website: ho.website, postcode: ho.postcode } : null,
        workAreas: cutWorkAreas(d.workAreas),
        sraRegisterEntry: `${SRA_REGISTER_ENTRY}${d.sraNumber}`,
        listed: !entry.removedOn,
        match: matchOut(f),
      };
    });
    // The positive answer comes from definite matches only (issue 28 §1).
    const authorised = firms.some((f) => f.authorised && f.match.definite);
    const top = firms[0];
    const summary = found.possibleMatch
      ? `${possibleMatchSentence(`${top.name} (SRA ${top.sraNumber}, ${top.listed ? top.status : "no longer listed"})`, queriedAs(found, company), found.certainty)}${top.companyNumber ? ` The SRA lists company number ${top.companyNumber} for it.` : " The SRA lists no company number for it."}`
      : authorised
        ? `${top.name} (SRA ${top.sraNumber}) is ${top.status} by the Solicitors Regulation Authority.`
        : `${top.name} (SRA ${top.sraNumber}) is not currently authorised: ${top.listed ? `${top.status}${top.statusDate ? ` since ${top.statusDate}` : ""}. ${top.statusMeaning}` : "it is no longer listed in the register's data."}`;
    return { ...base, authorised, summary: summary + companyNotes(found), firms, attribution: base.provenance.attribution };
  },
});
