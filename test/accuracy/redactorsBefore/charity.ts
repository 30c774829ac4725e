/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/charityReport.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
// ---------------------------------------------------------------------------------------------------------------
// Privacy: names out of quotes
// ---------------------------------------------------------------------------------------------------------------

/** Words that make a capitalised run an organisation or a place, not a person. */
const NOT_A_PERSON =
  /\b(?:trust|trustees?|board|charity|charities|council|commission|association|foundation|committee|limited|ltd|llp|plc|cio|company|group|centre|center|project|society|fund|funds|accountants?|chartered|partners|services|bank|church|hall|club|school|university|college|office|house|street|road|lane|uk|england|wales|scotland|ireland|northern|british|national|community|lottery|statement|report|accounts|financial|activities|balance|sheet|notes?|section|receipts?|payments?|independent|examiner'?s?|auditors?|approved|signed|signature|date|chair|treasurer|secretary|director|directors|the|of|and|for|on|behalf|print|name|reserves|policy|total|income|expenditure|governance|management|risk|safeguarding|grant|day|meeting|annual|general)\b/i;
const TITLE = "(?:(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Revd?|Cllr|Sir|Dame|Canon)\\.?\\s+)";
const NAME = `(?:${TITLE}?(?:[A-Z]\\.\\s?){1,3}\\s?[A-Z][a-zA-Z'’-]+|${TITLE}?[A-Z][a-z'’-]+(?:\\s+[A-Z]\\.)?(?:\\s+(?:[A-Z][a-z'’]+-)?[A-Z](?:[a-z]|['’][A-Z])[a-zA-Z'’-]*){1,2}|${TITLE}[A-Z][a-zA-Z'’-]+)`;
const ROLE =
  "(?:Chair(?:man|woman|person)?(?: of (?:the )?(?:Trustees|Board|Committee))?|Vice[- ]Chair|Treasurer|(?:Company |Hon\\.? )?Secretary|Trustee|Director|President|(?:Independent )?Examiner|(?:Senior Statutory )?Auditor|Reporting Accountant)";
const QUALS = "(?:\\s+(?:[A-Z]{2,6}|\\([A-Z]{2,6}\\)))*";
const NAME_BEFORE_ROLE = new RegExp(
  `(${NAME})(${QUALS})(\\s*(?:,|\\(|–|-|—)?\\s*)(?=${ROLE}\\b|(?:resigned|appointed|retired|co-opted|elected|until|from)\\b)`,
  "g",
);
const ci = (w: string) => w.replace(/[A-Za-z]/g, (c) => `[${c.toUpperCase()}${c.toLowerCase()}]`);
const LABELS = [
  "Signed",
  "Signature",
  "Print name",
  "Printed name",
  "Name",
  "Chairman",
  "Chairperson",
  "Chair",
  "Treasurer",
  "Secretary",
  "Trustee",
  "Independent examiner",
  "Examiner",
  "Auditor",
  "Reporting accountant",
]
  .map(ci)
  .join("|");
const NAME_AFTER_LABEL = new RegExp(`(\\b(?:${LABELS})\\b\\s*(?:\\(?[a-z ]{0,30}\\)?)?\\s*[:\\-–]?\\s*)(${NAME})`, "g");
const NAME_AFTER_BY = new RegExp(`(\\b(?:by|behalf by)\\s*:?\\s*)(${NAME})`, "g");
const LEADING_NAME = new RegExp(`^(${NAME})(?=\\s*(?:$|,|\\(|\\d|–|-))`);

const isPerson = (s: string) => !NOT_A_PERSON.test(s) && /[a-z]/.test(s);

/** Words of report headings that are not names ("Going Concern", "Public Benefit", "Our Impact"). */
const HEADING_WORDS =
  /\b(?:going|concern|public|benefit|principal|risks?|review|plans?|future|objectives?|objects?|activities|achievements?|performance|structure|reference|administrative|details?|responsibilities|contents|introduction|welcome|highlights?|impact|thanks|acknowledge?ments?|volunteers?|volunteering|funding|fundraising|grants?|investments?|polic(?:y|ies)|reserves|accounting|basis|preparation|our|we|what|who|how|why|year|chief|executive|message|foreword|summary|key|facts|figures|looking|ahead|forward|service|people|staff|supporters|thank|you|legal|information|aims|mission|vision|values|history|background|strategy|strategic|outcomes|outputs|beneficiaries|programmes?|projects?|events?|campaigns?|health|safety|equality|diversity|inclusion|data|protection|complaints|remuneration|pay|related|party|transactions|taxation|pensions?|employees|trading|subsidiar(?:y|ies)|connected|disclosure|bankers|solicitors|advisers|advisors|address|contact|patrons?|officers|opinion|conclusions?|matters|appendix|schedule|analysis|movement|cash|flows?|assets|liabilities|creditors|debtors|fixed|current|tangible|intangible|income|expenditure|costs?|support|care|home|day|centre|learning|young|older|children|adults?|families|women|men|food|bank|cafe|café|shop|hall|club|youth|sport|arts?|music|training|education|housing|advice|services)\b/i;
const NAME_ONLY = new RegExp(`^(${NAME})(${QUALS})(\\s*(?:,|\\(|–|-)?\\s*(?:${ROLE})?\\)?\\s*)$`);

/** A section heading that is a person's name (a trustees' list or a signature line read as a heading) becomes "[name]". */
export function redactHeading(heading: string): string {
  const m = NAME_ONLY.exec(heading.trim());
  if (m && isPerson(m[1]) && !HEADING_WORDS.test(m[1])) return `[name]${m[2]}${m[3]}`;
  return redactNames(heading, heading);
}

/**
 * A quote with people's names taken out: a name before a role ("[name], Chair", "[name] FCCA Independent Examiner"),
 * after a signature label ("Signed: [name]", "Print name [name]"), after "by" in a signature line, and a signature
 * line that is only a name and a date. Organisations and places are left alone (a run holding "Trust", "Council",
 * "Lane" … is not a person).
 */
export function redactNames(quote: string, context = ""): string {
  let q = quote.replace(NAME_BEFORE_ROLE, (all, name: string, quals: string, sep: string) => (isPerson(name) ? `[name]${quals}${sep}` : all));
  q = q.replace(NAME_AFTER_LABEL, (all, label: string, name: string) => (isPerson(name) ? `${label}[name]` : all));
  const signing = /\b(?:sign|signed|signature|approved|behalf|print name)\b/i;
  if (signing.test(q) || signing.test(context)) {
    q = q.replace(NAME_AFTER_BY, (all, label: string, name: string) => (isPerson(name) ? `${label}[name]` : all));
    if (q.length < 80) q = q.replace(LEADING_NAME, (all, name: string) => (isPerson(name) ? "[name]" : all));
  }
  return q;
}
