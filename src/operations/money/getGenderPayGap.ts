import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import type { GenderPayGapReport } from "../../services/paygap/types";
import { MatchFields, MoneyCompanyQuery, matchFieldsOf, findOnRegister } from "../../app/money/registerLookup";

const PRICE = 1;

const Split = z.object({ malePct: z.number().nullable(), femalePct: z.number().nullable() });
const Year = z
  .object({
    year: z.string().describe("First year of the reporting year: 2024 is 2024 to 2025 (snapshot 5 April 2024, or 31 March for public bodies)."),
    reportingYear: z.string().describe("e.g. 2024 to 2025"),
    filedAs: z.string().describe("The name the report was filed under."),
    serviceId: z.string().describe("The gender pay gap service's own id for the reporting organisation (stable across years)."),
    hourlyPayGap: z
      .object({ meanPct: z.number().nullable(), medianPct: z.number().nullable() })
      .describe("% by which women's hourly pay is lower than men's (negative: women's is higher)."),
    bonusPayGap: z
      .object({ meanPct: z.number().nullable(), medianPct: z.number().nullable() })
      .describe("The same for bonus pay; null when no bonuses were paid; may pass ±100."),
    receivingBonus: Split.describe("% of men and of women who received a bonus."),
    quartiles: z.object({ lower: Split, lowerMiddle: Split, upperMiddle: Split, top: Split }).describe("% of men and women in each pay quartile."),
    sizeBand: z.string().nullable().describe("Headcount band as reported, e.g. 250 to 499."),
    submittedLate: z.boolean().nullable().describe("Filed after the deadline (the service's own flag)."),
    dueDate: z.string().nullable(),
    submittedOn: z.string().nullable(),
    link: z.string().nullable().describe("The company's own narrative, when it gave one."),
  })
  .openapi("GenderPayGapYear");

const yearOf = (g: GenderPayGapReport): z.infer<typeof Year> => ({
  year: g.year,
  reportingYear: `${g.year} to ${Number(g.year) + 1}`,
  filedAs: g.employerName,
  serviceId: g.employerId,
  hourlyPayGap: { meanPct: g.diffMeanHourlyPct, medianPct: g.diffMedianHourlyPct },
  bonusPayGap: { meanPct: g.diffMeanBonusPct, medianPct: g.diffMedianBonusPct },
  receivingBonus: { malePct: g.maleBonusPct, femalePct: g.femaleBonusPct },
  quartiles: g.quartiles,
  sizeBand: g.sizeBand,
  submittedLate: g.submittedLate,
  dueDate: g.dueDate,
  submittedOn: g.submittedOn,
  link: g.link,
});

export const getGenderPayGap = defineOperation({
  operationId: "getGenderPayGap",
  method: "get",
  path: "/api/v1/gender-pay-gap",
  family: "money",
  title: "Gender pay gap",
  summary:
    "Every reporting year of a company's gender pay gap: hourly and bonus gaps, who receives bonuses, the pay quartiles, its size band and whether it filed late.",
  description: [
    "The company's gender pay gap reports (Equality Act 2010 (Gender Pay Gap Information) Regulations 2017), one per reporting year, newest first: the mean and median hourly pay gaps, the mean and median bonus gaps, the share of men and of women receiving a bonus, the share of men and women in each pay quartile, the size band, and whether it was filed after the deadline. Figures are as filed; a blank is null (for example no bonuses paid).",
    "",
    "`company` is a company number or a name. The company is matched by the company number on its reports first, then by its registered and former names from Companies House, then (for a name asked) by name; `matchedBy` says which. Only employers with 250 or more employees must report, and many public bodies have no company number. The person who signed a report is never stored or returned (SPEC §1 rule 7). A company number that is no company, or a name that matches nothing, answers 404 with `query`. Price: 1 credit.",
  ].join("\n"),
  input: z.object({ company: MoneyCompanyQuery }),
  output: z
    .object({
      query: z.object({ company: z.string() }),
      ...MatchFields,
      years: z.array(Year).describe("Newest first."),
      note: z.string(),
    })
    .openapi("GenderPayGap"),
  price: PRICE,
  auth: "key",
  errors: ["not_found"],
  readOnly: true,
  example: { company: "01234567" },
  async handler({ company }, ctx) {
    const f = await findOnRegister(ctx.services, "gender-pay-gap", company);
    // One organisation: the company's number when known, else the best name match's service id.
    const number = f.company?.number ?? null;
    const first = f.found[0];
    const mine = f.found.filter(
      (e) => !e.removedOn && (number ? e.companyNumber === number || (!e.companyNumber && e.entity === first?.entity) : e.entity === first?.entity),
    );
    const years = mine.map((e) => e.data).sort((a, b) => b.year.localeCompare(a.year) || a.employerId.localeCompare(b.employerId));
    const others = [...new Set(f.found.filter((e) => !mine.includes(e)).map((e) => e.name))];
    const note = [
      years.length
        ? `${years.length} reporting year${years.length === 1 ? "" : "s"}, the newest ${years[0].year} to ${Number(years[0].year) + 1}.`
        : "No gender pay gap report found for this company. Only employers with 250 or more employees must report.",
      years.some((y) => y.submittedLate)
        ? `Filed late for ${years
            .filter((y) => y.submittedLate)
            .map((y) => y.year)
            .join(", ")}.`
        : "",
      others.length ? `The name also matches ${others.slice(0, 5).join(", ")}: ask by company number for those.` : "",
    ];
    return {
      query: { company },
      ...matchFieldsOf(f),
      years: years.map(yearOf),
      note: note.filter(Boolean).join(" "),
    };
  },
});
