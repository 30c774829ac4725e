/**
 * The charity report reader's reply (issue 17 §3 "charity-report"), mirroring services/documents/charityReport.ts
 * (without `facts`, which become the reply's summary), and the documented POST example.
 */
import { z } from "@hono/zod-openapi";
import { TRANSPARENCY_FORMULA } from "../../services/documents/charityReport";
import { Evidence, fact } from "./facts";

const ISO_DATE = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const Amount = z
  .object({
    amount: z.number().describe("In pounds (a table in £'000 or £m is multiplied out); negative for a deficit or a bracketed figure."),
    yearEnded: ISO_DATE.nullable().describe("The last day of the financial year the figure is for (`YYYY-MM-DD`); null when the year could not be read."),
    priorYear: z
      .object({
        amount: z.number().describe("The prior year's figure, in pounds, from the accounts' comparative column."),
        yearEnded: ISO_DATE.nullable().describe("The prior year's last day (a year before `yearEnded`); null when the year could not be read."),
      })
      .nullable()
      .describe("The prior year's figure where the accounts give a comparative column; null otherwise."),
  })
  .openapi("CharityAmount");

const ReservesAmount = Amount.extend({
  kind: z
    .enum(["free_reserves", "total_funds"])
    .describe(
      "`free_reserves`: the report states its free reserves (unrestricted funds not designated or tied up in fixed assets); `total_funds`: it states none, so the total funds (cash funds, for receipts and payments accounts) at the year end are given.",
    ),
}).openapi("CharityReserves");

const amountFact = (describe: string) => fact(Amount, describe);
const flag = (describe: string) => fact(z.boolean(), describe);

export const CharityReportReply = z
  .object({
    recognition: z
      .object({
        recognised: z
          .boolean()
          .describe(
            "Whether the text reads as a charity's report or accounts: it names a charity and has the form of a report or accounts (the rule is in the operation's description). Always true in a reply: a document that does not read as one is refused with 422 `unreadable_input`, not charged.",
          ),
        parts: z
          .array(z.string())
          .describe(
            'The parts found: "a trustees\' report", "accruals accounts" or "receipts and payments accounts", "an independent examiner\'s report" or "an auditor\'s report".',
          ),
        note: z
          .string()
          .describe(
            "Why it was read as a charity's report or accounts (what names the charity, what gives it a report's or accounts' form), and whether it was cut.",
          ),
      })
      .describe("What the document is."),
    charity: z
      .object({
        name: fact(
          z.string(),
          'The charity\'s name as written: from a "Charity name" label, the first line of a Charity Commission accounts form, a sentence saying it is a registered charity or charitable company ("X is a registered charity"), a "(the Charity)" definition, or the document\'s title (the note says which).',
        ),
        charityNumber: fact(
          z.string(),
          'The charity number the report states, wherever it states it ("Registered charity number 1100001", "Charity No. 1100001", "Charity registration number: 1100001", "Registered Charity No 1100001", a label on one line and the number on the next), spaces removed: England and Wales 6–7 digits (a linked charity keeps its suffix, "1123456-1"), Scotland "SC0xxxxx", Northern Ireland "NIC1xxxxx" or 1xxxxx.',
        ),
        regulator: fact(
          z.enum(["charity_commission", "oscr", "ccni"]),
          "The regulator the number belongs to: `charity_commission` (England and Wales), `oscr` (an SC number, Scotland), `ccni` (a NIC number, or a 1xxxxx number in a report that names Northern Ireland).",
        ),
        companyNumber: fact(z.string(), "The Companies House number, when the charity is also a company and states it."),
        financialYear: fact(
          z.object({
            start: ISO_DATE.nullable().describe(
              'The first day (`YYYY-MM-DD`): as stated in a period "from … to …", else the day after the same date a year before the year end (the note says so).',
            ),
            end: ISO_DATE.describe(
              'The last day of the financial year (`YYYY-MM-DD`): "year ended 31 March 2024" (the date most often named so) or the end of a stated period.',
            ),
          }),
          "The financial year the report and accounts cover.",
        ),
      })
      .describe("The charity."),
    finances: z
      .object({
        basis: fact(
          z.enum(["accruals", "receipts_and_payments"]),
          "The kind of accounts: `accruals` (a statement of financial activities and balance sheet under the Charities SORP, FRS 102) or `receipts_and_payments` (receipts, payments and a statement of assets and liabilities, such as the Charity Commission's CC16a form), from an explicit statement of the basis first.",
        ),
        income: amountFact(
          'Total income for the year ("Total income", "Total incoming resources", "Total income and endowments"; for receipts and payments accounts the gross income or total receipts), from the accounts\' table, else from a sentence of the report (the note says which, and says when the text and the table disagree).',
        ),
        expenditure: amountFact(
          'Total expenditure for the year ("Total expenditure", "Total resources expended"; for receipts and payments accounts the total payments).',
        ),
        netIncome: amountFact(
          'Net income (negative: net expenditure, a deficit) for the year: "Net income/(expenditure)", "Net (outgoing)/incoming resources", "Net of receipts/(payments)", "Net movement in funds", or income minus expenditure when no net row was read (the note says so).',
        ),
        reserves: fact(
          ReservesAmount,
          "The reserves: the free reserves where the report states them (a target in the reserves policy is not taken), else the total funds at the year end (`kind` says which).",
        ),
        funds: z
          .object({
            unrestricted: amountFact(
              "Unrestricted funds at the year end (general and designated together): the unrestricted column of the total funds row, else the balance sheet's rows. Null with a note when the accounts show no such column.",
            ),
            restricted: amountFact("Restricted funds at the year end."),
            endowment: amountFact("Endowment funds at the year end (permanent and expendable)."),
            designated: amountFact(
              "Designated funds at the year end (part of the unrestricted funds, set aside by the trustees), from the balance sheet or the report's text.",
            ),
            total: amountFact(
              'Total funds at the year end ("Total funds carried forward", "Total charity funds", "Cash funds this year end", "Net assets"). The prior year\'s is the funds brought forward when the two disagree (the note says so).',
            ),
          })
          .describe(
            "The charity's funds by type at the year end. A table's figures are mapped to its columns from the column headings and checked by their arithmetic (the fund columns add up to the total); brackets are negatives, a dash is nil.",
          ),
      })
      .describe("The figures, each with the year it is for, in pounds."),
    governance: z
      .object({
        trustees: fact(
          z.number().int(),
          'The number of trustees, where the report states it ("The board comprises nine trustees"). Trustees are counted, never named; a constitutional maximum or minimum ("up to twelve") is not taken.',
        ),
        meetings: fact(
          z.object({
            frequency: z.string().describe('How often the trustees meet, as written ("quarterly", "every two months", "six times during the year").'),
            perYear: z
              .number()
              .int()
              .nullable()
              .describe("The same as meetings a year (quarterly 4, every two months 6, monthly 12); null when it cannot be worked out."),
          }),
          "How often the trustees meet.",
        ),
        safeguarding: flag(
          "Whether the report states a safeguarding policy (or procedures, a safeguarding lead or trustee). False when a document read in full does not; null when it was cut or is not a charity document.",
        ),
        conflictsOfInterest: flag(
          "Whether the report says how trustees' conflicts of interest are declared and managed (a register or declaration of interests).",
        ),
        riskStatement: flag(
          "Whether the report gives the trustees' statement on the major (principal) risks the charity faces, a risk register or risk management.",
        ),
        reservesPolicy: flag("Whether the report states a reserves policy (the level of reserves the trustees aim to hold, and why)."),
        publicBenefit: flag("Whether the report has a public benefit statement (the trustees' regard to the Charity Commission's public benefit guidance)."),
        scrutiny: fact(
          z.enum(["independent_examination", "audit"]),
          "The external scrutiny of the accounts whose report is in the document: an independent examiner's report or an auditor's report.",
        ),
        approvedOn: fact(
          ISO_DATE,
          "The date the trustees approved (or signed) the report and accounts (`YYYY-MM-DD`), from the approval statement or the signature block; else the examiner's or auditor's signing date (the note says so).",
        ),
      })
      .describe("Governance signals, each quoted, or false (not in a document read in full) or null (couldn't tell)."),
    delivery: z
      .object({
        activities: z
          .array(z.object({ evidence: Evidence }))
          .describe(
            "Up to four sentences describing what the charity did in the year (from its activities, achievements and performance sections first), quoted.",
          ),
        beneficiaries: z
          .array(
            z.object({
              count: z.number().int().nullable().describe("The number stated (of people, households, families, meals or parcels)."),
              who: z.string().nullable().describe('What was counted, as written ("households", "young people", "food parcels").'),
              evidence: Evidence,
            }),
          )
          .describe(
            "Up to five sentences stating how many people the charity helped (or meals, parcels provided); staff, volunteers and trustees are not beneficiaries.",
          ),
        peopleHelped: fact(
          z.number().int(),
          "The largest number of people (not meals or parcels) the report says it helped; figures are never added up, since the same people may be counted in several.",
        ),
      })
      .describe("What the charity did and for whom."),
    flags: z
      .object({
        deficit: flag(
          "Whether expenditure (payments) exceeded income (receipts) in the year; from the net figure when only that was read. The note gives the figures.",
        ),
        deficitExplained: flag(
          "When there is a deficit: whether the report explains it (a sentence naming the deficit, or the use of reserves, with its reason). Null when there is no deficit.",
        ),
        goingConcern: flag(
          "True when the report states a material uncertainty or significant doubt about the charity continuing as a going concern; false when it says there is none, or (read in full) raises none.",
        ),
        qualifiedOpinion: flag(
          'True when the independent examiner\'s or auditor\'s report is qualified: matters reported ("I have identified the following matters"), "except for", an adverse opinion or a disclaimer. The standard wording ("no matters … to which attention should be drawn") is not a qualification. Null when the document has no such report.',
        ),
        lateFiling: flag(
          "True when the trustees approved the report after the regulator's filing deadline — 10 months after the year end for the Charity Commission (England and Wales) and the Charity Commission for Northern Ireland, 9 months for OSCR (Scotland) — since accounts cannot be filed before they are approved. False when approved within the deadline (the filing date itself is not in a report). Null when there is no approval date; the note then says whether the deadline has passed.",
        ),
      })
      .describe("Warning signs for a funder, each with its evidence and how it was judged."),
    transparency: z
      .object({
        score: z.number().int().min(0).max(100).describe("The transparency score, 0–100, worked out from the fields above by `formula`."),
        formula: z.string().describe(`How the score is worked out: ${TRANSPARENCY_FORMULA}`),
        components: z
          .array(
            z.object({
              item: z.string().describe("The disclosure."),
              present: z.boolean().describe("Whether it was found."),
              points: z.number().int().describe("The points it earned (5 or 0)."),
            }),
          )
          .describe("Each of the 20 disclosures, present or not, with its points."),
      })
      .describe("How much of what a funder looks for the document discloses; deterministic, from the fields above."),
    funderGaps: z
      .array(z.string())
      .describe(
        "What a funder would ask about that the report does not show, or flags it raises: no accounts figures, no prior-year figures, no reserves policy or free reserves figure, no risk statement, no safeguarding policy, no conflicts-of-interest arrangements, the board not described, no activities, no beneficiary numbers, no examiner's or auditor's report (noting when the law does not require one, income of £25,000 or less), an unexplained deficit, going-concern doubt, a qualified report, late filing, no approval date. Empty when the document is not a charity's report.",
      ),
  })
  .openapi("CharityReport");

/** The documented POST example: an invented small charity's trustees' report and accounts (no real person named). */
export const CHARITY_EXAMPLE_TEXT = `Riverside Reading Project
Trustees' Annual Report and Accounts for the year ended 31 March 2025
Registered charity number: 1187654

Structure, governance and management
Riverside Reading Project is a charitable incorporated organisation (CIO) governed by its constitution. The board comprises seven trustees, who meet quarterly. Trustees declare any conflict of interest at the start of each meeting and these are recorded in the minutes. The charity has a safeguarding policy for children and adults at risk, reviewed each year, and a trustee acts as safeguarding lead.

Objectives and activities
The charity's object is to advance the education of children in Riverside by improving their reading. We run after-school reading clubs in four primary schools and a summer reading challenge at the town library. Our volunteers gave 2,100 hours of one-to-one reading support.

Achievements and performance
During the year we supported 312 children through our reading clubs, and 540 children took part in the summer reading challenge.

Public benefit
The trustees have had regard to the Charity Commission's guidance on public benefit.

Financial review
Total income for the year was £48,620 (2024: £44,910) and expenditure was £51,380 (2024: £42,150). The deficit of £2,760 was planned: the trustees used reserves to open the fourth reading club.
Reserves policy: the trustees aim to hold free reserves equal to three months' running costs (about £13,000). Free reserves at 31 March 2025 were £17,450 (2024: £19,010).

Principal risks
The trustees keep a risk register, reviewed at each meeting. The major risks are the loss of school partners and a fall in grant income.

Statement of financial activities for the year ended 31 March 2025
Unrestricted Restricted Total Total
funds funds 2025 2024
£ £ £ £
Donations and legacies 21,340 - 21,340 19,880
Grants 6,000 21,280 27,280 25,030
Total income 27,340 21,280 48,620 44,910
Charitable activities 28,900 22,480 51,380 42,150
Total expenditure 28,900 22,480 51,380 42,150
Net income/(expenditure) (1,560) (1,200) (2,760) 2,760
Total funds brought forward 19,010 4,800 23,810 21,050
Total funds carried forward 17,450 3,600 21,050 23,810

Independent examiner's report to the trustees of Riverside Reading Project
I report to the charity trustees on my examination of the accounts for the year ended 31 March 2025. I have found no matters in connection with the examination to which attention should be drawn.

Approved by the trustees on 9 September 2025 and signed on their behalf by:
Jo Bloggs, Chair`;
