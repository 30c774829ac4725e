/**
 * A synthetic Charity Commission extract of any size, in the real TXT layout (tab-separated, header
 * row, `date_of_extract` first), for the benchmark. Each table is a function that streams its bytes
 * afresh, so the extract itself never sits in memory and what is measured is the parser.
 * Proportions follow the format note: about one linked charity per 40 main ones, 2 trustees, 4 years
 * of annual returns, 3 classifications, 2 areas and 1–2 events per charity, objects of 100–900 characters.
 */
import type { CharityTable } from "../../src/sources/charity-commission/parse";

const DATE = "2026-07-09 00:00:00";
const HEADERS: Record<CharityTable, string[]> = {
  charity: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "charity_name",
    "charity_type",
    "charity_registration_status",
    "date_of_registration",
    "date_of_removal",
    "charity_reporting_status",
    "latest_acc_fin_period_start_date",
    "latest_acc_fin_period_end_date",
    "latest_income",
    "latest_expenditure",
    "charity_contact_address1",
    "charity_contact_address2",
    "charity_contact_address3",
    "charity_contact_address4",
    "charity_contact_address5",
    "charity_contact_postcode",
    "charity_contact_phone",
    "charity_contact_email",
    "charity_contact_web",
    "charity_company_registration_number",
    "charity_insolvent",
    "charity_in_administration",
    "charity_previously_excepted",
    "charity_is_cdf_or_cif",
    "charity_is_cio",
    "cio_is_dissolved",
    "date_cio_dissolution_notice",
    "charity_activities",
    "charity_gift_aid",
    "charity_has_land",
  ],
  charity_annual_return_history: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "fin_period_start_date",
    "fin_period_end_date",
    "ar_cycle_reference",
    "reporting_due_date",
    "date_annual_return_received",
    "date_accounts_received",
    "total_gross_income",
    "total_gross_expenditure",
    "accounts_qualified",
    "suppression_ind",
    "suppression_type",
  ],
  charity_area_of_operation: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "geographic_area_type",
    "geographic_area_description",
    "parent_geographic_area_type",
    "parent_geographic_area_description",
    "welsh_ind",
  ],
  charity_classification: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "classification_code",
    "classification_type",
    "classification_description",
  ],
  charity_event_history: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "charity_name",
    "charity_event_order",
    "event_type",
    "date_of_event",
    "reason",
    "assoc_organisation_number",
    "assoc_registered_charity_number",
    "assoc_charity_name",
  ],
  charity_governing_document: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "governing_document_description",
    "charitable_objects",
    "area_of_benefit",
  ],
  charity_other_names: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "charity_name_id",
    "charity_name_type",
    "charity_name",
  ],
  charity_other_regulators: ["date_of_extract", "organisation_number", "registered_charity_number", "regulator_order", "regulator_name", "regulator_web_url"],
  charity_trustee: [
    "date_of_extract",
    "organisation_number",
    "registered_charity_number",
    "linked_charity_number",
    "trustee_id",
    "trustee_name",
    "trustee_is_chair",
    "individual_or_organisation",
    "trustee_date_of_appointment",
  ],
};

const WORDS = [
  "COMMUNITY",
  "TRUST",
  "FRIENDS",
  "OF",
  "THE",
  "PARISH",
  "HALL",
  "FOUNDATION",
  "ANIMAL",
  "RESCUE",
  "HOSPICE",
  "YOUTH",
  "CLUB",
  "MUSIC",
  "SCHOOL",
  "ASSOCIATION",
];
const CLASSES = [
  ["What", "The Advancement Of Education"],
  ["What", "The Prevention Or Relief Of Poverty"],
  ["How", "Provides Services"],
  ["How", "Makes Grants To Organisations"],
  ["Who", "Children/young People"],
  ["Who", "The General Public/mankind"],
];
const AREAS = ["Throughout England And Wales", "Greater London", "Manchester City", "Cardiff", "Leeds City", "Birmingham City", "Bristol City"];
const OBJECT_TEXT =
  "TO PROMOTE FOR THE BENEFIT OF THE INHABITANTS OF THE AREA OF BENEFIT WITHOUT DISTINCTION OF SEX, RACE OR OF POLITICAL, RELIGIOUS OR OTHER OPINIONS, THE PROVISION OF FACILITIES IN THE INTERESTS OF SOCIAL WELFARE FOR RECREATION AND LEISURE TIME OCCUPATION WITH THE OBJECT OF IMPROVING THE CONDITIONS OF LIFE FOR THE SAID INHABITANTS, AND THE RELIEF OF THOSE IN NEED BY REASON OF AGE, ILL-HEALTH, DISABILITY OR FINANCIAL HARDSHIP, BY SUCH CHARITABLE MEANS AS THE TRUSTEES MAY FROM TIME TO TIME DETERMINE, AND TO ADVANCE THE EDUCATION OF THE PUBLIC IN THE HISTORY, MUSIC AND CULTURE OF THE AREA, IN PARTICULAR BUT NOT EXCLUSIVELY BY THE PROVISION OF LECTURES, CONCERTS AND EXHIBITIONS, AND SUCH OTHER CHARITABLE PURPOSES AS THE TRUSTEES SHALL DECIDE.";

/** Charity `i` of `n`, visited in a scrambled order so no table is sorted by organisation number. */
const scrambled = (k: number, n: number) => (k * (n % 7919 ? 7919 : 7907) + 13) % n;

function rowsFor(table: CharityTable, i: number): string[][] {
  const org = String(5_000_000 + i * 2);
  const reg = String(1_100_000 + i);
  const name = `${WORDS[i % 16]} ${WORDS[(i >> 4) % 16]} ${WORDS[(i >> 8) % 16]} ${i}`;
  const removed = i % 2 === 1;
  switch (table) {
    case "charity": {
      const main = [
        DATE,
        org,
        reg,
        "0",
        name,
        i % 3 ? "Other" : "Charitable company",
        removed ? "Removed" : "Registered",
        "2001-05-12 00:00:00",
        removed ? "2019-03-01 00:00:00" : "",
        "Submission Received",
        "2024-04-01 00:00:00",
        "2025-03-31 00:00:00",
        String(1000 + i),
        String(900 + i),
        "1 High Street",
        "",
        "",
        "",
        "",
        "AB1 2CD",
        "01632 960000",
        "office@example.invalid",
        "",
        i % 3 ? "" : String(4_000_000 + i),
        "False",
        "False",
        "False",
        "False",
        i % 5 ? "False" : "True",
        "",
        "",
        "Runs local activities.",
        "True",
        "False",
      ];
      const out = [main];
      if (i % 40 === 0)
        out.push([DATE, String(5_000_001 + i * 2), reg, "1", `${name} ENDOWMENT`, "", "Registered", "2001-05-12 00:00:00", ...new Array<string>(26).fill("")]);
      return out;
    }
    case "charity_trustee":
      return Array.from({ length: i % 5 }, (_, t) => [
        DATE,
        org,
        reg,
        "0",
        String(i * 10 + t),
        `Trustee Person ${t}`,
        t ? "False" : "True",
        "P",
        "2019-06-01 00:00:00",
      ]);
    case "charity_annual_return_history":
      return Array.from({ length: removed ? 1 : (i % 7) + 1 }, (_, y) => [
        DATE,
        org,
        reg,
        `${2024 - y}-04-01 00:00:00`,
        `${2025 - y}-03-31 00:00:00`,
        `AR${25 - y}`,
        `${2026 - y}-01-31 00:00:00`,
        `${2025 - y}-11-02 00:00:00`,
        `${2025 - y}-11-02 00:00:00`,
        String(1000 + i + y),
        String(900 + i + y),
        "",
        "0",
        "",
      ]);
    case "charity_classification":
      return Array.from({ length: (i % 5) + 1 }, (_, c) => {
        const [type, desc] = CLASSES[(i + c) % CLASSES.length];
        return [DATE, org, reg, "0", String(100 + c), type, desc];
      });
    case "charity_area_of_operation":
      return Array.from({ length: (i % 3) + 1 }, (_, a) => [
        DATE,
        org,
        reg,
        "0",
        "Local Authority",
        AREAS[(i + a) % AREAS.length],
        "Region",
        "London",
        "False",
      ]);
    case "charity_event_history": {
      const out = [[DATE, org, reg, "0", name, "1", "Registered", "2001-05-12 00:00:00", "", "", "", ""]];
      if (removed) out.push([DATE, org, reg, "0", name, "2", "Removed", "2019-03-01 00:00:00", "Ceased to exist", "", "", ""]);
      return out;
    }
    case "charity_governing_document":
      return [[DATE, org, reg, "0", "TRUST DEED", OBJECT_TEXT.slice(0, 100 + ((i * 37) % 800)), "ENGLAND"]];
    case "charity_other_names":
      return i % 4 ? [] : [[DATE, org, reg, "0", String(90_000 + i), "Working Name", `${name} CENTRE`]];
    case "charity_other_regulators":
      return i % 50 ? [] : [[DATE, org, reg, "1", "Regulator of Social Housing", "https://www.gov.uk/"]];
  }
}

/** The table as a stream of UTF-8 pieces of about 256 KB. */
export function syntheticCharityTable(table: CharityTable, charities: number): () => AsyncGenerator<Uint8Array> {
  return async function* () {
    const enc = new TextEncoder();
    let text = `${HEADERS[table].join("\t")}\r\n`;
    for (let k = 0; k < charities; k++) {
      for (const row of rowsFor(table, scrambled(k, charities))) text += `${row.join("\t")}\r\n`;
      if (text.length > 262_144) {
        yield enc.encode(text);
        text = "";
      }
    }
    if (text) yield enc.encode(text);
  };
}
