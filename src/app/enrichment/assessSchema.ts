/**
 * The fit assessment's reply pieces (issue 18 §2 "assess", SPEC §2.3 and §4.1 `assessFit`): the schemas of what
 * services/enrich/assess.ts returns (`assessFit`, `draftOpener`), and the method in words for the description. The
 * operation (assessFit.ts) puts `AssessmentFields` next to its `query`, `business`, `ms`, `sources` and `attribution`.
 */
import { z } from "@hono/zod-openapi";
import { FIT_BANDS, FIT_METHOD } from "../../services/enrich/assess";

/** The rules in words, and what the draft is (for the operation's description). */
export const ASSESS_METHOD = `${FIT_METHOD} The opener draft is composed from the same facts (a greeting without a name, your offer, up to two facts, a question); where a language model is configured it may only re-word those lines, and its text is refused for the composed one when it adds a figure, a name, a rating word, a negation or any word that forecasts the business's reaction. Assess never predicts receptiveness (SPEC §4.1).`;

export const AssessFact = z
  .object({
    field: z
      .string()
      .describe(
        "Where the fact is: a path into the profile (`profile.sicCodes[0]`, `profile.signals[2].label`, `profile.whatTheyDo`), the register's facts of the confirmed company (`register.status`, `register.registeredOffice.postcode`) or the website as read (`site.careersUrl`, `site.headings[1]`).",
      ),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
      .nullable()
      .describe("The value found at `field`, exactly; null for an absence the watch-out is about (no company number, no website)."),
    source: z
      .string()
      .describe('Where the value comes from: "companies register", "website: https://…", a register\'s name, or "identity check (enrichment)".'),
  })
  .openapi("AssessFact");

export const FitReason = z
  .object({
    reason: z.string().describe("The rule's finding in words, naming the fact it rests on."),
    points: z.number().int().describe("Points the rule adds; negative for a mismatch or a risk (see the method)."),
    fact: AssessFact.describe("The profile fact the reason rests on."),
  })
  .openapi("FitReason");

export const SignalForYou = z
  .object({
    code: z
      .string()
      .describe("The profile signal's code (`hiring`, `cqc-registered`, `won-public-contracts`, `accounts-overdue`, …) or the fact's (`has-website`)."),
    label: z.string().describe("The signal in words, as the profile gives it."),
    kind: z.enum(["opportunity", "risk", "info"]).describe("The signal's kind, as the profile gives it."),
    whyItMatters: z.string().describe("How the fact bears on what your offer is about; never a statement about the business's intentions."),
    fact: AssessFact.describe("The profile fact the signal rests on."),
  })
  .openapi("SignalForYou");

export const WatchOut = z
  .object({
    text: z.string().describe("The risk or gap in words: register status, overdue filings, an unconfirmed identity, missing data, a possible competitor."),
    fact: AssessFact.describe("The profile fact (or the absence) it rests on."),
  })
  .openapi("AssessWatchOut");

export const ApproachAngle = z
  .object({
    text: z.string().describe("Which facts an opener can rest on, and what your offer is, in words; factual, with no claim about the business's intent."),
    facts: z.array(AssessFact).describe("The facts the text names, strongest first (at most three)."),
  })
  .openapi("ApproachAngle");

export const OfferRead = z
  .object({
    what: z.string().describe("What is sold: the offer's words before the audience, size or place it names."),
    terms: z.array(z.string()).describe("The offer's key words, stemmed, that were compared with what the business says it does."),
    audiences: z
      .array(
        z.object({
          key: z.string().describe("The audience's key in the table (`legal`, `care`, `hospitality`, `startups`, `charities`, …)."),
          kind: z
            .enum(["sector", "stage", "type"])
            .describe("`sector` (compared with SIC codes), `stage` (new businesses: the incorporation date) or `type` (charities)."),
          matched: z.string().describe("The offer's own words for it."),
          sic: z.array(z.string()).describe("The SIC 2007 code prefixes it maps to (division 2 digits, group 3, class 4); empty for a stage or type."),
        }),
      )
      .describe("The audiences the offer names."),
    sizes: z
      .array(
        z.object({
          matched: z.string().describe("The offer's own words."),
          label: z.string().describe("The staff range in words."),
          min: z.number().int().describe("Fewest staff."),
          max: z.number().int().nullable().describe("Most staff; null for no upper bound."),
        }),
      )
      .describe("The business sizes the offer names (staff ranges: micro up to 10, small up to 50, medium up to 250)."),
    places: z
      .array(
        z.object({
          matched: z.string().describe("The offer's own words."),
          name: z.string().describe('The place ("Bristol", "North West").'),
          region: z
            .string()
            .nullable()
            .describe(
              "The UK region, when the place is one (compared by the registered office's postcode area); null for a town (compared with the office's address).",
            ),
        }),
      )
      .describe("The places the offer names."),
    national: z.boolean().describe('True when the offer says it covers the whole country ("across the UK"): no place is weighed.'),
    needs: z
      .array(
        z.object({
          key: z
            .string()
            .describe(
              "`hiring`, `visas`, `accounts`, `new-business`, `tenders`, `care-quality`, `accessibility`, `website`, `cash-flow`, `growth`, `sustainability` or `compliance`.",
            ),
          label: z.string().describe("In words."),
          matched: z.string().describe("The offer's own words."),
        }),
      )
      .describe("What the offer is about, compared with the profile's signals."),
  })
  .openapi("OfferRead");

/** The assessment's fields of the reply (SPEC §2.3: fitScore, fitReasons, signalsForYou, approachAngle, openerDraft, watchOuts). */
export const AssessmentFields = z
  .object({
    fitScore: z
      .number()
      .int()
      .min(0)
      .max(100)
      .describe(
        "How far the offer matches the verified profile, 0–100: the sum of the rules' points, held between 0 and 100 and capped by the register status (see the method).",
      ),
    fitBand: z
      .enum(["strong", "possible", "weak"])
      .describe(`\`strong\` (${FIT_BANDS.strong}+), \`possible\` (${FIT_BANDS.possible}–${FIT_BANDS.strong - 1}) or \`weak\` (below ${FIT_BANDS.possible}).`),
    fitReasons: z.array(FitReason).describe("Every rule that added or took away points, largest first; each cites the profile fact it rests on."),
    signalsForYou: z.array(SignalForYou).describe("The profile's signals that bear on what the offer is about or the sector it names."),
    approachAngle: ApproachAngle.describe("The facts an opener can rest on (factual)."),
    openerFacts: z.array(z.string()).describe("The facts of the approach angle as sentences an opener may use as they are."),
    openerDraft: z
      .string()
      .describe(
        "A short opener for you to edit: a greeting without a name, your offer, up to two facts, a question. Never a claim about their needs or intentions.",
      ),
    draftBy: z
      .enum(["facts", "model"])
      .describe("`facts`: composed from the facts; `model`: a language model's wording of the same lines, checked to add nothing."),
    editable: z.literal(true).describe("Always true: the draft is yours to edit."),
    watchOuts: z.array(WatchOut).describe("Risks and gaps: register status, overdue filings, unconfirmed identity, data not read, a possible competitor."),
    notWeighed: z.array(z.string()).describe("What the rules could not compare (nothing in the profile to compare with), in words."),
    offerRead: OfferRead.describe("How the offer was read."),
    method: z.string().describe("The rules and points in words."),
  })
  .openapi("AssessmentFields");

export type AssessmentFieldsT = z.infer<typeof AssessmentFields>;
