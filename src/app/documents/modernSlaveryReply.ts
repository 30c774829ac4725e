/**
 * The reply of the modern slavery statement reader (services/documents/modernSlavery.ts), field by field: the public
 * API documentation of what it reads and how it judges it, and the documented POST example's text.
 */
import { z } from "@hono/zod-openapi";
import { Evidence, fact } from "./facts";

const RUBRIC =
  'Scored 0 when the statement says nothing on it; 1 when it is mentioned in general terms (a commitment, "we have policies", "we assess risk"); 2 when it is specific — concrete steps, numbers, named processes or frameworks (questionnaires, audits, Sedex, KPIs), who does it or how often — in at least two passages, or three kinds of detail in one.';

const Area = (name: string, what: string) =>
  z
    .object({
      score: z.union([z.literal(0), z.literal(1), z.literal(2)]).describe(`${name}: 0 not covered, 1 mentioned in general terms, 2 specific. ${RUBRIC}`),
      evidence: z
        .array(Evidence)
        .max(3)
        .describe("Up to three passages it rests on, the most specific first chosen, in document order; empty when the score is 0."),
      note: z.string().describe("How the score was reached, in a sentence."),
    })
    .describe(`${name} — ${what}`);

const TrainingArea = Area("Training", "s.54(5)(f): training about slavery and human trafficking available to staff (and suppliers).")
  .extend({
    audiences: z
      .array(z.enum(["all_employees", "procurement", "leadership", "suppliers", "recruitment_hr"]))
      .describe(
        'Who the statement says is trained (from the training given; from the training planned when none is given yet): `all_employees` (all staff, new starters at induction, "our staff"), `procurement` (buyers, purchasing, sourcing, supply-chain teams), `leadership` (board, directors, senior or executive management, managers), `suppliers` (suppliers, contractors, labour providers, factories), `recruitment_hr` (HR, recruitment). Empty when training is given but no audience is named (WikiRate\'s "Training provided – not specified").',
      ),
    inDevelopment: z
      .boolean()
      .describe(
        'Training on modern slavery is described as planned, being developed or to be rolled out (WikiRate\'s "In Development"), whether or not some is already given.',
      ),
  })
  .describe(
    "Training — s.54(5)(f). Only training about modern slavery counts: training on slavery, trafficking, forced labour, human rights or ethical trade, or training described in the statement's training section, not general code-of-conduct, anti-bribery or health-and-safety training, nor posters, leaflets or reading the policy. A statement that says it has no such training scores 0. Score 0 with `inDevelopment` true means training is only planned.",
  );

const Role = z.object({
  role: z
    .string()
    .nullable()
    .describe(
      'The signer\'s role as written ("Managing Director", "UK General Manager", "Designated Member"); null when the statement is signed but gives no role. The signer\'s name is never given.',
    ),
  qualifies: z
    .boolean()
    .nullable()
    .describe(
      'Whether the signer is one s.54(6) accepts: a director (any title with "Director" in it — Managing, Finance, Executive, "CEO and Director" — but not an Associate, Assistant, Deputy or Regional Director, nor a "Director of <a function>"), the chair of the board, a trustee or governor (the equivalent of a director where the governing body is trustees or governors), a designated member of an LLP or a partner. A CEO, chief executive, president, general manager, head of a function, company secretary, owner or founder does not count unless the title also says director: they may be one, but the statement does not say so. Null when the role is not given.',
    ),
  date: z.string().nullable().describe("The date given with the signature, `YYYY-MM-DD` (or `YYYY-MM` when only the month is given); null when none."),
});

const ApprovalValue = z.object({
  by: z
    .enum(["board_of_directors", "members", "partners", "trustees", "other"])
    .describe(
      "Who approved it: `board_of_directors` (the board, the directors, a court of directors — s.54(6)(a)), `members` (an LLP's members — s.54(6)(b)), `partners` (s.54(6)(c)–(d)), `trustees` (trustees, governors, a council or governing body: the equivalent body of a charity, university or trust), `other` (a person such as the CEO, a management team or committee, another company).",
    ),
  body: z.string().describe('The approving body as written ("Board of Directors, Example Ltd"), a person\'s name removed.'),
  date: z.string().nullable().describe("The date of approval, `YYYY-MM-DD` (or `YYYY-MM`); null when none is given."),
  qualifies: z.boolean().describe("The approval is by a body s.54(6) accepts (any `by` but `other`)."),
});

export const ModernSlaveryReply = z
  .object({
    organisation: fact(
      z.string(),
      "The organisation the statement is for: its legal name as the statement writes it (a name ending in Ltd, Limited, plc, LLP, Inc…), the one the statement says it applies to or the most frequent.",
    ),
    financialYear: fact(
      z.object({
        period: z
          .string()
          .describe(
            'The period as written: "financial year ending 31 March 2024", "financial year 1 September 2025 to 31 August 2026", "2023/24", or the year in the title ("2026").',
          ),
        endDate: z
          .string()
          .nullable()
          .describe("The period's last day, `YYYY-MM-DD` (or `YYYY-MM`), when the statement gives it; null when only a year is given."),
        year: z.number().int().nullable().describe("The year the period ends in."),
      }),
      "The financial year (or period) the statement covers. When only the statement's title gives a year, `note` says so.",
    ),
    statementDate: fact(
      z.string(),
      "The statement's date, `YYYY-MM-DD` (or `YYYY-MM` when only a month is given): the date given with the signature, else the date of approval, else a published/dated/updated label, else a date in the statement's title.",
    ),
    approval: fact(
      ApprovalValue,
      'Approval of the statement (s.54(6)): by the board of directors for a company, the members for an LLP, the partners for a partnership, or the equivalent governing body. Read from "approved by …", "the Board approved this statement on …" or, failing those, a signature "on behalf of the Board".',
    ),
    signature: fact(
      Role,
      'The signature (s.54(6)): the signer\'s role, whether it qualifies, and the date. Read from a signature block ("Signed: … Name / Title: Director", a name over a role line), or a sentence such as "signed on its behalf by the sole director". When several sign, it qualifies if any of them does, and `note` lists the others. The quote has any name replaced by "[name]".',
    ),
    areas: z
      .object({
        structure: Area("Structure", "s.54(5)(a): the organisation's structure, its business and its supply chains."),
        policies: Area(
          "Policies",
          "s.54(5)(b): its policies in relation to slavery and human trafficking (anti-slavery policy, codes of conduct, whistleblowing, supplier code).",
        ),
        dueDiligence: Area(
          "Due diligence",
          "s.54(5)(c): its due diligence processes in its business and supply chains (supplier checks, questionnaires, audits, contract terms).",
        ),
        riskAssessment: Area(
          "Risk assessment",
          "s.54(5)(d): the parts of its business and supply chains where there is a risk, and the steps taken to assess and manage it.",
        ),
        effectiveness: Area("Effectiveness", "s.54(5)(e): how it measures its effectiveness, against key performance indicators."),
        training: TrainingArea,
      })
      .describe("The six areas s.54(5) says a statement may include, each scored 0–2 with the passages quoted."),
    areasScore: z
      .object({
        total: z.number().int().describe("The six areas' scores added up."),
        max: z.number().int().describe("The highest possible total (12)."),
      })
      .describe("The six areas' scores added up."),
    gaps: z
      .array(z.string())
      .describe(
        "What is missing, a sentence each: no board approval or a non-qualifying approver, no qualifying signature, no date, no financial year stated, each area scored 0 (or training only planned), and looking out of date.",
      ),
    signOff: z
      .object({
        verdict: z
          .enum(["meets", "does_not_meet", "couldnt_tell"])
          .describe(
            "The s.54(6) sign-off: `meets` when both the approval and the signature qualify; `does_not_meet` when the approval is by someone other than the board (or equivalent), the signer's role is not a director, designated member or partner, or the statement states no approval or no signature; `couldnt_tell` when the document does not read as a modern slavery statement, a signature gives no role, or the document was cut before its end.",
          ),
        reasons: z.array(z.string()).describe("Why, a sentence each (approval, then signature)."),
      })
      .describe("Sign-off compliance with s.54(6): approval by the board (or equivalent) and signature by a director (or equivalent)."),
    groupStatement: fact(
      z.boolean(),
      'Whether it is a group or joint statement covering several entities ("made on behalf of X and its subsidiaries", "our Group\'s statement", "covers the following companies"). False, with no passage, when nothing says so.',
    ).extend({
      entities: z
        .array(z.string())
        .describe("The companies it names as covered (legal names ending in Ltd, plc, LLP…; never people); empty when none are named."),
    }),
    outOfDate: z
      .object({
        value: z
          .boolean()
          .nullable()
          .describe(
            "True when the end of the period it covers (a bare year taken as ending on 31 December) — or, without one, its date — is more than 18 months before today; null when neither is found.",
          ),
        note: z.string().describe("The dates compared."),
      })
      .describe("Whether the statement looks out of date (statements are to be published every financial year)."),
  })
  .openapi("ModernSlaveryReport");

/** The documented POST example: an invented statement (no real organisation or person), read by the real reader. */
export const MODERN_SLAVERY_EXAMPLE_TEXT = `# Modern Slavery and Human Trafficking Statement 2026

This statement is made under section 54(1) of the Modern Slavery Act 2015 by Example Joinery Ltd for the financial year ending 31 March 2026.

## Our structure, business and supply chains
Example Joinery Ltd designs and fits bespoke kitchens and staircases. We employ 86 people at two workshops in Leeds and Bradford. Our supply chain covers timber from UK merchants (about 60% of spend), hardware from Germany and Italy, and subcontract fitters in Yorkshire.

## Our policies
Our Anti-Slavery Policy and Supplier Code of Conduct set out what we expect of everyone we work with. Our Whistleblowing Policy lets staff raise concerns in confidence. Both policies are reviewed annually by the board.

## Due diligence
Every new supplier completes our ethical sourcing questionnaire before we place an order. In 2025 we visited our five largest timber merchants and checked their right-to-work processes. Our contracts include a clause allowing us to end the relationship if slavery is found.

## Risk assessment
We assess the risk of modern slavery as highest in imported hardware and in agency labour used during busy periods. We keep a supplier risk register, reviewed each quarter by our operations director.

## Measuring effectiveness
We track two key performance indicators: the percentage of suppliers who have completed the questionnaire (92% at March 2026) and the number of concerns reported (none this year).

## Training
All employees complete modern slavery awareness training at induction. In 2025, our four buyers attended a Stronger Together workshop on spotting the signs of forced labour. We plan to extend training to our subcontract fitters in 2026.

## Reporting concerns
Anyone can report a concern in confidence to our ethics line or by email.
Every report is investigated by a director within five working days.

## Approval
This statement was approved by the Board of Directors on 12 June 2026.

Signed: Alex Sampleford
Name / Title: Managing Director
Date: 12 June 2026
`;
