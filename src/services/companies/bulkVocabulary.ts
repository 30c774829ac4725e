/**
 * The Basic Company Data file writes a company's status and legal form as words ("Active - Proposal to
 * Strike off", "Private Limited Company"); the public data API writes them as codes (`active` with detail
 * `active-proposal-to-strike-off`, `ltd`). Replies use the API's codes whichever source answered, so the
 * file's words are mapped here (case and spacing ignored: the file mixes "ADMINISTRATION ORDER" and
 * "Administration Order"). A word not listed becomes its own slug, never a wrong code.
 */

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Status words of the file → the API's company_status and company_status_detail. */
const STATUS: [RegExp, string, string | null][] = [
  [/^active - proposal to strike off$/, "active", "active-proposal-to-strike-off"],
  [/^active$/, "active", null],
  [/^live but receiver manager on at least one charge$/, "active", null],
  [/^liquidation$/, "liquidation", null],
  [/^(in administration|administration order)\b/, "administration", null],
  [/^voluntary arrangement\b/, "voluntary-arrangement", null],
  [/^(receivership|administrative receiver|receiver manager)\b/, "receivership", null],
  [/^insolvency proceedings$/, "insolvency-proceedings", null],
  [/^converted\s*\/\s*closed$/, "converted-closed", null],
  [/^dissolved$/, "dissolved", null],
];

export function statusFromBulk(text: string): { status: string; statusDetail: string | null } {
  const t = text.trim().replace(/\s+/g, " ").toLowerCase();
  for (const [re, status, detail] of STATUS) if (re.test(t)) return { status, statusDetail: detail };
  return { status: slug(t) || "unknown", statusDetail: null };
}

/** Legal forms of the file → the API's company_type (the CIC is a private company limited by shares or guarantee: `ltd` here). */
const TYPE: [RegExp, string][] = [
  [/^private limited company$/, "ltd"],
  [/^public limited company$/, "plc"],
  [/^limited liability partnership$/, "llp"],
  [/^limited partnership$/, "limited-partnership"],
  [/^community interest company$/, "ltd"],
  [/^pri\/lbg\/nsc\b/, "private-limited-guarant-nsc-limited-exemption"],
  [/^pri\/ltd by guar\/nsc\b/, "private-limited-guarant-nsc"],
  [/^priv ltd sect\. ?30\b/, "private-limited-shares-section-30-exemption"],
  [/^private unlimited company without share capital$/, "private-unlimited-nsc"],
  [/^private unlimited( company)?$/, "private-unlimited"],
  [/^old public company$/, "old-public-company"],
  [/^scottish charitable incorporated organisation$/, "scottish-charitable-incorporated-organisation"],
  [/^charitable incorporated organisation$/, "charitable-incorporated-organisation"],
  [/^scottish partnership$/, "scottish-partnership"],
  [/^(registered society|industrial and provident society)$/, "registered-society-non-jurisdictional"],
  [/^royal charter company$/, "royal-charter"],
  [/^overseas entity$/, "registered-overseas-entity"],
  [/^protected cell company$/, "protected-cell-company"],
  [/^investment company with variable capital\b/, "investment-company-with-variable-capital"],
  [/^further education and sixth form college corps?$/, "further-education-or-sixth-form-college-corporation"],
  [/^united kingdom economic interest grouping$/, "ukeig"],
  [/^united kingdom societas$/, "united-kingdom-societas"],
  [/^converted\/closed$/, "converted-or-closed"],
  [/^other company type$/, "other"],
];

export function typeFromBulk(text: string): string {
  const t = text.trim().replace(/\s+/g, " ").toLowerCase();
  for (const [re, type] of TYPE) if (re.test(t)) return type;
  return slug(t) || "unknown";
}
