/**
 * The CQC report reader's reply (issue 17 §3 "cqc-report", SPEC §4.3): the schema of what
 * services/documents/cqc.ts reads, and the documented example document.
 */
import { z } from "@hono/zod-openapi";
import { CQC_RATINGS, ENFORCEMENT_KINDS, KEY_QUESTIONS } from "../../services/documents/cqc";
import { Evidence, fact } from "./facts";

const Rating = z
  .object({
    rating: z
      .enum(CQC_RATINGS)
      .describe(
        "The rating, normalised to the CQC's own values: `Outstanding`, `Good`, `Requires improvement`, `Inadequate`; or a non-rating the document gives instead (`Not rated`, `Inspected but not rated`, `Insufficient evidence to rate`, `No rating`).",
      ),
    asWritten: z.string().describe('The rating as the document writes it ("Requires Improvement", "INADEQUATE").'),
    score: z
      .number()
      .int()
      .nullable()
      .describe("A percentage score printed next to the rating (some single assessment framework pages); null when none is printed."),
  })
  .openapi("CqcRatingRead");

const keyQuestion = (name: string) =>
  fact(
    Rating,
    `The "${name}" key question's rating, read from the report's ratings table or the page's ratings (the first one the document gives; \`note\` says when the document gives another further on).`,
  );

const Enforcement = z
  .object({
    kind: z
      .enum(ENFORCEMENT_KINDS)
      .describe(
        '`warning_notice`; `requirement_notice` (a row of the report\'s "Action we have told the provider to take" table, or a notice the text says was issued); `condition` (conditions imposed on or varied in the registration); `special_measures`; `suspension` or `cancellation` of the registration; `fixed_penalty`; `prosecution`; `other` (enforcement action the text does not name, a caution).',
      ),
    regulation: z.string().nullable().describe('The regulation number it concerns ("12", "20A"), when the passage names one.'),
    previous: z
      .boolean()
      .describe(
        "True when the passage is about an earlier inspection: a notice served before this one (and checked now), or a service that has come out of special measures.",
      ),
    evidence: Evidence,
  })
  .openapi("CqcEnforcement");

const Breach = z
  .object({
    regulation: z.string().describe('The regulation number ("12", "17", "20A").'),
    regulations: z
      .enum(["HSCA RA Regulations 2014", "CQC (Registration) Regulations 2009"])
      .describe(
        "Which regulations: the Health and Social Care Act 2008 (Regulated Activities) Regulations 2014 (the fundamental standards), or the Care Quality Commission (Registration) Regulations 2009 (notifications).",
      ),
    title: z
      .string()
      .nullable()
      .describe('The regulation\'s title in those regulations ("Safe care and treatment"), from the regulations themselves; null for a number we do not know.'),
    evidence: Evidence,
  })
  .openapi("CqcBreach");

const QualityStatement = z
  .object({
    keyQuestion: z.enum(KEY_QUESTIONS).describe("The key question the quality statement belongs to."),
    name: z.string().describe('The quality statement ("Learning culture", "Safeguarding"), as the single assessment framework names it.'),
    score: z.number().int().min(1).max(4).describe("Its score: 4 exceptional standard, 3 good standard, 2 some shortfalls, 1 significant shortfalls."),
    evidence: Evidence,
  })
  .openapi("CqcQualityStatement");

export const CqcReply = z
  .object({
    format: z
      .enum(["inspection_report", "assessment_report", "location_page", "unknown"])
      .describe(
        "What the document was read as: `inspection_report` (the rated inspection reports of 2014–2023: ratings table, summary of findings, the five key questions, action told to the provider); `assessment_report` (the single assessment framework, from late 2023: key questions rated, quality statements scored); `location_page` (a service's page on www.cqc.org.uk); `unknown` (not recognisably a CQC report: the fields may be empty).",
      ),
    formatNote: z.string().describe("What the format means, or why the document was not recognised."),
    service: z
      .object({
        name: fact(z.string(), 'The service (the CQC "location"): from the report\'s cover, the page\'s heading, or "X is a care home …".'),
        locationId: fact(z.string(), 'The CQC location ID ("1-123456789"), when the document states it.'),
        type: fact(
          z.string(),
          'The type of service, normalised: "care home", "care home with nursing", "domiciliary care", "supported living", "extra care housing", "shared lives", "hospice", "GP practice", "dental practice", "hospital", "ambulance service" or "other".',
        ),
        address: fact(z.string(), "The service's address, up to its postcode, from the report's cover or the page's header."),
      })
      .describe("The service inspected."),
    provider: z
      .object({
        name: fact(
          z.string(),
          'The registered provider: "Provided and run by", a "Provider:" label, or the line above the service on a report\'s cover. A provider who is an individual is not named ("[name]").',
        ),
        providerId: fact(z.string(), 'The CQC provider ID ("1-…"), when the document states it.'),
      })
      .describe("The organisation registered to run the service."),
    registeredManager: fact(
      z.boolean(),
      'Whether the service had a registered manager ("The service had a manager registered with the Care Quality Commission", "there was no registered manager in post"). The manager is never named.',
    ),
    overallRating: fact(
      Rating,
      'The service\'s overall rating ("Overall rating for this service", "Overall rating:"), the first the document gives; a previous rating is not taken for it.',
    ),
    keyQuestions: z
      .object({
        safe: keyQuestion("Safe"),
        effective: keyQuestion("Effective"),
        caring: keyQuestion("Caring"),
        responsive: keyQuestion("Responsive"),
        wellLed: keyQuestion("Well-led"),
      })
      .describe(
        'The five key questions ("Is the service safe?" … "Is the service well-led?"), each with its rating; read whether written as questions, as bare labels ("Well led"), in capitals, or split over two lines.',
      ),
    qualityStatements: z
      .array(QualityStatement)
      .describe(
        'Single assessment framework reports: the quality statements given a score ("Learning culture — Score: 3"), in document order. Empty for the earlier reports and when none is scored.',
      ),
    inspectionDates: fact(
      z.object({ from: z.string().describe("First day, `YYYY-MM-DD`."), to: z.string().describe("Last day, `YYYY-MM-DD` (the same as `from` for one day).") }),
      'The inspection visit or assessment dates ("Date of inspection visit: 12 and 13 March 2019", "Assessment activity started on … and ended on …", "Latest inspection").',
    ),
    publicationDate: fact(
      z.string(),
      'When the report was published, `YYYY-MM-DD` ("Date of publication", "Published", "Report published"); a previous report\'s date is not taken for it.',
    ),
    reportAgeMonths: z
      .number()
      .int()
      .nullable()
      .describe("Whole months from the publication date (or, without one, the last inspection day) to the day of the reading; null when neither is known."),
    ratingChange: fact(
      z.object({
        previous: z.enum(CQC_RATINGS).describe('The previous overall rating the report states ("The last rating for this service was Good").'),
        previousPublished: z.string().nullable().describe("When the previous report was published, `YYYY-MM-DD`, if stated."),
        current: z.enum(CQC_RATINGS).nullable().describe('The current overall rating (from `overallRating`, or from "has changed from … to …").'),
        direction: z
          .enum(["improved", "declined", "unchanged"])
          .nullable()
          .describe("How the overall rating moved, by the order Inadequate < Requires improvement < Good < Outstanding; null when either is not a rating."),
      }),
      "The previous overall rating, where the report states it. Null with a note when the report says this is the first inspection.",
    ),
    strengths: z
      .array(Evidence)
      .describe(
        "Sentences of the report saying what the service does well, quoted (the summary first, then the findings): at most eight; a sentence with a shortfall in it is a concern, not a strength.",
      ),
    concerns: z
      .array(Evidence)
      .describe("Sentences of the report stating shortfalls, risks and breaches of regulation, quoted (the summary first, then the findings): at most ten."),
    breaches: z
      .array(Breach)
      .describe(
        'The regulations the report says were breached (not being met): from the text ("This was a breach of regulation 12") and from the tables of action told to the provider and enforcement. A breach the report says was at an earlier inspection and has been put right is not listed.',
      ),
    enforcement: z
      .array(Enforcement)
      .describe(
        'Enforcement action the report records, one entry per kind and regulation, in document order: from the "Enforcement actions" and "Action we have told the provider to take" tables and from sentences saying action was taken. Sentences explaining what could happen ("this will usually lead to cancellation") and the rating legend are not taken.',
      ),
  })
  .openapi("CqcReport");

/** The documented POST example: a short 2019-style inspection report, invented (no real service or person). */
export const CQC_EXAMPLE_TEXT = `Brookfield Care Limited
Willow Bank House
Inspection report
7 Station Road
Melbury
Dorset
DT9 9ZZ
Date of inspection visit: 4 and 5 June 2019
Date of publication: 18 July 2019

Ratings
Overall rating for this service: Requires improvement
Is the service safe? Requires improvement
Is the service effective? Good
Is the service caring? Good
Is the service responsive? Good
Is the service well-led? Requires improvement

Summary of findings

About the service
Willow Bank House is a residential care home providing personal care to 24 people aged 65 and over. The service can support up to 28 people.

People's experience of using this service
People told us staff were kind and treated them with dignity. Relatives said the home was welcoming and well organised.
Medicines were not always managed safely. Two people's medicines records did not match the stock held.
Audits had not identified the shortfalls we found with medicines.
This was a breach of regulation 12 (Safe care and treatment) of the Health and Social Care Act 2008 (Regulated Activities) Regulations 2014.
The service had a manager registered with the Care Quality Commission.

Rating at last inspection
The last rating for this service was Good (published 2 November 2016).

Enforcement
We issued a warning notice in relation to regulation 12.

Action we have told the provider to take
The table below shows where legal requirements were not being met.
Regulated activity: Accommodation for persons who require nursing or personal care
Regulation 17 HSCA RA Regulations 2014 Good governance
Systems were not operated effectively to assess and monitor the quality of the service.

Enforcement actions
The table below shows where legal requirements were not being met and we have taken enforcement action.
Regulation 12 HSCA RA Regulations 2014 Safe care and treatment
The enforcement action we took: we served a warning notice.`;
