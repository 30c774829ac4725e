/**
 * The four document readers (SPEC §4.3): what each reads, its reply and its price. Each is two operations (GET by
 * URL, POST with text or a URL), one file each, built by app/documents/reader.ts.
 */
import { z } from "@hono/zod-openapi";
import { readCharityReport } from "../../services/documents/charityReport";
import { readCqcReport } from "../../services/documents/cqc";
import { readModernSlavery } from "../../services/documents/modernSlavery";
import { readOfstedReport } from "../../services/documents/ofsted";
import { InputError } from "../../shared/errors";
import { CHARITY_EXAMPLE_TEXT, CharityReportReply } from "./charityReportReply";
import { CQC_EXAMPLE_TEXT, CqcReply } from "./cqcReply";
import { MODERN_SLAVERY_EXAMPLE_TEXT, ModernSlaveryReply } from "./modernSlaveryReply";
import { OFSTED_EXAMPLE_TEXT, OfstedReply } from "./ofstedReply";
import type { ReaderSpec } from "./reader";

const AUTOMATED =
  "An automated reading of the document's text: results may be incomplete or wrong where the document is unusual, and are not professional advice (SPEC §1 rule 2). Check the quoted passages before relying on them.";

export const MODERN_SLAVERY = {
  path: "/api/v1/modern-slavery",
  schemaName: "ModernSlaveryStatementReading",
  title: "Modern slavery statement reader",
  summary:
    "Reads a statement made under section 54 of the Modern Slavery Act 2015: the six areas scored with evidence, sign-off compliance (approval and a director's signature), gaps, group statement, out of date.",
  description: `Reads a modern slavery statement (Modern Slavery Act 2015 s.54) and scores it the way a compliance officer would:

- the organisation, the financial year covered and the statement's date;
- **sign-off** (s.54(6)): approval by the board (or the members of an LLP, the partners of a partnership, or the equivalent) and a signature by a director, designated member or partner — the signer's role is read, never their name, and a role such as "General Manager" or "Head of Compliance" does not qualify;
- the **six areas** of s.54(5) — structure and supply chains, policies, due diligence, risk assessment, effectiveness (KPIs) and training — each scored 0 (not covered), 1 (mentioned in general terms) or 2 (specific: concrete steps, measures, numbers), with the sentences quoted;
- the gaps, whether it is a group statement, and whether it looks out of date (the year it covers more than 18 months ago).`,
  documentName: "a modern slavery statement",
  reply: ModernSlaveryReply,
  read: readModernSlavery,
  notice: `${AUTOMATED} Scores describe what the statement says, not what the organisation does.`,
  price: 3,
  exampleText: MODERN_SLAVERY_EXAMPLE_TEXT,
  exampleUrl: "https://www.example.co.uk/modern-slavery-statement",
} satisfies ReaderSpec<ReturnType<typeof readModernSlavery>>;

export const OFSTED = {
  path: "/api/v1/ofsted-report",
  schemaName: "OfstedReportReading",
  title: "Ofsted report reader",
  summary:
    "Structures an Ofsted inspection report of any of its four formats: inspection type and dates, graded areas (or report-card evaluations), safeguarding, strengths, areas to improve, themes and a plain summary.",
  description: `Structures an Ofsted inspection report, whichever of the four formats it is in:

1. the graded-table reports to 2019 (overall effectiveness and four key judgements, 1–4);
2. the 2019–2024 reports ("What is it like to attend this school?", judgements such as the quality of education);
3. the reports from September 2024, which give no single-word overall grade;
4. the report cards from November 2025 (evaluation areas on a five-point scale, safeguarding met or not met).

It gives the format recognised, the provider, the inspection type and dates, the graded areas with their grades (or evaluations), the safeguarding status, strengths, areas to improve and themes, each with the passage quoted.`,
  documentName: "an Ofsted inspection report",
  reply: OfstedReply,
  read: readOfstedReport,
  notice: `${AUTOMATED} The report itself, published by Ofsted, is the authority.`,
  price: 3,
  exampleText: OFSTED_EXAMPLE_TEXT,
  exampleUrl: "https://www.example.co.uk/ofsted-report.pdf",
} satisfies ReaderSpec<ReturnType<typeof readOfstedReport>>;

export const CQC = {
  path: "/api/v1/cqc-report",
  schemaName: "CqcReportReading",
  title: "CQC report reader",
  summary:
    "Structures a CQC inspection report or a CQC location page: overall rating, the five key questions, strengths, concerns, enforcement action, inspection and publication dates, service and provider.",
  description: `Structures a Care Quality Commission inspection report (a PDF, or its text) or a service's page on the CQC's own site (\`www.cqc.org.uk/location/…\`, read as a web page): the overall rating, the five key questions (\`keyQuestions\`: safe, effective, caring, responsive, well-led) each with its rating, strengths, concerns, breaches of regulation and enforcement action (warning notices, requirement notices, conditions, special measures), the inspection and publication dates, and the service and provider. People named in a report (a registered manager) are never given.`,
  documentName: "a CQC inspection report",
  reply: CqcReply,
  read: readCqcReport,
  notice: `${AUTOMATED} Contains CQC data © Care Quality Commission, licensed under the Open Government Licence v3.0; the CQC's own report is the authority.`,
  price: 3,
  exampleText: CQC_EXAMPLE_TEXT,
  exampleUrl: "https://www.example.co.uk/cqc-report.pdf",
} satisfies ReaderSpec<ReturnType<typeof readCqcReport>>;

const RegisterTrustees = z
  .object({
    charityNumber: z
      .string()
      .nullable()
      .describe("The registered charity number read from the report and looked up (England and Wales); null when none was found."),
    found: z
      .boolean()
      .nullable()
      .describe(
        "The number is on our copy of the Charity Commission register; null when not looked up (no number, a Scottish or Northern Irish number, or the register not loaded).",
      ),
    name: z.string().nullable().describe("The charity's name on the register."),
    trusteeCount: z.number().int().nullable().describe("The number of trustees the register lists (counted, never named)."),
    note: z.string().describe("What was looked up, and why not when it was not."),
  })
  .openapi("CharityReportRegister");

export const CHARITY = {
  path: "/api/v1/charity-report",
  schemaName: "CharityReportReading",
  title: "Charity report reader",
  summary:
    "Structures a charity's trustees' annual report and accounts: finances with the year, governance signals, delivery, flags (deficit, going concern, qualified opinion, late filing), a transparency score and the gaps a funder would ask about.",
  description: `Structures a charity's trustees' annual report and accounts (accruals accounts under the Charities SORP, or receipts and payments accounts): income, expenditure, net result, reserves and funds by type, with the year they are for; governance signals (trustees, meetings, safeguarding, conflicts of interest, the risk statement, the reserves policy); delivery (activities and beneficiaries); flags (a deficit, going-concern doubts, a qualified examiner's or auditor's opinion, late filing); a transparency score with its formula; and the gaps a funder would ask about. When the report gives an England and Wales charity number, \`register\` adds the number of trustees our copy of the Charity Commission register lists — counted, never named.

**What is read as a report.** The document must name a charity — a charity number stated with its label ("Registered charity number 1100001", "Charity No. 1100001", "Charity registration number: 1100001", "Registered Charity No 1100001", "Registered with the Charity Commission under number …", "Scottish charity number SC0…", the number on a Charity Commission accounts form's first line), a charity's legal form or regulator (a registered or Scottish charity, a charitable company, a CIO, the Charity Commission, OSCR, the CCNI, the Charities Act or SORP), or a trustees' report's title — and have the form of a report or accounts: a title such as "Trustees' annual report", "Report of the trustees", "Annual report and financial statements" or "Report and accounts" in its opening lines; a statement of financial activities, receipts and payments accounts (the CC16a form), a statement of assets and liabilities, a balance sheet or notes to the accounts; an independent examiner's or auditor's report; or the trustees' report's SORP sections (objectives and activities, achievements and performance, financial review, structure, governance and management, reference and administrative details, plans for future periods, the trustees' responsibilities, public benefit, reserves policy; the CC17a form's "Section C Objectives and activities" and so on) — two of them, or one with the year's income or expenditure. A plain-prose report counts as much as one with tables. A document that is not one (a modern slavery statement, a charity's web page, another kind of report) answers 422 \`unreadable_input\`, saying why, and costs nothing.`,
  documentName: "a charity's trustees' annual report and accounts",
  reply: CharityReportReply,
  extra: { register: RegisterTrustees },
  // A document that does not read as a charity's report or accounts is refused (422, not charged), never answered
  // with every field "couldn't tell" (issue 28 §3).
  read(reading, opts) {
    const report = readCharityReport(reading, opts);
    if (!report.recognition.recognised) throw new InputError("unreadable_input", report.recognition.note);
    return report;
  },
  notice: `${AUTOMATED} Figures are as the report states them; this is not an audit or a credit assessment.`,
  price: 3,
  exampleText: CHARITY_EXAMPLE_TEXT,
  exampleUrl: "https://www.example.co.uk/annual-report.pdf",
  exampleExtra: { register: { charityNumber: null, found: null, name: null, trusteeCount: null, note: "Not looked up in the documented example." } },
  async enrich(report, ctx) {
    const stated = report.charity.charityNumber.value;
    const number = stated ? (/^\s*(\d{6,7})\b/.exec(stated)?.[1] ?? null) : null;
    if (!stated)
      return {
        register: {
          charityNumber: null,
          found: null,
          name: null,
          trusteeCount: null,
          note: "No charity number was found in the report, so the register was not looked up.",
        },
      };
    if (!number)
      return {
        register: {
          charityNumber: stated,
          found: null,
          name: null,
          trusteeCount: null,
          note: "The number is not an England and Wales charity number (our register copy is the Charity Commission's), so it was not looked up.",
        },
      };
    const edition = await ctx.services.registers.editionInfo("charity");
    if (!edition.editionDate)
      return {
        register: {
          charityNumber: number,
          found: null,
          name: null,
          trusteeCount: null,
          note: "The charity register has not been loaded on this server yet, so the trustee count could not be looked up.",
        },
      };
    const hits = await ctx.services.registers.entriesByDataField("charity", "charityNumber", number);
    const main = hits.find((e) => !/-/.test(e.data.charityNumber)) ?? hits[0];
    if (!main)
      return {
        register: {
          charityNumber: number,
          found: false,
          name: null,
          trusteeCount: null,
          note: `Charity ${number} is not on the Charity Commission register (edition of ${edition.editionDate}).`,
        },
      };
    const count = main.data.trusteeCount;
    return {
      register: {
        charityNumber: number,
        found: true,
        name: main.name,
        trusteeCount: count,
        note: `Charity ${number} on the Charity Commission register (edition of ${edition.editionDate})${count === null ? "; the register gives no trustee count" : ""}. Trustees are counted, never named.`,
      },
    };
  },
} satisfies ReaderSpec<ReturnType<typeof readCharityReport>, { register: typeof RegisterTrustees }>;
