import { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { defineOperation } from "../../platform/registry";
import { AsOfParam, companyNameOn } from "../../app/registers/asOf";
import { citeCompaniesHouse, citeEditions } from "../../app/registers/evidence";
import { type CompanyProfile, registerCompany } from "../../services/companies/profile";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { ORGANISATION_REGISTERS, type OrganisationRegister, REGISTER_CATALOGUE, registerNumberOf } from "../../services/registers/catalogue";
import type { Entry } from "../../services/registers/types";
import { matchCompany } from "../../services/sanctions/match";
import { NotFoundError } from "../../shared/errors";
import { CompaniesHouseProvenance, CompanyNumberQuery, companiesHouseProvenance, profileOf } from "../../app/companies/company";
import { type Found, type LookupResult, type LookupServices, companyNotes, lookup } from "../../app/registers/lookup";
import { Match, Provenance, RegisteredCompany, matchOut, provenanceOf } from "../../app/registers/schemas";
import { SanctionsCheck, sanctionsCheckOf } from "../../app/risk/sanctions";

/**
 * licences-and-registers (SPEC §4.5, §1 rules 6–7): every register this service keeps, asked about one company
 * in one call. Each register is searched as its own check searches it (app/registers/lookup.ts: the company number on
 * the register's own record, then the company's registered and former names, exact matches only), never by a
 * near name; the sanctions list reports a definite match only. Registers hold organisations: nobody is named.
 */

/** The registers asked, in the order the reply lists them: the catalogue's organisation registers. */
const REGISTERS = ORGANISATION_REGISTERS;
type Checked = OrganisationRegister;

/** Organisations shown per register; `matchesTotal` counts them all. */
const MATCHES_SHOWN = 20;

/** A short name for each register, for summaries (its catalogue label). */
const SHORT = (r: Checked): string => REGISTER_CATALOGUE[r].label;

/** "a, b and c". */
const inWords = (xs: readonly string[]) => (xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);

/** The ways of matching, surest first. */
const HOW = ["company-number", "registered-name", "former-name", "alternative-name"] as const;
type How = (typeof HOW)[number];

const RegisterMatch = z
  .object({
    name: z.string().describe("The organisation's name on the register."),
    registerNumber: z
      .object({ type: z.string().describe("MLR number, SRA number, CQC provider id, CQC location id or charity number."), value: z.string() })
      .nullable()
      .describe("The register's own number for the organisation; null on the licensed sponsors register, which has none."),
    companyNumber: z
      .string()
      .nullable()
      .describe("The company number the register itself records (SRA, CQC and Charity Commission records carry one; HMRC's and the sponsors register do not)."),
    status: z
      .string()
      .describe(
        "The register's status as it gives it: e.g. Approved, Applied or Expired (HMRC); authorised, ceased, revoked or intervened (SRA); the route's type and rating (sponsors); Registered (CQC, Charity Commission). Several entries' distinct statuses are joined with '; '.",
      ),
    listed: z.boolean().describe("In the register's current edition. false: the service saw it in an earlier edition and it has since gone."),
    removedOn: z.string().nullable().describe("Date of the first edition without it; null while it is listed."),
    entries: z.number().int().describe("Rows of the register for this organisation (premises, routes, towns)."),
    town: z.string().nullable().describe("A town the register gives, where it gives one."),
    matchedBy: z
      .enum(HOW)
      .describe(
        "company-number: the register's own record carries the company's number. registered-name: the company's current name at Companies House. former-name: one of its former names. alternative-name: a trading or other name on the register. Only company-number and registered-name can be definite (see `definite`).",
      ),
    matchedCompanyName: z.string().nullable().describe("The Companies House name (current or former) that matched; null for a match by company number."),
    definite: z
      .boolean()
      .describe(
        "This organisation is the company for certain (the match rule of the register checks): false through a former or alternative name, or when the record contradicts the company (`contradictions`).",
      ),
    formerNameUntil: z.string().nullable().describe("For a former name: the date the company stopped using it, as Companies House gives it."),
    contradictions: z
      .array(z.string())
      .describe("What on the register's record disagrees with the company (another company number, another town or postcode)."),
    match: Match.describe(
      "How the register's name compared: `score` 1 exact, 0.95 the same apart from the legal form; `matchedName` is the register's name (or other or trading name) that matched.",
    ),
  })
  .openapi("RegisterMatch");

const RegisterResult = z
  .object({
    register: z.enum(REGISTERS).describe(`The register's id: ${REGISTERS.join(", ")}.`),
    name: z.string().describe("The register's full name."),
    checked: z
      .boolean()
      .describe("false when this service has not loaded the register yet: the company was not looked for on it, and `found` false says nothing."),
    found: z
      .boolean()
      .describe("The company is on the register's current edition: at least one organisation listed now is a definite match (see `possibleMatch`)."),
    formerlyListed: z
      .boolean()
      .describe("Not listed now, but the service saw an organisation matching the company in an earlier edition (see `matches[].removedOn`)."),
    status: z
      .string()
      .nullable()
      .describe(
        "The register's status for the organisations listed now (distinct values joined with '; '; on the CQC register, the provider's own when the provider matched). null when none is listed.",
      ),
    registerDate: z.string().nullable().describe("Date of the register edition answered from (for a company not found: the edition it is not in)."),
    matchedBy: z.string().nullable().describe("How the register was matched, in words; null when nothing matched."),
    possibleMatch: z
      .boolean()
      .describe(
        "true when every organisation found matched only through a former company name: the register may not have caught up with a change of name, or it may be another business that used the name. Confirm with the register number.",
      ),
    matches: z.array(RegisterMatch).describe(`The organisations matched, listed ones first; at most ${MATCHES_SHOWN}.`),
    matchesTotal: z.number().int(),
    note: z
      .string()
      .describe(
        "What the answer means in words: for a company not found, what the register does not cover (on HMRC's register, that another body such as the FCA or a professional body may supervise it).",
      ),
    provenance: Provenance,
  })
  .openapi("RegisterResult");

const Output = z
  .object({
    query: z.object({ company: z.string(), asOf: z.string().optional() }),
    company: RegisteredCompany,
    summary: z
      .string()
      .describe("Every register in one paragraph: where the company is, where it is not (with the register's date), and the sanctions answer."),
    foundOn: z.array(z.enum(REGISTERS)).describe("The registers the company is listed on now."),
    registers: z.array(RegisterResult).describe(`One result per register, in this order: ${REGISTERS.join(", ")}.`),
    sanctions: SanctionsCheck.describe("The UK sanctions list (SPEC §1 rule 6): a definite match only, never a maybe, and no match is never a clearance."),
    sanctionsProvenance: Provenance.nullable().describe("The sanctions list answered from; null when it has not been loaded."),
    asOf: z
      .object({
        date: z.string().describe("The date asked for."),
        firstDates: z
          .record(z.string(), z.string().nullable())
          .describe("Each register's first edition kept: the first date it can be read as of (a register without an edition by `date` is `checked: false`)."),
        companyNameOnDate: z
          .string()
          .nullable()
          .describe("The company's name on `date`, from Companies House's record of its former names (null before it was incorporated)."),
        note: z.string(),
      })
      .optional()
      .describe("Present when the request gave `asOf`: each register as it stood on that date (its `registerDate` is the edition answered from)."),
    provenance: CompaniesHouseProvenance.describe("Where `company` came from."),
  })
  .openapi("LicencesAndRegisters");

type Result = z.infer<typeof RegisterResult>;
type MatchOut = z.infer<typeof RegisterMatch>;

/** An entry's status as its register gives it. */
const ownStatus = (e: Entry) => e.status;

/**
 * A sponsor's status: its licence type and rating (workers: Type & Rating; students: the register's Status), and its
 * row's own status unless that is "listed" (a student sponsor's "Subject to Action Plan" is kept).
 */
const sponsorStatus = (e: Entry<"sponsors">) =>
  [e.data.register === "workers" ? e.data.typeAndRating : e.data.status, e.status === "listed" ? null : e.status].filter(Boolean).join("; ") || e.status;

/** An entry's status, by register. */
const STATUS_OF: { [S in Checked]: (e: Entry<S>) => string } = { aml: ownStatus, sra: ownStatus, sponsors: sponsorStatus, cqc: ownStatus, charity: ownStatus };

/** The organisations a lookup found, one per register entity (an MLR registration, a sponsor, a firm, a location, a charity). */
function organisations<S extends Checked>(source: S, profile: CompanyProfile, found: LookupResult<S>): MatchOut[] {
  const byEntity = new Map<string, Found<S>[]>();
  for (const f of found.found) byEntity.set(f.entry.entity, [...(byEntity.get(f.entry.entity) ?? []), f]);
  const out = [...byEntity.values()].map((all): MatchOut => {
    const listed = all.filter((f) => !f.entry.removedOn);
    const lastRemoved =
      all
        .map((f) => f.entry.removedOn!)
        .sort()
        .at(-1) ?? null;
    const shown = listed.length ? listed : all.filter((f) => f.entry.removedOn === lastRemoved);
    const best = all.find((f) => f.certainty.definite) ?? all.reduce((b, f) => (f.match.score > b.match.score ? f : b), all[0]);
    const first = shown[0].entry;
    const c = best.certainty;
    // Asked by company number, every name match is through the company's current or a former name, or a register's other name.
    const matchedBy: How =
      c.basis === "company-number" || c.basis === "register-number"
        ? "company-number"
        : c.basis === "former-name"
          ? "former-name"
          : c.basis === "alternative-name"
            ? "alternative-name"
            : "registered-name";
    return {
      name: first.name,
      registerNumber: registerNumberOf(source, first),
      companyNumber: shown.map((f) => f.entry.companyNumber).find((n) => n) ?? null,
      status: [...new Set(shown.map((f) => STATUS_OF[source](f.entry)).filter(Boolean))].join("; "),
      listed: listed.length > 0,
      removedOn: listed.length ? null : lastRemoved,
      entries: all.length,
      town: shown.map((f) => f.entry.town).find((t) => t) ?? null,
      matchedBy,
      matchedCompanyName: c.matchedCompanyName,
      definite: c.definite,
      formerNameUntil: c.formerNameUntil,
      contradictions: c.contradictions,
      match: matchOut(best),
    };
  });
  // Listed first, then the surest way of matching, a CQC provider before its locations, the best score, then by name.
  const provider = (m: MatchOut) => Number(m.registerNumber?.type === "CQC provider id");
  return out.sort(
    (a, b) =>
      Number(b.listed) - Number(a.listed) ||
      Number(b.definite) - Number(a.definite) ||
      HOW.indexOf(a.matchedBy) - HOW.indexOf(b.matchedBy) ||
      provider(b) - provider(a) ||
      b.match.score - a.match.score ||
      a.name.localeCompare(b.name),
  );
}

/** One register's answer for the company. */
async function registerResult<S extends Checked>(
  services: LookupServices,
  source: S,
  profile: CompanyProfile,
  asOf: { date: string; first: string | null } | null = null,
): Promise<Result> {
  const cat = REGISTER_CATALOGUE[source];
  const head = { register: source, name: cat.title };
  const whole = await services.registers.editionInfo(source);
  /** Not looked for on this register, with why: the reply says nothing either way. */
  const notChecked = (note: string): Result => ({
    ...head,
    checked: false,
    found: false,
    formerlyListed: false,
    status: null,
    registerDate: null,
    matchedBy: null,
    possibleMatch: false,
    matches: [],
    matchesTotal: 0,
    note,
    provenance: provenanceOf(source, whole),
  });
  const NOT_LOADED = "This service has not loaded this register yet, so the company was not looked for on it: this says nothing either way.";
  // As of a date before this register's first edition kept: not looked for, and said so.
  if (asOf && (!asOf.first || asOf.date < asOf.first))
    return notChecked(
      asOf.first
        ? `The first edition of this register this service has kept is of ${asOf.first}, after ${asOf.date}: the company was not looked for on it, and this says nothing either way.`
        : NOT_LOADED,
    );
  if (!whole.editionDate) return notChecked(NOT_LOADED);
  let found: LookupResult<S> | null = null;
  try {
    // The company number only: no register's own number is tried (an 8-digit company number can look like an MLR number).
    found = await lookup(services, source, profile.number);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
  }
  if (!found?.found.length) {
    const how = cat.companyNumbers
      ? "under its company number or its registered or former names"
      : "under its registered or former names (the register carries no company numbers)";
    return {
      ...head,
      checked: true,
      found: false,
      formerlyListed: false,
      status: null,
      registerDate: whole.editionDate,
      matchedBy: null,
      possibleMatch: false,
      matches: [],
      matchesTotal: 0,
      note: `Not on this register (edition of ${whole.editionDate}) ${how}. ${cat.notFound}`,
      provenance: provenanceOf(source, whole),
    };
  }
  // The dates of the parts the entries come from (sponsors: workers and students are published apart).
  const edition = await services.registers.editionInfo(source, [...new Set(found.found.map((f) => f.entry.scope))]);
  const all = organisations(source, profile, found);
  const listed = all.filter((m) => m.listed);
  // The one match rule (issue 28 §1): found only through a definite match; listed but none definite is a possible match.
  const sure = listed.filter((m) => m.definite);
  const possibleMatch = listed.length > 0 && sure.length === 0;
  const shownListed = sure.length ? sure : listed;
  const providers = shownListed.filter((m) => m.registerNumber?.type === "CQC provider id");
  const lead = providers.length ? providers : shownListed;
  const notes: string[] = [];
  if (!listed.length)
    notes.push(
      `The company is no longer listed: ${all.some((m) => m.definite) ? "it was" : "an organisation possibly matching it was"} in earlier editions (gone from the edition of ${all[0].removedOn}).`,
    );
  if (possibleMatch || (!listed.length && !all.some((m) => m.definite))) notes.push(`Possible match only: ${found.certainty.toConfirm ?? ""}`.trim());
  if (possibleMatch) {
    const m = listed[0];
    notes.push(
      m.matchedBy === "former-name"
        ? `${m.name} matched through the company's former name ${m.matchedCompanyName}${m.formerNameUntil ? ` (used until ${m.formerNameUntil})` : ""}.`
        : m.matchedBy === "alternative-name"
          ? `${m.name} matched through an alternative name on the register (${m.match.matchedName}).`
          : `${m.name} matched by name, but ${m.contradictions.join("; ")}.`,
    );
  }
  if (source === "aml" && !possibleMatch && !sure.some((m) => m.status.split("; ").includes("Approved")))
    notes.push(`No registration found is Approved. ${cat.notFound.split(". ")[0]}.`);
  return {
    ...head,
    checked: true,
    found: sure.length > 0,
    formerlyListed: listed.length === 0,
    // A CQC provider's own status stands for it (its locations' are in `matches`).
    status: shownListed.length ? [...new Set(lead.flatMap((m) => m.status.split("; ")))].join("; ") : null,
    registerDate: edition.editionDate,
    matchedBy: found.matchedBy,
    possibleMatch,
    matches: all.slice(0, MATCHES_SHOWN),
    matchesTotal: all.length,
    note: notes.join(" ") || `On this register (edition of ${edition.editionDate}).`,
    provenance: provenanceOf(source, edition),
  };
}

function summaryOf(company: { name: string; number: string }, results: Result[], sanctionsNote: string, notes: string): string {
  const who = `${company.name} (${company.number})`;
  const on = results.filter((r) => r.found);
  const maybe = results.filter((r) => r.possibleMatch);
  const gone = results.filter((r) => r.formerlyListed);
  const absent = results.filter((r) => r.checked && !r.found && !r.possibleMatch && !r.formerlyListed);
  const unchecked = results.filter((r) => !r.checked);
  const parts = [
    on.length
      ? `${who} is on ${on.map((r) => `the ${SHORT(r.register)} (${r.status})`).join(", ")}.`
      : maybe.length
        ? ""
        : `${who} is on none of the registers checked.`,
    maybe.length
      ? `Possible match only on ${maybe.map((r) => `the ${SHORT(r.register)} (${r.matches[0]?.name}, ${r.status}; through ${r.matches[0]?.matchedBy === "former-name" ? `the former name ${r.matches[0]?.matchedCompanyName}` : r.matches[0]?.matchedBy === "alternative-name" ? "an alternative name on the register" : "a name the register's record contradicts"})`).join(", ")}: confirm before relying on it.`
      : "",
    gone.length ? `It is no longer listed on ${gone.map((r) => `the ${SHORT(r.register)}`).join(", ")}.` : "",
    absent.length ? `Not found on ${absent.map((r) => `the ${SHORT(r.register)} (edition of ${r.registerDate})`).join(", ")}.` : "",
    absent.some((r) => r.register === "aml") ? REGISTER_CATALOGUE.aml.notFound.split(". ")[0] + "." : "",
    unchecked.length ? `Not checked (not loaded yet): ${unchecked.map((r) => `the ${SHORT(r.register)}`).join(", ")}.` : "",
    sanctionsNote,
  ];
  return parts.filter(Boolean).join(" ") + notes;
}

export const getLicencesAndRegisters = defineOperation({
  operationId: "getLicencesAndRegisters",
  method: "get",
  path: "/api/v1/licences-and-registers",
  family: "risk",
  title: "Licences and registers",
  summary: `Every register this service keeps, for one company in one call: ${REGISTERS.map((r) => `the ${SHORT(r)}`).join(", ")}, and the UK sanctions list (definite match only).`,
  description: [
    `Looks one company up on every register this service loads (SPEC §4.5): ${inWords(REGISTERS.map((r) => `the ${SHORT(r)} (\`${r}\`)`))}, plus the UK sanctions list.` +
      " Each register is matched as its own check matches it: by the company number on the register's own record (SRA, CQC and Charity Commission records carry one), else by the company's registered and former names from Companies House, exact or differing only in legal form; a near name is never taken. Each register's result says whether the company is listed now (`found`), its status there, the register's date, the organisations matched with their register numbers and how each matched, and a note; a company not found is said to be not found with the date of the edition it is not in. Not being on HMRC's register does not mean the business is unsupervised: another body, such as the FCA or a professional body, may supervise it. A register this service has not loaded yet is marked `checked: false`.",
    "",
    "Sanctions (SPEC §1 rule 6): only a definite match is reported (the same UK company number, or an identical name corroborated by the country or postcode and not contradicted), with the list entry's id, its regimes, the kind of name matched and the reasons; without one, the reply says there is no definite match with the list's date, which is never a clearance. If the list has not been loaded, the reply says it was not checked. Registers are company-level: people are never named (SPEC §1 rule 7).",
    "",
    "An unknown company number answers 404 with `query` (credits given back); if Companies House cannot be read the call answers 503 and gives its credits back. Price: 2 credits. Companies House answers are cached for up to 12 hours.",
  ].join("\n"),
  input: z.object({ company: CompanyNumberQuery, asOf: AsOfParam.optional() }),
  output: Output,
  price: 2,
  auth: "key",
  errors: ["not_found", "upstream_unavailable", "date_out_of_range"],
  readOnly: true,
  receipt: true,
  example: { company: "01234567" },
  async handler({ company, asOf }, ctx) {
    // As of a date (issue 33 §1): each register at its edition of that date; one whose first kept edition is later is
    // not checked, and when none can be read as of that date the call is 422 naming the first date it can answer for.
    const today = ctx.now.toISOString().slice(0, 10);
    if (asOf && asOf > today)
      throw new ApiError("bad_request", `\`asOf\`: ${asOf} is after today (${today}); registers can be read as they stood on a past date or today.`, {
        field: "asOf",
      });
    const firstDates = asOf
      ? Object.fromEntries(await Promise.all(REGISTERS.map(async (r) => [r, await ctx.services.registersAsOf.firstDate(r)] as const)))
      : null;
    if (asOf && firstDates && !REGISTERS.some((r) => firstDates[r] && asOf >= firstDates[r]!)) {
      const first =
        Object.values(firstDates)
          .filter((d): d is string => !!d)
          .sort()[0] ?? null;
      throw new ApiError(
        "date_out_of_range",
        first
          ? `\`asOf\`: the first edition of any register this service has kept is of ${first}; it can answer for ${first} or later, not ${asOf}.`
          : "`asOf`: this service has no edition of any register yet.",
        { field: "asOf", details: { firstDate: first } },
      );
    }
    const ch = ctx.services.companiesHouse;
    // 404 with `query` when there is no such company; a Companies House failure is a 503 with credits back (not caught).
    const profile = await profileOf(ctx.services, company);
    // The lookups match against this profile; Companies House is not asked again for it.
    const services: LookupServices = {
      registers: asOf ? ctx.services.registersAsOf.at(asOf) : ctx.services.registers,
      companiesHouse: Object.assign(Object.create(ch) as typeof ch, {
        getProfile: async (n: string) => (normaliseCompanyNumber(n) === profile.number ? profile : ch.getProfile(n)),
      }),
    };
    const [results, list, sanctionsEdition] = await Promise.all([
      Promise.all(REGISTERS.map((source) => registerResult(services, source, profile, asOf && firstDates ? { date: asOf, first: firstDates[source] } : null))),
      ctx.services.sanctions.current(),
      ctx.services.registers.editionInfo("sanctions"),
    ]);
    const definite = list
      ? matchCompany(list.index, {
          name: profile.name,
          number: profile.number,
          previousNames: profile.previousNames.map((p) => p.name),
          country: profile.registeredOffice.country,
          postcode: profile.registeredOffice.postcode,
        }).definite.filter((m) => m.kind !== "individual")
      : [];
    const sanctions = sanctionsCheckOf(list ? { listDate: list.listDate, definite } : null);
    const sanctionsNote = sanctions.definiteMatches.length
      ? `${sanctions.note} Entr${sanctions.definiteMatches.length === 1 ? "y" : "ies"} ${sanctions.definiteMatches.map((m) => `${m.listId} (${m.regimes.join(", ") || "regime not stated"}; ${m.reasons.join("; ")})`).join(", ")}.`
      : sanctions.note;
    // The receipt's evidence: each register's edition read (the parts its matches come from), the sanctions list's, Companies House.
    for (const r of results) if (r.checked) await citeEditions(ctx, services.registers, r.register);
    if (list)
      ctx.cite?.({ source: REGISTER_CATALOGUE.sanctions.title, kind: "register-edition", editionDate: list.listDate, fetchedAt: sanctionsEdition.fetchedAt });
    citeCompaniesHouse(ctx);
    const registered = registerCompany(profile);
    const notes = companyNotes({ companyUnavailable: undefined, company: registered });
    const summary = summaryOf(registered, results, sanctionsNote, notes);
    return {
      query: { company, ...(asOf ? { asOf } : {}) },
      company: registered,
      summary: asOf ? `As the registers stood on ${asOf}: ${summary}` : summary,
      ...(asOf && firstDates
        ? {
            asOf: {
              date: asOf,
              firstDates,
              companyNameOnDate: companyNameOn(profile, asOf),
              note: `Each register's fields describe it as it stood on ${asOf} (its \`registerDate\` is the edition answered from). The sanctions check and \`company\` (Companies House) describe today.`,
            },
          }
        : {}),
      foundOn: results.filter((r) => r.found).map((r) => r.register),
      registers: results,
      sanctions,
      sanctionsProvenance: list ? { ...provenanceOf("sanctions", sanctionsEdition), registerDate: list.listDate } : null,
      provenance: companiesHouseProvenance(ctx.now),
    };
  },
});
