/**
 * The Ofsted report reader's reply (issue 17 §3 "ofsted-report"), mirroring services/documents/ofsted.ts, and the
 * short report card used as the operation's documented POST example.
 */
import { z } from "@hono/zod-openapi";
import { AREA_KEYS, OFSTED_FORMATS, OFSTED_THEMES } from "../../services/documents/ofsted";
import { Evidence, fact } from "./facts";

const GradeFields = {
  grade: z
    .string()
    .describe(
      'The grade as the report writes it: "Outstanding", "Good", "Requires improvement", "Inadequate" (formats 1–3), or on a report card "Exceptional", "Strong standard", "Expected standard", "Needs attention", "Urgent improvement".',
    ),
  gradeNumber: z
    .number()
    .int()
    .min(1)
    .max(4)
    .nullable()
    .describe(
      "Ofsted's four-point scale where it applies (formats 1–3): 1 outstanding, 2 good, 3 requires improvement, 4 inadequate. Null on a report card's five-point scale.",
    ),
  evaluation: z
    .enum(["exceptional", "strong-standard", "expected-standard", "needs-attention", "urgent-improvement"])
    .nullable()
    .describe(
      "The report card's evaluation (format 4), best first: exceptional, strong-standard, expected-standard, needs-attention, urgent-improvement. Null on the four-point scale.",
    ),
};

const OfstedGrade = z.object(GradeFields).openapi("OfstedGrade");

const GradedArea = z
  .object({
    area: z
      .string()
      .describe('The area\'s name as written in the report ("Effectiveness of leadership and management", "The quality of education", "Inclusion").'),
    key: z
      .string()
      .describe(
        `The area, normalised, one of: ${AREA_KEYS.map((k) => `\`${k}\``).join(", ")}. The same key across formats where the area is the same (early-years, sixth-form, leadership-and-management).`,
      ),
    ...GradeFields,
    evidence: Evidence.describe("The row of the grade table (or the judgement heading) the grade was read from."),
    note: z
      .string()
      .nullable()
      .describe("Set when the report's own text gives a different grade from its table (the table's grade is given), or to qualify the grade; null otherwise."),
  })
  .openapi("OfstedGradedArea");

const QuotedPoint = z
  .object({
    quote: z
      .string()
      .describe(
        "The point as the report words it (a bullet with its sub-points, or a sentence), names of people replaced by [name], shortened with … when long.",
      ),
    page: z.number().int().nullable().describe("The PDF page it is on (1-based); null for a web page or text."),
    section: z
      .string()
      .nullable()
      .describe('The part of the report it is in (its heading, or the report\'s own part title such as "What is it like to attend this school?").'),
  })
  .openapi("OfstedQuotedPoint");

export const OfstedReply = z
  .object({
    format: fact(
      z.enum(OFSTED_FORMATS as [string, ...string[]]),
      "Which of Ofsted's four report formats the document is in: `graded-table-to-2019` (the Common Inspection Framework's grade table of overall effectiveness and key judgements, and its short-inspection letters, to August 2019), `eif-2019-2024` (the Education Inspection Framework reports, \"What is it like to attend this school?\", September 2019 – August 2024, including the ungraded reports that say the school continues to be good), `no-overall-grade-2024` (the same framework's reports from September 2024, without a single-word overall grade) or `report-card-2025` (the renewed framework's report cards, from November 2025, five-point scale). `note` says how it was recognised (the judgement names, the headings, the scale, the date). Null when the document does not read as an Ofsted report.",
    ),
    provider: z
      .object({
        name: fact(
          z.string(),
          "The school's or provider's name, from the report's title (\"Inspection of …\", \"School report\"), its running header or its outcome sentence. Never a person's name: a childminder's is not given.",
        ),
        urn: fact(z.string(), 'Ofsted\'s unique reference number (URN), as stated ("Unique reference number 139486", "URN: 142207"; early years "EY…").'),
        type: fact(
          z.string(),
          'The type of school or provision as stated ("Type of school Secondary Comprehensive", "Type of provision Childcare on non-domestic premises").',
        ),
        category: fact(z.string(), 'The school category as stated ("Academy converter", "Maintained", "Voluntary aided").'),
      })
      .describe(
        "The school or provider inspected, from the report's school details. Only the organisation: the headteacher, the chair and the inspectors are never named.",
      ),
    inspectionType: fact(
      z
        .object({
          kind: z
            .enum(["graded", "ungraded", "monitoring"])
            .describe(
              '`graded`: a full inspection that gives grades (section 5, or deemed section 5); `ungraded`: a section 8 inspection of a good or outstanding school ("continues to be good"), or a short inspection; `monitoring`: a monitoring inspection or visit.',
            ),
          section: z
            .string()
            .nullable()
            .describe('The section of the Act it was carried out under, as the report says ("section 5", "section 8"); null when it does not say.'),
        })
        .openapi("OfstedInspectionType"),
      'The kind of inspection, as the report says ("carried out under section 8 … also deemed a section 5 inspection", "Inspection of a good school", "monitoring inspection"); inferred as graded from the graded judgements when the report does not say (the note says so).',
    ),
    inspectionDates: fact(
      z
        .object({
          from: z.string().describe("The first day, YYYY-MM-DD."),
          to: z.string().describe("The last day, YYYY-MM-DD (the same as `from` for a one-day inspection)."),
        })
        .openapi("OfstedInspectionDates"),
      'The days of the inspection ("Inspection dates 9–10 February 2016", "Inspection dates: 8 and 9 March 2022"), else from the running header or "visit … on".',
    ),
    monthsSinceInspection: z
      .number()
      .int()
      .nullable()
      .describe("Whole months from the inspection's last day to today; null when the dates were not found (or are after today)."),
    overallEffectiveness: fact(
      OfstedGrade,
      'The overall effectiveness grade (formats 1 and 2), from the grade table (else from "This is a good school" or a judgement heading). For an ungraded inspection that says the school "continues to be good", the grade confirmed (the note says no new grade was given). Null with a note for the reports from September 2024 (Ofsted no longer gives schools an overall grade) and for report cards (each area is graded on its own; there is no overall grade), and for a monitoring inspection.',
    ),
    gradedAreas: z
      .array(GradedArea)
      .describe(
        "The graded areas in the order the report gives them: the key judgements of the 2015–2019 table (leadership and management; quality of teaching, learning and assessment; personal development, behaviour and welfare; outcomes for pupils), of the 2019–2025 framework (the quality of education, behaviour and attitudes, personal development, leadership and management), early years and sixth form where graded, the further-education types of provision, or a report card's evaluation areas (inclusion, curriculum and teaching, achievement, attendance and behaviour, personal development and well-being, early years, sixth form, leadership and governance). Read from the grade table, else from the report's judgement headings (\"Outcomes for pupils require improvement\"). Empty when there is none (an ungraded or monitoring inspection). The overall grade is in `overallEffectiveness`, not here.",
      ),
    safeguarding: fact(
      z
        .object({
          status: z
            .enum(["effective", "not-effective", "met", "not-met"])
            .describe(
              'As the report puts it: effective or not (formats 1–3: "The arrangements for safeguarding are effective."), met or not met (report cards).',
            ),
          effective: z.boolean().describe("True when effective or met."),
        })
        .openapi("OfstedSafeguarding"),
      'The safeguarding judgement: from the grade table\'s row ("Safeguarding Effective", "Safeguarding Met"), else the report\'s statement. A sentence that only asks leaders to ensure it is not read as the judgement.',
    ),
    causingConcern: fact(
      z.enum(["special-measures", "serious-weaknesses"]),
      'The category of concern the report places the school in: `special-measures` ("requires special measures") or `serious-weaknesses` ("has serious weaknesses"). Null when the report places it in none (the usual case), including when it says the school is no longer in one.',
    ),
    previousInspection: fact(
      z
        .object({
          grade: z
            .string()
            .nullable()
            .describe(
              'The overall grade at the previous inspection as written ("Good"); null when only its date is stated or it was not previously inspected.',
            ),
          gradeNumber: z.number().int().min(1).max(4).nullable().describe("1–4 as for `gradeNumber`."),
          date: z
            .string()
            .nullable()
            .describe("The previous inspection's (last) day, YYYY-MM-DD, or YYYY-MM when the report gives only the month; null when not stated."),
        })
        .openapi("OfstedPreviousInspection"),
      'The previous inspection, where the report states it ("Overall effectiveness at previous inspection Good", "Previous inspection grade", "Date of previous inspection", "since we judged the school to be good in June 2017").',
    ),
    strengths: z
      .array(QuotedPoint)
      .describe(
        'Strengths, quoted: the report\'s own list where it has one ("The school has the following strengths"; the key findings of a good or outstanding school before "It is not yet outstanding because"), else up to eight sentences of "What is it like to attend this school?" / "What does the school do well…" (or a report card\'s summary and area texts) that praise without reservation — a sentence with "not", "however", "too", "should" and the like is left out. Empty for a document that is not an Ofsted report.',
      ),
    improvements: z
      .array(QuotedPoint)
      .describe(
        'What the school must do to improve, quoted point by point from "What does the school need to do to improve (further)?", "Next steps" or "Areas for improvement": each bullet with its sub-points, or (without bullets) the sentences up to the one that says what to do. Up to 12. Empty when the report has no such part.',
      ),
    themes: z
      .array(
        z
          .object({
            key: z.string().describe(`The theme, one of: ${OFSTED_THEMES.map((t) => `\`${t.key}\``).join(", ")}.`),
            sentences: z
              .number()
              .int()
              .describe(
                "How many sentences of the report mention it (a sentence that runs over several bullets counts as its bullets); the grade table and Ofsted's standard back-page text are not counted.",
              ),
            example: Evidence.describe("The first sentence that mentions it."),
          })
          .openapi("OfstedTheme"),
      )
      .describe(
        "The themes the report talks about, most mentioned first (ties in the list's order), each with the number of sentences that mention it: a fixed list of keys, each matched by fixed words (reading: reading, phonics, readers; send: SEND, special educational needs, disabilities, EHC plans; attendance: attendance, absence, punctuality; safeguarding: safeguarding, child protection, safe; and so on). Deterministic: the same report always gives the same counts. Only themes mentioned at least once.",
      ),
  })
  .openapi("OfstedReport");

/** A short report card (invented: no real school or person), the operation's documented POST example. */
export const OFSTED_EXAMPLE_TEXT = `Harbour View Primary School
Quay Street, Portholme, Westmarsh WM3 8PL

School inspection report card
URN: 150123
Inspection dates: 20 to 22 January 2026
This full inspection was carried out under section 5 of the Education Act 2005.
Type of school: Primary

Evaluation areas
Inclusion: Expected standard
Curriculum and teaching: Strong standard
Achievement: Expected standard
Attendance and behaviour: Needs attention
Personal development and well-being: Expected standard
Early years: Strong standard
Leadership and governance: Expected standard
Safeguarding: Met

Summary
Harbour View Primary School is a welcoming school where pupils are happy and feel safe.
Pupils learn a well-planned curriculum and achieve well in reading and mathematics.
Too many pupils miss school too often, and this holds back their learning.

Curriculum and teaching
Teachers have strong subject knowledge and explain new ideas clearly.
Phonics is taught expertly, and pupils quickly become fluent readers.

Attendance and behaviour
Pupils behave well in lessons and around the school.
However, persistent absence is high, particularly among disadvantaged pupils.

Early years
Children in the Reception class get off to an excellent start.
Staff develop children's language and communication skilfully.

Leadership and governance
Leaders and governors know the school well and are considerate of staff workload.

Next steps
- Too many pupils, including disadvantaged pupils, are persistently absent. The school should work with families to improve the attendance of the pupils who miss school most often.
- In some foundation subjects, teachers do not check what pupils remember. The school should ensure that assessment identifies gaps in pupils' knowledge.

Date of previous inspection: 14 and 15 March 2022
`;
