import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import {
  type CarbonPlanReport,
  type OrganisationCheck,
  type OtherOrganisationPlan,
  type SiteIdentity,
  checkCarbonPlan,
  compareOrganisation,
  looksLikePlan,
  otherPlansWording,
  readingWithOrganisation,
  siteLabel,
} from "../../services/documents/carbonPlan";
import { docFromHtml } from "../../services/documents/document";
import { Reading } from "../../services/documents/evidence";
import { redactQuotes } from "../../services/documents/names";
import { planLinks, siteIdentity } from "../../services/documents/planLinks";
import { InputError } from "../../shared/errors";
import { PAGE_ERRORS, describedUrl, pageOf } from "../../app/web/page";
import { Evidence } from "../../app/documents/facts";
import { type FetchedDocument, type Loaded, ReadObject, fetchDocument, readObjectOf, todayOf } from "../../app/documents/reader";
import { PDF_LIMITS_TEXT } from "../../services/documents/document";
import { HTML_LIMITS_TEXT } from "../../services/html/parse";

/**
 * crp-check (SPEC §4.4, §2.4): a supplier's carbon reduction plan against the government template (PPN 06/21, now
 * PPN 006). `url` is the plan (a page or a PDF) or the supplier's homepage; from a page that is not a plan, the links
 * that mention a carbon reduction plan or net zero are followed, at most three pages. The eight parts are judged by
 * services/documents/carbonPlan.ts (pure): completeness of form only, never whether the figures are right (SPEC §1
 * rule 5). A plan found from a page of the site is the supplier's only when the organisation it names is not another
 * one than the site's (issue 28 §3; the rule is compareOrganisation's): a plan of another organisation is listed in
 * `otherOrganisationPlans`, never counted as the supplier's, and the search goes on within the three pages.
 */

export const CRP_NOTICE =
  "Checks the completeness of the plan's form against the government template (PPN 06/21 and PPN 006) only: it never judges whether the figures are right, complete or verified (SPEC §1 rule 5). An automated reading; results may be incomplete or wrong, and are not professional advice.";

/** Pages followed at most from a page that is not the plan (SPEC §4.4). */
const MAX_CANDIDATES = 3;

const Part = z
  .object({
    found: z
      .boolean()
      .describe("True only when the part was found. False both when it was not found and when the checker couldn't tell; `status` tells them apart."),
    status: z
      .enum(["found", "not_found", "couldnt_tell"])
      .describe("`couldnt_tell`: the document does not let the checker decide (a date with no day or month, a table without units…); `found` is then false."),
    note: z.string().describe("What was found or is missing, in words; starts with \"Couldn't tell:\" when the checker couldn't tell."),
    evidence: Evidence.nullable().describe("The passage the judgement rests on; null when nothing was found."),
  })
  .openapi("CarbonPlanPart");

const PART_KEYS = [
  "netZeroBy2050",
  "baselineYearEmissions",
  "currentYearEmissions",
  "scope1and2",
  "scope3Categories",
  "reductionProjects",
  "directorSignOff",
  "updatedWithinYear",
] as const;

const PART_DESCRIPTIONS: Record<(typeof PART_KEYS)[number], string> = {
  netZeroBy2050: "A commitment to net zero by 2050 at the latest (an earlier year counts; carbon neutral is not net zero).",
  baselineYearEmissions: "A baseline year and its emissions in tCO2e.",
  currentYearEmissions: "The current reporting year and its emissions in tCO2e.",
  scope1and2: "Scope 1 and Scope 2 emissions both reported.",
  scope3Categories: "Scope 3 categories 4, 5, 6, 7 and 9 all reported (found only when all five are).",
  reductionProjects: "Carbon reduction projects or measures, completed or planned.",
  directorSignOff: "The declaration signed off by a director (or equivalent board-level signatory); the signer's role is read, never their name.",
  updatedWithinYear: "The plan's date within the last 12 months (judged against `planDate`).",
};

const Output = z
  .object({
    query: z.object({ url: z.string() }).describe("The request, as read."),
    url: z.string().nullable().describe("The plan's address (after redirects); null when no plan was found."),
    foundFrom: z
      .string()
      .nullable()
      .describe(
        "The page the plan was found from (the page asked for, when the plan was linked from it); null when `url` was the plan itself or no plan was found.",
      ),
    found: z
      .boolean()
      .describe(
        "A carbon reduction plan of the supplier was found at `url` or on the pages followed from it (a plan naming another organisation than the site's is not one: see `otherOrganisationPlans`).",
      ),
    company: z.string().nullable().describe("The supplier's name as the plan gives it; null when it does not."),
    companyNumber: z
      .string()
      .nullable()
      .describe(
        "The company number the plan gives for the organisation it names (beside its name or in its opening; never the number of whoever prepared it); null when it gives none.",
      ),
    planDate: z.string().nullable().describe("The plan's date (`YYYY-MM-DD`: its publication or sign-off date); null when it gives none."),
    planDateNote: z
      .string()
      .nullable()
      .describe(
        "How `planDate` was read, where it needs saying: a month given without a day (its last day taken), a year only, a sign-off dated differently from publication.",
      ),
    sources: z
      .object({
        company: Evidence.nullable().describe("The passage the company's name is from."),
        planDate: Evidence.nullable().describe("The passage the plan's date is from."),
      })
      .describe("The passages `company` and `planDate` rest on; null where not found."),
    organisation: z
      .object({
        match: z
          .enum(["same", "different", "couldnt_tell", "not_checked"])
          .describe(
            "Whether the plan is the site's organisation's. `same`: the company number the plan gives is the site's, or the plan's name is the site's; `couldnt_tell`: not enough to say (the site gives no registered name, the names are alike but not the same, or one mentions the other, as a group's plan may); `not_checked`: the address given was the plan, so no page of the site was read to compare. (`different` never appears here: such a plan is not returned as the supplier's, see `otherOrganisationPlans`.)",
          ),
        plan: z.object({ name: z.string().nullable(), companyNumber: z.string().nullable() }).describe("The organisation the plan names."),
        site: z
          .object({
            url: z.string().describe("The page the site's organisation was read from (the page given)."),
            names: z.array(z.string()).describe("Registered names the page gives as its own (its footer, a copyright line, beside its company number)."),
            companyNumbers: z.array(z.string()).describe("Company numbers the page states."),
          })
          .nullable()
          .describe("The site's organisation as its page states it; null when not checked."),
        note: z.string().describe("Why, in words."),
      })
      .nullable()
      .describe("Whose plan it is: the organisation the plan names against the site's it was found from; null when no plan was found."),
    otherOrganisationPlans: z
      .array(
        z.object({
          url: z.string().describe("The plan's address."),
          company: z.string().nullable().describe("The organisation it names."),
          companyNumber: z.string().nullable().describe("The company number it gives for it."),
          note: z.string().describe("Why it is not taken for the supplier's plan."),
        }),
      )
      .describe(
        "Carbon reduction plans found from the site that name another organisation than the site's (a different company number, or a name sharing nothing with the site's registered name): not taken as the supplier's plan, and their parts not counted for it.",
      ),
    meetsTemplate: z.boolean().describe("All eight parts found, in the supplier's plan (`found`); false when no plan of the supplier was found."),
    partsMet: z.number().int().describe("Parts found."),
    partsTotal: z.literal(8).describe("Always 8."),
    parts: z
      .object(Object.fromEntries(PART_KEYS.map((k) => [k, Part.describe(PART_DESCRIPTIONS[k])])) as Record<(typeof PART_KEYS)[number], typeof Part>)
      .describe("The eight parts of the template, each found, not found, or couldn't tell."),
    scope3Found: z.array(z.string()).describe('The Scope 3 category numbers the plan reports ("1" to "15"), in order.'),
    gaps: z.array(z.string()).describe("What the plan lacks against the template, one line per part not found, in words a bid writer can act on."),
    reading: z.string().describe("A plain-language summary of the check (form only, never the figures)."),
    pagesRead: z
      .array(
        z.object({
          url: z.string(),
          role: z
            .enum(["asked", "candidate"])
            .describe(
              "`asked`: the address given; `candidate`: a page linked from it whose words or address mention a carbon reduction plan, net zero or carbon.",
            ),
          plan: z.boolean().describe("It was read as the supplier's carbon reduction plan (false for a plan of another organisation: `reason` says whose)."),
          reason: z.string().nullable().describe("Why it could not be read, or why it is not taken for the plan."),
        }),
      )
      .describe(`Every page fetched, in order: the address given, then at most ${MAX_CANDIDATES} candidates.`),
    read: ReadObject.nullable().describe("How much of the plan was read; null when no plan was found."),
    checkedAt: z.string(),
    notice: z.string(),
  })
  .openapi("CarbonReductionPlanCheck");

type Reply = z.infer<typeof Output>;

interface Judged {
  loaded: Loaded;
  reading: Reading;
  report: CarbonPlanReport;
  organisation: OrganisationCheck;
}

function replyOf(
  asked: string,
  plan: Judged | null,
  foundFrom: string | null,
  pagesRead: Reply["pagesRead"],
  now: Date,
  others: OtherOrganisationPlan[] = [],
  site: SiteIdentity | null = null,
): Reply {
  if (!plan) {
    const tried = pagesRead.length;
    const siteOwn = site ? { names: site.names, companyNumbers: site.numbers } : null;
    const wording = others.length ? otherPlansWording(others, siteOwn) : null;
    const parts = Object.fromEntries(
      PART_KEYS.map((k) => [
        k,
        {
          found: false,
          status: "not_found" as const,
          note: others.length
            ? `No carbon reduction plan of ${siteLabel(siteOwn)} was found to check (the plan found names another organisation).`
            : "No carbon reduction plan was found to check.",
          evidence: null,
        },
      ]),
    ) as Reply["parts"];
    return {
      query: { url: asked },
      url: null,
      foundFrom: null,
      found: false,
      company: null,
      companyNumber: null,
      planDate: null,
      planDateNote: null,
      sources: { company: null, planDate: null },
      organisation: null,
      otherOrganisationPlans: others,
      meetsTemplate: false,
      partsMet: 0,
      partsTotal: 8,
      parts,
      scope3Found: [],
      gaps: wording
        ? [wording.gap]
        : [
            `No carbon reduction plan was found: the page given is not one, and ${tried > 1 ? `none of the ${tried - 1} page(s) it links to that mention carbon or net zero is one` : "it links to no page that mentions a carbon reduction plan, net zero or carbon"}. Give the plan's own address (a page or a PDF).`,
          ],
      reading: wording
        ? wording.reading
        : "No carbon reduction plan was found on the pages read, so nothing was checked. The check judges the completeness of a plan's form only, never whether its figures are right.",
      pagesRead,
      read: null,
      checkedAt: now.toISOString(),
      notice: CRP_NOTICE,
    };
  }
  const { report } = plan;
  return {
    query: { url: asked },
    url: plan.loaded.url,
    foundFrom,
    found: true,
    company: report.company.value,
    companyNumber: report.companyNumber.value,
    planDate: report.planDate.value,
    planDateNote: report.planDate.note,
    sources: redactQuotes({ company: report.company.evidence, planDate: report.planDate.evidence }),
    organisation: plan.organisation,
    otherOrganisationPlans: others,
    meetsTemplate: report.meetsTemplate,
    partsMet: report.partsMet,
    partsTotal: 8,
    parts: redactQuotes(
      Object.fromEntries(
        PART_KEYS.map((k) => [
          k,
          { found: report.parts[k].found, status: report.parts[k].status, note: report.parts[k].note, evidence: report.parts[k].evidence },
        ]),
      ),
    ) as Reply["parts"],
    scope3Found: report.scope3Found,
    gaps: report.gaps,
    reading: readingWithOrganisation(report.reading, plan.organisation),
    pagesRead,
    read: readObjectOf(plan.loaded, plan.reading),
    checkedAt: now.toISOString(),
    notice: CRP_NOTICE,
  };
}

// The documented example: a short plan page, judged by the real (pure) checker.
export const EXAMPLE_PLAN = `<!doctype html><html><head><title>Carbon Reduction Plan | Example Trading Ltd</title></head><body><main>
<h1>Carbon Reduction Plan</h1>
<p>Supplier name: Example Trading Ltd. Publication date: 12 March 2026.</p>
<h2>Commitment to achieving Net Zero</h2><p>Example Trading Ltd is committed to achieving Net Zero emissions by 2045.</p>
<h2>Baseline Emissions Footprint</h2><p>Baseline year: 2022. Baseline year emissions: Scope 1 12.4 tCO2e; Scope 2 8.1 tCO2e; Scope 3 (categories 4, 5, 6, 7 and 9) 40.2 tCO2e; total 60.7 tCO2e.</p>
<h2>Current Emissions Reporting</h2><p>Reporting year: 2025. Scope 1 10.2 tCO2e; Scope 2 6.0 tCO2e; Scope 3 (categories 4, 5, 6, 7 and 9) 35.5 tCO2e; total 51.7 tCO2e.</p>
<h2>Carbon Reduction Projects</h2><p>We replaced our vans with electric vehicles in 2024 and moved our office to a renewable electricity tariff.</p>
<h2>Declaration and Sign Off</h2><p>This Carbon Reduction Plan has been completed in accordance with PPN 06/21 and has been reviewed and signed off by the board of directors.</p>
<p>Signed on behalf of the Supplier: Managing Director. Date: 12 March 2026.</p>
</main></body></html>`;

function exampleReply(): Reply {
  const url = "https://www.example.co.uk/carbon-reduction-plan";
  const loaded: Loaded = { doc: docFromHtml(EXAMPLE_PLAN), from: "url", url, note: null };
  const reading = new Reading(loaded.doc);
  const now = new Date("2026-11-25T09:00:00.000Z");
  const report = checkCarbonPlan(reading, { today: todayOf(now) });
  return replyOf(
    url,
    { loaded, reading, report, organisation: compareOrganisation(report, loaded.doc.text, null) },
    null,
    [{ url, role: "asked", plan: true, reason: null }],
    now,
  );
}

export const checkCarbonReductionPlan = defineOperation({
  operationId: "checkCarbonReductionPlan",
  method: "get",
  path: "/api/v1/crp-check",
  family: "documents",
  title: "Carbon reduction plan check",
  summary:
    "Checks a supplier's carbon reduction plan against the government template (PPN 06/21, PPN 006): the eight parts, Scope 3 categories, gaps. Form only, never the figures.",
  description: `Checks a supplier's carbon reduction plan (SPEC §4.4) against the government template a supplier bidding for a central-government contract over £5 million a year must meet (PPN 06/21, and PPN 006 under the Procurement Act 2023).

\`url\` is the plan (a web page or a PDF) or the supplier's homepage. A page that is not a plan is searched for links whose words or address mention a carbon reduction plan, net zero or carbon; at most ${MAX_CANDIDATES} candidate pages are followed (a PDF plan linked from a sustainability page is found too), and \`foundFrom\` names the page the plan was found from. \`pagesRead\` lists every page fetched.

The eight \`parts\` (SPEC §2.4) are each \`{found, status, note, evidence}\`: \`found\` is true only when the part was found; when the checker couldn't tell (a date without a day, a table without units) \`found\` is false and \`status\` is \`couldnt_tell\`, with a note starting "Couldn't tell:". \`scope3Categories\` is found only when all of categories 4, 5, 6, 7 and 9 are reported; \`scope3Found\` lists every category number reported. \`updatedWithinYear\` is judged against \`planDate\`.

**Whose plan.** A plan found from a page of the site is compared with the organisation that page says runs the site (the registered names in its footer, copyright line or beside its company number; the company numbers it states; the name it calls itself). In order: the plan's company number stated on the site too is \`same\`; the site mentioning the plan's organisation, or the plan mentioning the site's registered name or number (as a group's plan naming a subsidiary may), is \`couldnt_tell\`; a company number in the plan that the site does not give is a different organisation; the plan's name being the site's (legal form aside) is \`same\`; names alike but not the same (sharing their leading word) is \`couldnt_tell\`; a name sharing nothing with the registered name the site gives is a different organisation; with no registered name on the site, \`couldnt_tell\`. A plan of a different organisation is never presented as the supplier's: it is listed in \`otherOrganisationPlans\` (and in \`pagesRead\` with the reason), its parts are not counted, and the search goes on within the ${MAX_CANDIDATES} pages; when no other plan is found, \`found\` and \`meetsTemplate\` are false and the \`reading\` says whose plan the site links to. \`couldnt_tell\` keeps the plan, and the \`reading\` says first that it is not confirmed as the supplier's. When the address given is the plan itself, \`organisation.match\` is \`not_checked\`.

It judges the completeness of the plan's form only, never whether its figures are right (SPEC §1 rule 5). No plan found is an answer (\`found\` false), not an error; a page that cannot be fetched answers 422 and costs nothing. ${PDF_LIMITS_TEXT} ${HTML_LIMITS_TEXT}`,
  input: z.object({
    url: describedUrl("The plan's address (a web page or a PDF), or the supplier's homepage (`https://` is assumed when no scheme is given)."),
  }),
  output: Output,
  price: { rule: "4 credits per call (8 on the free plan)", credits: (_input, plan) => (plan === "free" ? 8 : 4) },
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: 45_000,
  example: { url: "https://www.example.co.uk/carbon-reduction-plan" },
  exampleReply,
  async handler({ url }, ctx) {
    const asked = pageOf({ url });
    const query = { url: asked };
    const today = todayOf(ctx.now);

    const fetchDoc = (address: string) => fetchDocument(ctx.services, address, 12_000);
    const judge = (f: FetchedDocument, site: SiteIdentity | null): Judged => {
      const loaded: Loaded = {
        doc: f.doc,
        from: "url",
        url: f.url,
        note: f.doc.cut ? `The PDF has ${f.doc.totalPages} pages; the first ${f.doc.pages} were read.` : null,
      };
      const reading = new Reading(f.doc);
      const report = checkCarbonPlan(reading, { today });
      return { loaded, reading, report, organisation: compareOrganisation(report, f.doc.text, site) };
    };

    // The page given: a refusal (bad address, private, not answering, a scan) is the caller's 4xx, not charged.
    const first = await fetchDoc(asked).catch((e: unknown) => {
      throw e instanceof InputError && !e.field ? new InputError(e.code, e.message, { field: "url", query }) : e;
    });
    const pagesRead: Reply["pagesRead"] = [];
    if (looksLikePlan(new Reading(first.doc))) {
      pagesRead.push({ url: first.url, role: "asked", plan: true, reason: null });
      return replyOf(asked, judge(first, null), null, pagesRead, ctx.now);
    }
    pagesRead.push({ url: first.url, role: "asked", plan: false, reason: "It is not a carbon reduction plan; the links on it were followed." });
    // Who the page says runs the site: a plan found from it must not name another organisation.
    const site = first.html ? siteIdentity(first.html, first.url) : null;
    const others: OtherOrganisationPlan[] = [];

    // Candidates, best first; a candidate page that is not the plan adds its own candidates, within the three pages.
    const queue = first.html ? planLinks(first.html, first.url, MAX_CANDIDATES) : [];
    const seen = new Set([asked, first.url, ...queue]);
    let followed = 0;
    while (queue.length && followed < MAX_CANDIDATES) {
      const next = queue.shift()!;
      followed++;
      let page: FetchedDocument;
      try {
        page = await fetchDoc(next);
      } catch (e) {
        // The candidate's own refusal (not found, not a document, a private address) is listed; an upstream this
        // service needs (the DNS resolver) failing is 503 with credits back, never "no plan found".
        if (e instanceof InputError) {
          pagesRead.push({ url: next, role: "candidate", plan: false, reason: e.message.replace(/\.$/, "") });
          continue;
        }
        throw e;
      }
      if (looksLikePlan(new Reading(page.doc))) {
        const judged = judge(page, site);
        if (judged.organisation.match === "different") {
          // Another organisation's plan: listed, never the supplier's; the search goes on.
          const { company, companyNumber } = judged.report;
          others.push({ url: page.url, company: company.value, companyNumber: companyNumber.value, note: judged.organisation.note });
          pagesRead.push({
            url: page.url,
            role: "candidate",
            plan: false,
            reason: `It is a carbon reduction plan of another organisation, not the supplier's: ${judged.organisation.note.charAt(0).toLowerCase()}${judged.organisation.note.slice(1).replace(/\.$/, "")}`,
          });
          continue;
        }
        pagesRead.push({ url: page.url, role: "candidate", plan: true, reason: null });
        return replyOf(asked, judged, first.url, pagesRead, ctx.now, others, site);
      }
      pagesRead.push({ url: page.url, role: "candidate", plan: false, reason: "It is not a carbon reduction plan." });
      if (page.html) for (const link of planLinks(page.html, page.url, MAX_CANDIDATES)) if (!seen.has(link)) seen.add(link), queue.push(link);
    }
    return replyOf(asked, null, null, pagesRead, ctx.now, others, site);
  },
});
