import { z } from "@hono/zod-openapi";
import { citeCompaniesHouse, citeEditions } from "../../app/registers/evidence";
import { defineOperation } from "../../platform/registry";
import type { Services } from "../../platform/services";
import { registerCompany } from "../../services/companies/profile";
import {
  PUBLIC_RECORD_KINDS,
  PUBLIC_RECORD_SOURCES,
  REGISTER_LABELS,
  TIMELINE_REGISTERS,
  type TimelineRegister,
  publicRecordTimeline,
} from "../../services/companies/publicRecord";
import { OGL } from "../../services/registers/catalogue";
import type { ChangeRow } from "../../services/registers/types";
import { NotFoundError } from "../../shared/errors";
import { CompaniesHouseProvenance, CompanyNumberQuery, companiesHouseProvenance, profileOf } from "../../app/companies/company";
import { lookup } from "../../app/registers/lookup";
import { Provenance, RegisteredCompany, provenanceOf } from "../../app/registers/schemas";

const PRICE = 3;
/** "a, b and c". */
const inWords = (xs: readonly string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
/** Recorded changes read per register entry set, and from the companies register. */
const REGISTER_HISTORY = 50;
const COMPANY_CHANGES = 100;

const Event = z
  .object({
    date: z.string().describe("YYYY-MM-DD."),
    kind: z
      .enum(PUBLIC_RECORD_KINDS)
      .describe(
        [
          "incorporated (profile's creation date); renamed (a former name's end date, profile; or a change of name the companies register or a filing recorded); dissolved (profile's cessation date, or a final Gazette filing);",
          "accounts-filed, confirmation-statement-filed, annual-return-filed, registered-office-changed, strike-off-action (first Gazette notice, discontinued, voluntary strike-off application), insolvency-filing, other-filing (any other filing, by its description key): the filing history;",
          "officers-appointed, officers-terminated, pscs-notified, pscs-ceased: per date, counted by role or kind, never named;",
          "charge-created, charge-satisfied: the charges list; insolvency-case-event: a dated step of an insolvency case, or its practitioners (counted) appointed or ceasing to act;",
          "gazette-notice: a corporate insolvency notice in The Gazette; register-change: a change one of our registers recorded; status-changed: a status change the companies register recorded.",
        ].join(" "),
      ),
    summary: z.string().describe("Plain words. Never a person's name."),
    source: z
      .enum(PUBLIC_RECORD_SOURCES)
      .describe(
        "companies-house-*: the Companies House public data API resource; the-gazette: The Gazette's notice feed; register-<id>: this service's register of that id (its recorded changes); register-companies: Companies House Basic Company Data, monthly.",
      ),
    evidence: z
      .object({
        transactionId: z.string().optional().describe("Companies House filing transaction id."),
        formType: z.string().optional().describe("Filing form type, e.g. AA, CS01, GAZ2."),
        description: z.string().optional().describe("Companies House's description key of the filing (filing_history_descriptions)."),
        chargeCode: z.string().optional(),
        chargeNumber: z.number().int().optional(),
        chargeId: z.string().optional(),
        caseNumber: z.string().optional().describe("Insolvency case number."),
        caseType: z.string().optional().describe("Insolvency case type, Companies House's code (e.g. compulsory-liquidation)."),
        dateType: z
          .string()
          .optional()
          .describe("Which date of the case, Companies House's code (e.g. petitioned-on), or practitioner-appointed-on / practitioner-ceased-to-act-on."),
        noticeId: z.string().optional().describe("The Gazette's notice id."),
        noticeCode: z.string().optional().describe("The Gazette's 4-digit notice code, e.g. 2450."),
        url: z.string().optional().describe("The notice's page on The Gazette."),
        matchedBy: z.string().optional().describe("How the notice was tied to the company: its company number, or its name and registered-office postcode."),
        dismissedBy: z.string().optional().describe("A petition to wind up (2450): the id of the later notice dismissing it (2461)."),
        register: z
          .string()
          .optional()
          .describe(`The register that recorded the change (${[...TIMELINE_REGISTERS, "companies"].join(", ")}).`),
        changeKind: z.string().optional().describe("The register's kind of change (added, removed, returned, status, re-rated, moved, renamed, …)."),
        changeId: z.number().int().optional().describe("The change's id in that register's change feed."),
      })
      .describe("Where to find the event at its source."),
    counted: z
      .object({
        total: z.number().int(),
        by: z
          .record(z.string(), z.number().int())
          .describe("By officer role, PSC kind (individual, corporate, legal-person, super-secure) or practitioner role, as Companies House codes them."),
      })
      .optional()
      .describe("Grouped events (officers, PSCs, insolvency practitioners): how many people or bodies, never who."),
  })
  .openapi("PublicRecordEvent");

const Read = z.object({
  read: z.number().int().describe("Items read."),
  total: z.number().int().nullable().describe("Items Companies House says there are."),
  truncated: z.boolean().describe("True when fewer were read than there are."),
});

const RegisterCoverage = z.object({
  register: z.enum(TIMELINE_REGISTERS),
  found: z
    .boolean()
    .describe(
      "Whether the company is on that register by a definite match (its company number on the register's record, or its current registered name, uncontradicted: the register checks' match rule). Only a definite match's changes are in the timeline.",
    ),
  possibleMatch: z
    .boolean()
    .describe(
      "An organisation matched only through a former or alternative name, or one its record contradicts: its changes are left out of the timeline (they may be another business's).",
    ),
  matchedBy: z.string().nullable(),
  changes: z.number().int().describe("Recorded changes in the timeline."),
  historySince: z.string().nullable().describe("The register's changes are recorded from this date (its first edition loaded here)."),
  truncated: z.boolean().describe(`True when only the newest ${REGISTER_HISTORY} changes were read.`),
});

const Coverage = z
  .object({
    filingHistory: Read.describe("The newest page of the filing history (up to 100 filings)."),
    officers: Read,
    pscs: Read.describe("Persons with significant control."),
    charges: z.object({ read: z.number().int(), total: z.number().int().nullable() }),
    insolvencyCases: z.number().int(),
    gazette: z.object({
      noticesRead: z.number().int().describe("Corporate insolvency notices The Gazette returned for the company's name."),
      matched: z.number().int().describe("Of those, the company's own (by its number, or its exact name and registered office's postcode)."),
      truncated: z.boolean().describe("True when The Gazette had more notices for the name than were read."),
    }),
    registers: z.array(RegisterCoverage).describe("Each of our registers searched for the company."),
    companiesRegister: z.object({
      editionDate: z.string().nullable().describe("The Basic Company Data edition answered from; null when none is loaded."),
      changes: z.number().int().describe("Changes it recorded for the company, as read (some are folded into Companies House's own events)."),
      truncated: z.boolean(),
    }),
    undated: z.number().int().describe("Records with no date, which a timeline cannot place (left out)."),
    filingsFolded: z
      .object({
        officers: z.number().int().describe("Officer filings (AP01, TM01, CH01, …): appointments and terminations come from the officer list."),
        pscs: z.number().int().describe("PSC filings (PSC01, PSC07, …): from the PSC list."),
        charges: z.number().int().describe("Mortgage filings (MR01, MR04, MG01, …): from the charges list."),
        sameAsProfile: z.number().int().describe("Filings given as the evidence of a profile event (NEWINC, change of name, GAZ2)."),
      })
      .describe("Filings read but not shown as events of their own."),
    notes: z.array(z.string()).describe("What the timeline does not cover, in plain words."),
  })
  .describe("What was read, and what is truncated.");

const GazetteProvenance = z.object({ source: z.string(), fetchedAt: z.string(), attribution: z.string(), licence: z.string() });

const Output = z
  .object({
    query: z.object({ company: z.string() }),
    company: RegisteredCompany,
    summary: z.string(),
    events: z.array(Event).describe("Newest first; events of one date in a fixed order of kind."),
    counts: z.record(z.string(), z.number().int()).describe("Events by kind (kinds with none are left out)."),
    coverage: Coverage,
    provenance: z
      .object({
        companiesHouse: CompaniesHouseProvenance,
        gazette: GazetteProvenance,
        registers: z
          .array(Provenance)
          .describe("The registers the timeline has changes from (the company's registers, and the companies register when it recorded changes)."),
      })
      .describe("Where the timeline comes from."),
  })
  .openapi("PublicRecord");

type RegisterRead = {
  register: TimelineRegister;
  found: boolean;
  possibleMatch: boolean;
  matchedBy: string | null;
  changes: ChangeRow[];
  edition: Parameters<typeof provenanceOf>[1] | null;
};

/** The company on one of our registers (as the register checks find it) and the changes recorded of its entries. */
async function registerRead(services: Services, register: TimelineRegister, number: string): Promise<RegisterRead> {
  let found: Awaited<ReturnType<typeof lookup>>;
  try {
    found = await lookup(services, register, number);
  } catch (e) {
    if (e instanceof NotFoundError) return { register, found: false, possibleMatch: false, matchedBy: null, changes: [], edition: null };
    throw e;
  }
  // The one match rule (issue 28 §1): only a definite match's changes are the company's.
  const sure = found.found.filter((f) => f.certainty.definite);
  if (!sure.length) return { register, found: false, possibleMatch: true, matchedBy: found.matchedBy, changes: [], edition: null };
  const entities = [...new Set(sure.map((f) => f.entry.entity))];
  const scopes = [...new Set(sure.map((f) => f.entry.scope))];
  const [changes, edition] = await Promise.all([
    services.registers.historyOf(register, entities, REGISTER_HISTORY),
    services.registers.editionInfo(register, scopes),
  ]);
  return { register, found: true, possibleMatch: false, matchedBy: found.matchedBy, changes, edition };
}

export const getPublicRecord = defineOperation({
  operationId: "getPublicRecord",
  method: "get",
  path: "/api/v1/public-record",
  family: "risk",
  title: "Public record timeline",
  summary:
    "A company's public record as one dated timeline, newest first: filings, officers and PSCs (counted), charges, insolvency, Gazette notices and the changes our registers recorded, each with its source.",
  description: [
    "Everything the public record dates about a company, newest first, each event with its `kind`, a plain `summary`, its `source` and the `evidence` to find it there:",
    "- **Companies House**: incorporation, renames (the dates former names ceased), dissolution; the filing history (accounts, confirmation statements, annual returns, registered-office changes, strike-off action, insolvency filings, other filings by form and description); officers' and persons with significant control's appointments and terminations; charges created and satisfied; the dated steps of insolvency cases.",
    "- **The Gazette**: corporate insolvency notices (category 24) by code and meaning. A notice is the company's when it carries its number (in the notice or its linked data), or its exact name and registered office's postcode. A petition to wind up that a later notice dismissed says so (`evidence.dismissedBy`).",
    `- **Our registers**: the changes this service recorded for the company on ${inWords(TIMELINE_REGISTERS.map((r) => `the ${REGISTER_LABELS[r]}`))} (found as the register checks find it: its number, or its registered or former names), and on Companies House's monthly Basic Company Data (status changes, moves, renames, listing).`,
    "",
    "People are counted, never named (SPEC §1 rule 7), for every caller: officers' and PSCs' appointments and terminations are grouped per date and counted by role or kind (`counted`); insolvency practitioners are counted; persons entitled to charges are left out; filings are described by form and description key, never by their details; Gazette notices by code, never by their text.",
    "",
    "One fact is one event: appointments and terminations come from the officer and PSC lists, so their filings (AP01, TM01, CH01, PSC01, PSC07, …) are not repeated; charges come from the charges list, so mortgage filings (MR01, MR04, MG01, …) are not repeated; the incorporation, change-of-name and final Gazette filings are the evidence of the profile's events; a rename or move the monthly companies register recorded is dropped when Companies House already dates it. `coverage.filingsFolded` counts what was folded.",
    "",
    "`coverage` says what was read: the filing history is read to its newest 100 filings (an older company's timeline says it covers the newest 100 of its total), officers and PSCs to 500, The Gazette to the newest 300 notices under the company's name, each register's newest 50 changes; records with no date are counted in `undated`. Our registers record changes only from their first edition loaded here (`historySince`).",
    "",
    `An unknown company is 404 with \`query\`. If Companies House or The Gazette cannot be read the answer is 503 and the credits are given back (SPEC §7), never a shorter timeline. Price: ${PRICE} credits. Companies House answers are cached for up to 12 hours (filings, officers and PSCs 6 hours), Gazette searches for 6 hours.`,
  ].join("\n"),
  input: z.object({ company: CompanyNumberQuery }),
  output: Output,
  price: PRICE,
  auth: "key",
  errors: ["not_found", "upstream_unavailable"],
  readOnly: true,
  receipt: true,
  example: { company: "01234567" },
  async handler({ company }, ctx) {
    const s = ctx.services;
    const profile = await profileOf(s, company);
    const number = profile.number;
    const ch = s.companiesHouse;
    const forNotices = { number, name: profile.name, previousNames: profile.previousNames.map((p) => p.name), postcode: profile.registeredOffice.postcode };
    const [filings, officers, pscs, charges, insolvency, gazette, registers, companyChanges, companiesEdition] = await Promise.all([
      ch.getFilingHistory(number),
      ch.getOfficers(number),
      ch.getPscs(number),
      ch.getCharges(number),
      ch.getInsolvency(number),
      s.gazette.insolvencyNotices(forNotices),
      Promise.all(TIMELINE_REGISTERS.map((r) => registerRead(s, r, number))),
      s.companiesRegister.companyChangesOf(number, COMPANY_CHANGES),
      s.companiesRegister.companiesEdition(),
    ]);
    // The receipt's evidence: Companies House and The Gazette as read now, each register's edition read, the companies register's.
    citeCompaniesHouse(ctx, "company profile, filing history, officers, persons with significant control, charges and insolvency");
    ctx.cite?.({ source: "The Gazette (insolvency notices)", kind: "upstream-read", fetchedAt: ctx.now.toISOString() });
    for (const r of registers) if (r.edition) await citeEditions(ctx, s.registers, r.register);
    if (companiesEdition) ctx.cite?.({ source: "Companies House Basic Company Data", kind: "register-edition", editionDate: companiesEdition.editionDate });
    const timeline = publicRecordTimeline({
      profile,
      filings,
      officers,
      pscs,
      charges,
      insolvency,
      notices: gazette.matched,
      registerChanges: registers.filter((r) => r.found).map((r) => ({ register: r.register, changes: r.changes })),
      companyChanges,
    });

    const readOf = (items: unknown[] | undefined, total: number | null | undefined) => {
      const read = items?.length ?? 0;
      const t = total ?? read;
      return { read, total: items ? t : 0, truncated: t > read };
    };
    const coverage = {
      filingHistory: readOf(filings?.items, filings?.totalCount),
      officers: readOf(officers?.items, officers?.totalResults),
      pscs: readOf(pscs?.items, pscs?.totalResults),
      charges: { read: charges?.items.length ?? 0, total: charges ? (charges.totalCount ?? charges.items.length) : 0 },
      insolvencyCases: insolvency?.cases.length ?? 0,
      gazette: { noticesRead: gazette.read, matched: gazette.matched.length, truncated: gazette.truncated },
      registers: registers.map((r) => ({
        register: r.register,
        found: r.found,
        possibleMatch: r.possibleMatch,
        matchedBy: r.matchedBy,
        changes: r.changes.length,
        historySince: r.edition?.historySince ?? null,
        truncated: r.changes.length >= REGISTER_HISTORY,
      })),
      companiesRegister: {
        editionDate: companiesEdition?.editionDate ?? null,
        changes: companyChanges.length,
        truncated: companyChanges.length >= COMPANY_CHANGES,
      },
      undated: timeline.undated,
      filingsFolded: timeline.filingsFolded,
      notes: [] as string[],
    };
    const notes = coverage.notes;
    if (coverage.filingHistory.truncated)
      notes.push(
        `The timeline covers the newest ${coverage.filingHistory.read} of the company's ${coverage.filingHistory.total} filings; older filings are not in it.`,
      );
    if (coverage.officers.truncated) notes.push(`Officers: ${coverage.officers.read} of ${coverage.officers.total} appointments were read and counted.`);
    if (coverage.pscs.truncated) notes.push(`Persons with significant control: ${coverage.pscs.read} of ${coverage.pscs.total} were read and counted.`);
    if (gazette.truncated)
      notes.push(`The Gazette has more insolvency notices under the company's name than were read (the newest ${gazette.read}); older notices may be missing.`);
    for (const r of coverage.registers) if (r.truncated) notes.push(`${r.register}: only the newest ${REGISTER_HISTORY} recorded changes are in the timeline.`);
    for (const r of coverage.registers)
      if (r.possibleMatch)
        notes.push(
          `${r.register}: an organisation matched the company only possibly (through a former or alternative name, or its record disagrees), so its changes are left out; see the register's own check.`,
        );
    if (coverage.companiesRegister.truncated) notes.push(`Companies register: only the newest ${COMPANY_CHANGES} recorded changes were read.`);
    if (!companiesEdition) notes.push("Companies House's monthly Basic Company Data is not loaded here, so its recorded changes are not in the timeline.");
    if (timeline.undated)
      notes.push(`${timeline.undated} record${timeline.undated === 1 ? " has" : "s have"} no date and ${timeline.undated === 1 ? "is" : "are"} left out.`);

    const events = timeline.events;
    const summary = events.length
      ? `${profile.name}: ${events.length} event${events.length === 1 ? "" : "s"} on the public record, ${events[events.length - 1].date} to ${events[0].date}${coverage.filingHistory.truncated ? ` (the newest ${coverage.filingHistory.read} filings)` : ""}.`
      : `${profile.name}: nothing dated on the public record.`;
    const registerProvenance = registers.filter((r) => r.found && r.edition).map((r) => provenanceOf(r.register, r.edition!));
    if (companyChanges.length && companiesEdition)
      registerProvenance.push(
        provenanceOf("companies", { editionDate: companiesEdition.editionDate, historySince: null, fetchedAt: companiesEdition.loadedAt }),
      );
    return {
      query: { company },
      company: registerCompany(profile),
      summary,
      events,
      counts: timeline.counts as Record<string, number>,
      coverage,
      provenance: {
        companiesHouse: companiesHouseProvenance(ctx.now),
        gazette: {
          source: "The Gazette, corporate insolvency notices (category 24)",
          fetchedAt: ctx.now.toISOString(),
          attribution: "Source: The Gazette. Crown copyright.",
          licence: OGL,
        },
        registers: registerProvenance,
      },
    };
  },
});
