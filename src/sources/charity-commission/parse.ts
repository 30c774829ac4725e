/**
 * Charity Commission (England and Wales) register extract, TXT flavour (tab-separated, one file per
 * table) → RegisterRecord per main charity (SPEC §4.8 charity-check, §6.3).
 * The auxiliary tables are read first into small per-organisation maps; then the `charity` table
 * is streamed. Trustees are only counted, never named (SPEC §1 rule 7); contact phone, email and
 * address are not copied.
 */
import type { RegisterRecord } from "../../services/registers/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { RegisterFormatError } from "../format-error";
import { delimitedRowBatches, firstRow } from "../delimited";

/** The extract's tables this service reads: `charity` itself, then the ones joined to it. */
export const CHARITY_TABLES = [
  "charity",
  "charity_annual_return_history",
  "charity_area_of_operation",
  "charity_classification",
  "charity_event_history",
  "charity_governing_document",
  "charity_other_names",
  "charity_other_regulators",
  "charity_trustee",
] as const;

export type CharityTable = (typeof CHARITY_TABLES)[number];

/** The tables joined to `charity`. */
export const CHARITY_EXTRA_TABLES = CHARITY_TABLES.filter((t) => t !== "charity");

type Input = Uint8Array | string;
type Cols = Record<string, number>;

const OBJECTS_CAP = 1000;
const HISTORY_YEARS = 6;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;
const UK_DATE = /^(\d{2})\/(\d{2})\/(\d{4})/;
const REMOVAL = /remov/i;
const INTERIM_MANAGER = /interim\s+manager/i;

/** `2010-01-01 00:00:00`, `2010-01-01T00:00:00` or `01/01/2010` → `2010-01-01`. */
function toDate(s: string): string | null {
  const m = ISO_DATE.exec(s);
  if (m) return m[0];
  const u = UK_DATE.exec(s);
  return u ? `${u[3]}-${u[2]}-${u[1]}` : null;
}
function toNumber(s: string): number | null {
  if (!s) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}
function toBool(s: string): boolean | null {
  const t = s.toLowerCase();
  return t === "true" || t === "1" ? true : t === "false" || t === "0" ? false : null;
}

/** Column positions by header name; throws when a required column is missing. */
function header(input: Input, table: CharityTable, required: readonly string[]): Cols {
  const cols: Cols = {};
  firstRow(input, "\t").forEach((h, i) => (cols[h.toLowerCase()] = i));
  const missing = required.filter((r) => !(r in cols));
  if (missing.length) throw new RegisterFormatError(`charity: ${table} lacks column(s) ${missing.join(", ")}`);
  return cols;
}

/** Calls `fn` with a trimmed-cell getter for every data row (header skipped). */
async function forEachRow(input: Input, cols: Cols, fn: (get: (col: string) => string) => void): Promise<void> {
  let row: string[] = [];
  const get = (col: string) => {
    const i = cols[col];
    return i === undefined ? "" : (row[i] ?? "").trim();
  };
  let first = true;
  for await (const rows of delimitedRowBatches(input, "\t")) {
    for (row of rows) {
      if (first) first = false;
      else fn(get);
    }
  }
}

/** Rows of linked (subsidiary) charities never become records, so auxiliary maps skip them. */
const isLinked = (get: (c: string) => string) => {
  const l = get("linked_charity_number");
  return l !== "" && l !== "0";
};

function push<T>(map: Map<string, T[]>, key: string, v: T): void {
  const a = map.get(key);
  if (a) a.push(v);
  else map.set(key, [v]);
}

interface Finance {
  periodStart: string | null;
  periodEnd: string | null;
  income: number | null;
  spend: number | null;
}

interface Aux {
  trustees?: Map<string, number>;
  classification?: Map<string, { what: string[]; how: string[]; who: string[] }>;
  areas?: Map<string, string[]>;
  finances?: Map<string, Finance[]>;
  removal?: Map<string, { order: number; reason: string | null }>;
  interim?: Set<string>;
  objects?: Map<string, string>;
  otherNames?: Map<string, string[]>;
  regulators?: Map<string, { order: number; name: string }[]>;
}

async function readAux(t: Partial<Record<CharityTable, Input>>): Promise<Aux> {
  const aux: Aux = {};
  const ORG = "organisation_number";
  if (t.charity_trustee) {
    const m = (aux.trustees = new Map());
    await forEachRow(t.charity_trustee, header(t.charity_trustee, "charity_trustee", [ORG]), (g) => {
      if (!isLinked(g)) m.set(g(ORG), (m.get(g(ORG)) ?? 0) + 1);
    });
  }
  if (t.charity_classification) {
    const m = (aux.classification = new Map());
    const cols = header(t.charity_classification, "charity_classification", [ORG, "classification_type", "classification_description"]);
    await forEachRow(t.charity_classification, cols, (g) => {
      const type = g("classification_type").toLowerCase();
      const desc = g("classification_description");
      if (isLinked(g) || !desc || (type !== "what" && type !== "how" && type !== "who")) return;
      let c = m.get(g(ORG));
      if (!c) m.set(g(ORG), (c = { what: [], how: [], who: [] }));
      if (!c[type].includes(desc)) c[type].push(desc);
    });
  }
  if (t.charity_area_of_operation) {
    const m = (aux.areas = new Map<string, string[]>());
    const cols = header(t.charity_area_of_operation, "charity_area_of_operation", [ORG, "geographic_area_description"]);
    await forEachRow(t.charity_area_of_operation, cols, (g) => {
      const d = g("geographic_area_description");
      if (!isLinked(g) && d && !m.get(g(ORG))?.includes(d)) push(m, g(ORG), d);
    });
  }
  if (t.charity_annual_return_history) {
    const m = (aux.finances = new Map<string, Finance[]>());
    const cols = header(t.charity_annual_return_history, "charity_annual_return_history", [ORG, "fin_period_end_date", "total_gross_income", "total_gross_expenditure"]);
    await forEachRow(t.charity_annual_return_history, cols, (g) => {
      const periodEnd = toDate(g("fin_period_end_date"));
      if (!periodEnd) return;
      const suppressed = g("suppression_ind") === "1" || toBool(g("suppression_ind")) === true;
      const f: Finance = {
        periodStart: toDate(g("fin_period_start_date")),
        periodEnd,
        income: suppressed ? null : toNumber(g("total_gross_income")),
        spend: suppressed ? null : toNumber(g("total_gross_expenditure")),
      };
      // Keep the newest HISTORY_YEARS periods, newest first, one entry per period end.
      const list = m.get(g(ORG)) ?? [];
      if (list.some((x) => x.periodEnd === periodEnd)) return;
      let at = list.findIndex((x) => (x.periodEnd ?? "") < periodEnd);
      if (at < 0) at = list.length;
      if (at >= HISTORY_YEARS) return;
      list.splice(at, 0, f);
      if (list.length > HISTORY_YEARS) list.pop();
      m.set(g(ORG), list);
    });
  }
  if (t.charity_event_history) {
    const removal = (aux.removal = new Map<string, { order: number; reason: string | null }>());
    const interim = (aux.interim = new Set<string>());
    const cols = header(t.charity_event_history, "charity_event_history", [ORG, "event_type", "reason"]);
    await forEachRow(t.charity_event_history, cols, (g) => {
      const org = g(ORG);
      const type = g("event_type");
      const reason = g("reason");
      if (INTERIM_MANAGER.test(type) || INTERIM_MANAGER.test(reason)) interim.add(org);
      if (!REMOVAL.test(type)) return;
      const order = toNumber(g("charity_event_order")) ?? 0;
      const prev = removal.get(org);
      if (!prev || order >= prev.order) removal.set(org, { order, reason: reason || null });
    });
  }
  if (t.charity_governing_document) {
    const m = (aux.objects = new Map<string, string>());
    const cols = header(t.charity_governing_document, "charity_governing_document", [ORG, "charitable_objects"]);
    await forEachRow(t.charity_governing_document, cols, (g) => {
      const o = g("charitable_objects");
      if (!isLinked(g) && o) m.set(g(ORG), o.length > OBJECTS_CAP ? `${o.slice(0, OBJECTS_CAP - 1).trimEnd()}…` : o);
    });
  }
  if (t.charity_other_names) {
    const m = (aux.otherNames = new Map<string, string[]>());
    await forEachRow(t.charity_other_names, header(t.charity_other_names, "charity_other_names", [ORG, "charity_name"]), (g) => {
      const n = g("charity_name");
      if (!isLinked(g) && n && !m.get(g(ORG))?.includes(n)) push(m, g(ORG), n);
    });
  }
  if (t.charity_other_regulators) {
    const m = (aux.regulators = new Map<string, { order: number; name: string }[]>());
    await forEachRow(t.charity_other_regulators, header(t.charity_other_regulators, "charity_other_regulators", [ORG, "regulator_name"]), (g) => {
      const name = g("regulator_name");
      if (name) push(m, g(ORG), { order: toNumber(g("regulator_order")) ?? 0, name });
    });
  }
  return aux;
}

const CHARITY_REQUIRED = ["organisation_number", "registered_charity_number", "linked_charity_number", "charity_name", "charity_registration_status"];

/**
 * Parses the extract tables of one day. `charity` is required; each other table adds its fields
 * (left null when the table is not given). Yields one record per main charity (linked number 0),
 * keyed by organisation_number.
 */
export async function* parseCharityExtract(tables: Partial<Record<CharityTable, Input>>): AsyncGenerator<RegisterRecord> {
  const main = tables.charity;
  if (!main) throw new RegisterFormatError("charity: the charity table is required");
  const cols = header(main, "charity", CHARITY_REQUIRED);
  const aux = await readAux(tables);

  const linked = new Map<string, number>();
  await forEachRow(main, cols, (g) => {
    if (isLinked(g)) linked.set(g("registered_charity_number"), (linked.get(g("registered_charity_number")) ?? 0) + 1);
  });

  let first = true;
  for await (const rows of delimitedRowBatches(main, "\t")) {
    for (const row of rows) {
      if (first) {
        first = false;
        continue;
      }
      const g = (col: string) => {
        const i = cols[col];
        return i === undefined ? "" : (row[i] ?? "").trim();
      };
      const org = g("organisation_number");
      const name = g("charity_name");
      if (!org || !name || isLinked(g)) continue;
      yield charityRecord(g, org, name, aux, linked);
    }
  }
}

function charityRecord(g: (c: string) => string, org: string, name: string, aux: Aux, linked: Map<string, number>): RegisterRecord {
  const charityNumber = g("registered_charity_number");
  const companyNumber = normaliseCompanyNumber(g("charity_company_registration_number"));
  const status = g("charity_registration_status");
  const latest: Finance = {
    periodStart: toDate(g("latest_acc_fin_period_start_date")),
    periodEnd: toDate(g("latest_acc_fin_period_end_date")),
    income: toNumber(g("latest_income")),
    spend: toNumber(g("latest_expenditure")),
  };
  const hasLatest = latest.periodStart !== null || latest.periodEnd !== null || latest.income !== null || latest.spend !== null;
  const otherNames = aux.otherNames?.get(org) ?? [];
  return {
    source: "charity",
    key: org,
    name,
    companyNumber,
    altNames: otherNames.filter((n) => n !== name),
    status,
    rating: null,
    town: null,
    data: {
      charityNumber,
      organisationNumber: org,
      name,
      type: g("charity_type") || null,
      registrationStatus: status,
      registeredOn: toDate(g("date_of_registration")),
      removedOn: toDate(g("date_of_removal")),
      removalReason: aux.removal?.get(org)?.reason ?? null,
      reportingStatus: g("charity_reporting_status") || null,
      flags: {
        insolvent: toBool(g("charity_insolvent")),
        inAdministration: toBool(g("charity_in_administration")),
        interimManager: aux.interim?.has(org) ? true : null,
      },
      isCio: toBool(g("charity_is_cio")),
      latestAccounts: hasLatest ? latest : null,
      financialHistory: aux.finances ? (aux.finances.get(org) ?? []) : null,
      classification: aux.classification ? (aux.classification.get(org) ?? { what: [], how: [], who: [] }) : null,
      areasOfOperation: aux.areas ? (aux.areas.get(org) ?? []) : null,
      trusteeCount: aux.trustees ? (aux.trustees.get(org) ?? 0) : null,
      objects: aux.objects?.get(org) ?? null,
      otherRegulators: aux.regulators ? (aux.regulators.get(org) ?? []).sort((a, b) => a.order - b.order).map((r) => r.name) : null,
      website: g("charity_contact_web") || null,
      linkedCharities: linked.get(charityNumber) ?? 0,
      extractDate: toDate(g("date_of_extract")),
    },
  };
}
