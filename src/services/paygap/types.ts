/**
 * One employer's gender pay gap report for one reporting year, as the Government Equalities Office's
 * service publishes it (one CSV per reporting year; src/sources/gender-pay-gap/parse.ts reads it). Pure
 * types. Every figure is the file's own text read as a number; a blank is null (not applicable, e.g. no
 * bonuses paid), never 0. Percentages are as published: pay and bonus gaps are the % by which women's
 * pay is lower than men's (negative: women's is higher) and bonus gaps can pass ±100.
 *
 * SPEC §1 rule 7: the file's ResponsiblePerson (the signing person's name and job title) is never read
 * into this shape, nor stored anywhere.
 */

/** The share of men and women in one pay quartile (each pair sums to about 100). */
export interface QuartileSplit {
  malePct: number | null;
  femalePct: number | null;
}

export interface GenderPayGapReport {
  /** The service's own employer id: stable across years (the register's entity). */
  employerId: string;
  /** First year of the reporting year: "2021" for 2021 to 2022 (snapshot 5 April / 31 March 2021). */
  year: string;
  /** Name at the time of filing, as given (an employer named only as a person is not loaded). */
  employerName: string;
  /** The employer's current name, when the file gives one. */
  currentName: string | null;
  /** Companies House number, normalised to 8 characters; null for the many public bodies without one. */
  companyNumber: string | null;
  postcode: string | null;
  /** One-line address as given. */
  address: string | null;
  /** SIC 2007 codes, 5 digits with the leading zero the file lost restored (1470 → 01470); the service's public-sector code "1" kept as "1". */
  sicCodes: string[];
  diffMeanHourlyPct: number | null;
  diffMedianHourlyPct: number | null;
  diffMeanBonusPct: number | null;
  diffMedianBonusPct: number | null;
  /** % of men / women who received a bonus. */
  maleBonusPct: number | null;
  femaleBonusPct: number | null;
  quartiles: { lower: QuartileSplit; lowerMiddle: QuartileSplit; upperMiddle: QuartileSplit; top: QuartileSplit };
  /** Employer size band as given ("250 to 499", "20,000 or more"…); null when blank or "Not Provided". */
  sizeBand: string | null;
  /** Link to the employer's own narrative, as given. */
  link: string | null;
  /** SubmittedAfterTheDeadline (True/False); null when blank. */
  submittedLate: boolean | null;
  /**
   * DueDate as the file gives it, as `YYYY-MM-DDTHH:MM:SS` (no zone; the service's UK local time): the
   * moment the deadline passes, i.e. the start of the day after the last day to report
   * (`2022-04-05T00:00:00` for private employers' 2021 to 2022 reports, due by 4 April 2022).
   */
  dueDate: string | null;
  /** DateSubmitted, the same way (the latest submission: a resubmission replaces it). */
  submittedOn: string | null;
}
