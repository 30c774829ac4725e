/**
 * Charity Commission (England and Wales) register extract, TXT flavour (tab-separated, one file per
 * table) → RegisterRecord per main charity (SPEC §4.8 charity-check, §6.3).
 * Trustees are only counted, never named (SPEC §1 rule 7); contact phone, email and address are not copied.
 *
 * The real extract is far bigger than a Worker's 128 MB (the `charity` table alone is ~390k rows), so
 * every table is read as a stream, and the charities are taken in buckets of organisation numbers:
 * a first pass over `charity` indexes the records; then, bucket by bucket, the auxiliary tables are
 * read into per-organisation maps holding only that bucket's charities, and the bucket's records are
 * yielded. Memory is bounded by the bucket, not the register. Records come in a fixed order (bucket,
 * then file order), so a run can resume at any record index (`from`) without re-reading earlier buckets.
 */
import type { CharityFinance } from "../../services/registers/catalogue";
import type { RegisterRecord } from "../../services/registers/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { REGISTER_CATALOGUE } from "../../services/registers/catalogue";
import { RegisterFormatError } from "../format-error";
import { type BatchOptions, type DelimitedInput, delimitedRowBatches, ownString } from "../delimited";

/** The extract's tables this service reads: `charity` itself, then the ones joined to it (listed once, in the register catalogue). */
export const CHARITY_TABLES = REGISTER_CATALOGUE.charity.tables;

export type CharityTable = (typeof CHARITY_TABLES)[number];

/** The tables joined to `charity`. */
export const CHARITY_EXTRA_TABLES = CHARITY_TABLES.filter((t) => t !== "charity");

/**
 * One table of the extract: its text or bytes, or a function that opens a fresh stream of its bytes
 * (a download; tables are read more than once).
 */
export type CharityTableInput = Uint8Array | string | (() => AsyncIterable<Uint8Array>);
type Cols = Record<string, number>;
type Get = (col: string) => string;

/** Charities per bucket: the auxiliary maps hold at most this many charities at a time. */
export const CHARITY_BUCKET_RECORDS = 20_000;

const open = (t: CharityTableInput): DelimitedInput => (typeof t === "function" ? t() : t);

const EXTRACT_DATE = /^(\d{4}-\d{2}-\d{2})/;

/**
 * The extract's date: `date_of_extract`, the first column of every table, in the first data row (the
 * file names carry no date). Reads only the start of a stream.
 */
export async function extractDateOf(table: CharityTableInput): Promise<string | null> {
  const src = open(table);
  const dateIn = (head: string) => EXTRACT_DATE.exec(head.split("\n", 3)[1] ?? "")?.[1] ?? null;
  if (typeof src === "string") return dateIn(src.slice(0, 65_536));
  if (src instanceof Uint8Array) return dateIn(new TextDecoder().decode(src.subarray(0, 65_536)));
  const dec = new TextDecoder();
  let head = "";
  for await (const piece of src) {
    head += dec.decode(piece, { stream: true });
    if (head.split("\n", 3).length >= 3 || head.length > 65_536) break;
  }
  return dateIn(head);
}

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
function header(row: string[], table: CharityTable, required: readonly string[]): Cols {
  const cols: Cols = {};
  row.forEach((h, i) => (cols[h.trim().toLowerCase()] = i));
  const missing = required.filter((r) => !(r in cols));
  if (missing.length) throw new RegisterFormatError(`charity: ${table} lacks column(s) ${missing.join(", ")}`);
  return cols;
}

/**
 * Reading options that skip, before parsing, the records of organisations `wanted` refuses. Reading a
 * bucket only parses that bucket's rows. A record whose organisation cannot be read cheaply (a quoted
 * field before it) is kept, and left to the caller's own check.
 */
function onlyOrganisations(wanted: ((org: string) => boolean) | null): BatchOptions {
  if (!wanted) return {};
  let col = -1;
  return {
    batchChars: 1 << 18,
    keep(record, index) {
      if (index === 0) {
        col = record.split("\t").findIndex(
          (h) =>
            h
              .replace(/^\uFEFF/, "")
              .trim()
              .toLowerCase() === "organisation_number",
        );
        return true;
      }
      if (col < 0) return true;
      let start = 0;
      for (let k = 0; k < col; k++) {
        if (record.charCodeAt(start) === 34) return true;
        const tab = record.indexOf("\t", start);
        if (tab < 0) return true;
        start = tab + 1;
      }
      if (record.charCodeAt(start) === 34) return true;
      const tab = record.indexOf("\t", start);
      return wanted(record.slice(start, tab < 0 ? record.length : tab).trim());
    },
  };
}

/**
 * Streams a table: checks its header, then calls `fn` with a trimmed-cell getter for every data row
 * (of the `wanted` organisations only, when given). The getter reads the current row only; anything
 * kept must be copied (`ownString`).
 */
async function forEachRow(
  input: CharityTableInput,
  table: CharityTable,
  required: readonly string[],
  fn: (get: Get) => void,
  wanted: ((org: string) => boolean) | null = null,
): Promise<void> {
  let cols: Cols | null = null;
  let row: string[] = [];
  const get: Get = (col) => {
    const i = cols![col];
    return i === undefined ? "" : (row[i] ?? "").trim();
  };
  for await (const rows of delimitedRowBatches(open(input), "\t", onlyOrganisations(wanted))) {
    for (row of rows) {
      if (cols) fn(get);
      else cols = header(row, table, required);
    }
  }
  if (!cols) throw new RegisterFormatError(`charity: ${table} lacks column(s) ${required.join(", ")}`);
}

/** Rows of linked (subsidiary) charities never become records, so auxiliary maps skip them. */
const isLinked = (get: Get) => {
  const l = get("linked_charity_number");
  return l !== "" && l !== "0";
};

function push<T>(map: Map<string, T[]>, key: string, v: T): void {
  const a = map.get(key);
  if (a) a.push(v);
  else map.set(key, [v]);
}

interface Aux {
  trustees?: Map<string, number>;
  classification?: Map<string, { what: string[]; how: string[]; who: string[] }>;
  areas?: Map<string, string[]>;
  finances?: Map<string, CharityFinance[]>;
  removal?: Map<string, { order: number; reason: string | null }>;
  interim?: Set<string>;
  objects?: Map<string, string>;
  otherNames?: Map<string, string[]>;
  regulators?: Map<string, { order: number; name: string }[]>;
}

/** Vocabulary strings (classifications, areas, regulators) held once each, detached from the parsed text. */
function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    let v = seen.get(s);
    if (v === undefined) seen.set((v = ownString(s)), v);
    return v;
  };
}

/** Reads the auxiliary tables into maps, for the organisations `wanted` accepts only. */
async function readAux(t: Partial<Record<CharityTable, CharityTableInput>>, wanted: (org: string) => boolean, everyone: boolean): Promise<Aux> {
  const aux: Aux = {};
  const ORG = "organisation_number";
  const intern = interner();
  const filter = everyone ? null : wanted;
  /** The row's organisation when it is wanted and not a linked charity's. */
  const orgOf = (g: Get) => {
    const org = g(ORG);
    return wanted(org) && !isLinked(g) ? org : null;
  };
  if (t.charity_trustee) {
    const m = (aux.trustees = new Map());
    await forEachRow(
      t.charity_trustee,
      "charity_trustee",
      [ORG],
      (g) => {
        const org = orgOf(g);
        if (org) m.set(org, (m.get(org) ?? 0) + 1);
      },
      filter,
    );
  }
  if (t.charity_classification) {
    const m = (aux.classification = new Map());
    await forEachRow(
      t.charity_classification,
      "charity_classification",
      [ORG, "classification_type", "classification_description"],
      (g) => {
        const org = orgOf(g);
        if (!org) return;
        const type = g("classification_type").toLowerCase();
        const desc = g("classification_description");
        if (!desc || (type !== "what" && type !== "how" && type !== "who")) return;
        let c = m.get(org);
        if (!c) m.set(org, (c = { what: [], how: [], who: [] }));
        if (!c[type].includes(desc)) c[type].push(intern(desc));
      },
      filter,
    );
  }
  if (t.charity_area_of_operation) {
    const m = (aux.areas = new Map<string, string[]>());
    await forEachRow(
      t.charity_area_of_operation,
      "charity_area_of_operation",
      [ORG, "geographic_area_description"],
      (g) => {
        const org = orgOf(g);
        const d = g("geographic_area_description");
        if (org && d && !m.get(org)?.includes(d)) push(m, org, intern(d));
      },
      filter,
    );
  }
  if (t.charity_annual_return_history) {
    const m = (aux.finances = new Map<string, CharityFinance[]>());
    const required = [ORG, "fin_period_end_date", "total_gross_income", "total_gross_expenditure"];
    await forEachRow(
      t.charity_annual_return_history,
      "charity_annual_return_history",
      required,
      (g) => {
        const org = g(ORG);
        if (!wanted(org)) return;
        const periodEnd = toDate(g("fin_period_end_date"));
        if (!periodEnd) return;
        const suppressed = g("suppression_ind") === "1" || toBool(g("suppression_ind")) === true;
        const f: CharityFinance = {
          periodStart: toDate(g("fin_period_start_date")),
          periodEnd,
          income: suppressed ? null : toNumber(g("total_gross_income")),
          spend: suppressed ? null : toNumber(g("total_gross_expenditure")),
        };
        // Keep the newest HISTORY_YEARS periods, newest first, one entry per period end.
        const list = m.get(org) ?? [];
        if (list.some((x) => x.periodEnd === periodEnd)) return;
        let at = list.findIndex((x) => (x.periodEnd ?? "") < periodEnd);
        if (at < 0) at = list.length;
        if (at >= HISTORY_YEARS) return;
        list.splice(at, 0, f);
        if (list.length > HISTORY_YEARS) list.pop();
        m.set(org, list);
      },
      filter,
    );
  }
  if (t.charity_event_history) {
    const removal = (aux.removal = new Map<string, { order: number; reason: string | null }>());
    const interim = (aux.interim = new Set<string>());
    await forEachRow(
      t.charity_event_history,
      "charity_event_history",
      [ORG, "event_type", "reason"],
      (g) => {
        const org = g(ORG);
        if (!wanted(org)) return;
        const type = g("event_type");
        const reason = g("reason");
        if (INTERIM_MANAGER.test(type) || INTERIM_MANAGER.test(reason)) interim.add(org);
        if (!REMOVAL.test(type)) return;
        const order = toNumber(g("charity_event_order")) ?? 0;
        const prev = removal.get(org);
        if (!prev || order >= prev.order) removal.set(org, { order, reason: reason ? intern(reason) : null });
      },
      filter,
    );
  }
  if (t.charity_governing_document) {
    const m = (aux.objects = new Map<string, string>());
    await forEachRow(
      t.charity_governing_document,
      "charity_governing_document",
      [ORG, "charitable_objects"],
      (g) => {
        const org = orgOf(g);
        const o = g("charitable_objects");
        if (org && o) m.set(org, ownString(o.length > OBJECTS_CAP ? `${o.slice(0, OBJECTS_CAP - 1).trimEnd()}…` : o));
      },
      filter,
    );
  }
  if (t.charity_other_names) {
    const m = (aux.otherNames = new Map<string, string[]>());
    await forEachRow(
      t.charity_other_names,
      "charity_other_names",
      [ORG, "charity_name"],
      (g) => {
        const org = orgOf(g);
        const n = g("charity_name");
        if (org && n && !m.get(org)?.includes(n)) push(m, org, ownString(n));
      },
      filter,
    );
  }
  if (t.charity_other_regulators) {
    const m = (aux.regulators = new Map<string, { order: number; name: string }[]>());
    await forEachRow(
      t.charity_other_regulators,
      "charity_other_regulators",
      [ORG, "regulator_name"],
      (g) => {
        const org = g(ORG);
        const name = g("regulator_name");
        if (wanted(org) && name) push(m, org, { order: toNumber(g("regulator_order")) ?? 0, name: intern(name) });
      },
      filter,
    );
  }
  return aux;
}

const CHARITY_REQUIRED = ["organisation_number", "registered_charity_number", "linked_charity_number", "charity_name", "charity_registration_status"];

/** Total order on organisation numbers: numeric when both are digits, else by text. */
const orgOrder = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Buckets of about `size` records by organisation number: each bucket's highest number, and how many
 * records (rows of the `charity` table that become records) fall in each.
 */
function bucketsOf(orgs: string[], size: number): { of: (org: string) => number; counts: number[] } {
  const sorted = [...orgs].sort(orgOrder);
  const bounds: string[] = [];
  for (let i = size - 1; i < sorted.length + size - 1; i += size) bounds.push(sorted[Math.min(i, sorted.length - 1)]);
  const of = (org: string) => {
    let lo = 0;
    let hi = bounds.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (orgOrder(org, bounds[mid]) <= 0) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const counts = new Array<number>(Math.max(bounds.length, 1)).fill(0);
  for (const o of orgs) counts[of(o)]++;
  return { of, counts };
}

/**
 * Parses the extract tables of one day. `charity` is required; each other table adds its fields
 * (left null when the table is not given). Yields one record per main charity (linked number 0),
 * keyed by organisation_number, starting at record index `from`.
 */
export async function* parseCharityExtract(
  tables: Partial<Record<CharityTable, CharityTableInput>>,
  opts: { from?: number; bucketRecords?: number } = {},
): AsyncGenerator<RegisterRecord<"charity">> {
  const main = tables.charity;
  if (!main) throw new RegisterFormatError("charity: the charity table is required");

  // Pass 1: which rows become records, and how many linked charities each number has.
  const linked = new Map<string, number>();
  const orgs: string[] = [];
  await forEachRow(main, "charity", CHARITY_REQUIRED, (g) => {
    if (isLinked(g)) {
      const n = ownString(g("registered_charity_number"));
      linked.set(n, (linked.get(n) ?? 0) + 1);
    } else if (g("organisation_number") && g("charity_name")) orgs.push(ownString(g("organisation_number")));
  });
  const buckets = bucketsOf(orgs, Math.max(1, opts.bucketRecords ?? CHARITY_BUCKET_RECORDS));
  const single = buckets.counts.length === 1;
  orgs.length = 0;

  let skip = Math.max(0, opts.from ?? 0);
  let b = 0;
  while (b < buckets.counts.length && skip >= buckets.counts[b]) skip -= buckets.counts[b++];

  for (; b < buckets.counts.length; b++) {
    const inBucket = (org: string) => single || buckets.of(org) === b;
    const aux = await readAux(tables, inBucket, single);
    let cols: Cols | null = null;
    for await (const rows of delimitedRowBatches(open(main), "\t", onlyOrganisations(single ? null : inBucket))) {
      for (const row of rows) {
        if (!cols) {
          cols = header(row, "charity", CHARITY_REQUIRED);
          continue;
        }
        const c = cols;
        const g: Get = (col) => {
          const i = c[col];
          return i === undefined ? "" : (row[i] ?? "").trim();
        };
        const org = g("organisation_number");
        const name = g("charity_name");
        if (!org || !name || isLinked(g) || !inBucket(org)) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        yield charityRecord(g, org, name, aux, linked);
      }
    }
  }
}

function charityRecord(g: Get, org: string, name: string, aux: Aux, linked: Map<string, number>): RegisterRecord<"charity"> {
  const charityNumber = g("registered_charity_number");
  const companyNumber = normaliseCompanyNumber(g("charity_company_registration_number"));
  const status = g("charity_registration_status");
  const latest: CharityFinance = {
    periodStart: toDate(g("latest_acc_fin_period_start_date")),
    periodEnd: toDate(g("latest_acc_fin_period_end_date")),
    income: toNumber(g("latest_income")),
    spend: toNumber(g("latest_expenditure")),
  };
  const hasLatest = latest.periodStart !== null || latest.periodEnd !== null || latest.income !== null || latest.spend !== null;
  const otherNames = aux.otherNames?.get(org) ?? [];
  // The register's own number identifies the charity (its linked charities, suffix 1, 2…, are not loaded);
  // the Commission's internal organisation number stays in `data`.
  const id = charityNumber || `org:${org}`;
  return {
    source: "charity",
    key: id,
    entity: id,
    part: null,
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
