/**
 * Tender notices (issue 18 §2 tender-match) from the same Find a Tender (FTS) and Contracts Finder (CF) OCDS APIs
 * as the contract awards (./client.ts, ./parse.ts; format: ../shared/formats/contracts-finder-fts.md): the
 * releases of the tender stage (tags tender, tenderUpdate, tenderAmendment, tenderCancellation; planning releases
 * too, as `planned` notices) read into one TenderNotice per contracting process (ocid).
 *
 * - Releases of one ocid are applied oldest first (by release date, then file order): a later tender-stage release
 *   updates the notice (what it leaves out is kept from the earlier one); a later release with awards (or an award
 *   tag) closes it (status `complete` unless it says cancelled, unsuccessful or withdrawn; `closedBy: award`).
 * - A release that closes a process whose tender stage is not in the file is returned as a closure: it closes a
 *   notice already stored and never creates one.
 * - Descriptions: line breaks (`\r\n`) and runs of spaces folded, trimmed, cut at DESCRIPTION_CHARS.
 * - Contact points and people are never read; buyers are organisations.
 * - Releases of other publishers (OCID prefixes other than FTS's and CF's) are counted and skipped.
 *
 * Fetching: `stages=tender` on both APIs, for a window of time (FTS `updatedFrom/updatedTo`, CF
 * `publishedFrom/publishedTo`), through ./client.ts's paging (cursor links, Retry-After within a budget).
 */
import { DESCRIPTION_CHARS, type TenderNotice, type TenderSource } from "../../services/contracts/tenderMatch";
import { CONTRACTS_PAGE_SIZE, type ContractsClientConfig, type ReleasePages, apiTimestamp, fetchReleasePages } from "./client";
import { type Obj, PUBLISHERS, amountOf, arr, isObj, noticeUrlOf, obj, objs, readOcdsFile, str } from "./parse";
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : null);

/** Tags of a tender-stage release (lower case). Planning releases announce a `planned` procurement. */
const TENDER_TAGS = new Set(["tender", "tenderupdate", "tenderamendment", "tendercancellation", "planning", "planningupdate"]);
/** Tags of a release that follows the tender stage: the process is awarded or contracted. */
const AWARD_TAGS = new Set([
  "award",
  "awardupdate",
  "awardcancellation",
  "contract",
  "contractupdate",
  "contractamendment",
  "implementation",
  "implementationupdate",
  "contracttermination",
]);
/** Statuses that close a process, as an award release may state them. */
const CLOSED = new Set(["complete", "cancelled", "unsuccessful", "withdrawn"]);

/** A later release that closes a process whose notice is stored (the file does not hold its tender stage). */
export interface TenderClosure {
  ocid: string;
  noticeId: string;
  releaseDate: string | null;
  status: string;
  closedBy: string;
}

export interface TendersParse {
  /** The packages' newest publishedDate, else the newest release date (YYYY-MM-DD); null when neither. */
  editionDate: string | null;
  /** One notice per process whose tender stage is in the file, as its releases in the file leave it. */
  notices: TenderNotice[];
  /** Closures of processes whose tender stage is not in the file. */
  closures: TenderClosure[];
  /** Counts of what was left out or folded (never names). */
  notes: Record<string, number>;
}

const count = (notes: Record<string, number>, what: string, n = 1) => {
  notes[what] = (notes[what] ?? 0) + n;
};

const dateValue = (d: string | null) => {
  const t = d ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
};

/** Line breaks and runs of white space folded to one space, trimmed, cut at DESCRIPTION_CHARS with an ellipsis. */
export function foldText(text: string | null, max: number = DESCRIPTION_CHARS): string | null {
  const t = text?.replace(/\s+/g, " ").trim();
  if (!t) return null;
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

function cpvCodes(tender: Obj): TenderNotice["cpv"] {
  const out: TenderNotice["cpv"] = [];
  const add = (c: unknown) => {
    if (!isObj(c)) return;
    const scheme = str(c.scheme)?.toUpperCase();
    const id = str(c.id)?.replace(/-\d$/, ""); // CPV codes are written with or without their check digit (72000000-5)
    if (!id || (scheme && scheme !== "CPV") || !/^\d{8}$/.test(id) || out.some((x) => x.id === id)) return;
    out.push({ id, description: str(c.description) });
  };
  add(tender.classification);
  for (const c of arr(tender.additionalClassifications)) add(c);
  for (const item of [...objs(tender.items), ...objs(tender.lots).flatMap((l) => objs(l.items))]) {
    add(item.classification);
    for (const c of arr(item.additionalClassifications)) add(c);
  }
  return out;
}

function tenderValueOf(tender: Obj): TenderNotice["value"] {
  const v = obj(tender.value);
  let amount = amountOf(v.amount) ?? amountOf(v.amountGross);
  const min = amountOf(obj(tender.minValue).amount);
  const max = amountOf(obj(tender.maxValue).amount);
  const lots = objs(tender.lots);
  // No total given: the lots' values summed, when every lot states one.
  if (amount === null && lots.length && lots.every((l) => amountOf(obj(l.value).amount) !== null))
    amount = lots.reduce((n, l) => n + amountOf(obj(l.value).amount)!, 0);
  if (amount === null && min === null && max === null) return null;
  const currency =
    str(v.currency) ?? str(obj(tender.minValue).currency) ?? str(obj(tender.maxValue).currency) ?? str(obj(obj(lots[0]).value).currency) ?? "GBP";
  return { amount, min, max, currency };
}

function deadlineOf(tender: Obj): string | null {
  const own = str(obj(tender.tenderPeriod).endDate);
  if (own) return own;
  // Lots with their own deadlines: the process is open while one of them is.
  const lots = objs(tender.lots)
    .map((l) => str(obj(l.tenderPeriod).endDate))
    .filter((d): d is string => !!d)
    .sort((a, b) => dateValue(b) - dateValue(a));
  return lots[0] ?? null;
}

function suitabilityOf(tender: Obj): TenderNotice["suitability"] {
  const s = obj(tender.suitability);
  let sme = bool(s.sme);
  let vcse = bool(s.vcse);
  for (const l of objs(tender.lots)) {
    const ls = obj(l.suitability);
    if (sme === null && bool(ls.sme) !== null) sme = bool(ls.sme);
    else if (bool(ls.sme) === true) sme = true;
    if (vcse === null && bool(ls.vcse) !== null) vcse = bool(ls.vcse);
    else if (bool(ls.vcse) === true) vcse = true;
  }
  return { sme, vcse };
}

function regionsOf(tender: Obj): string[] {
  const out: string[] = [];
  const add = (v: unknown) => {
    const s = str(v);
    if (s && !out.includes(s)) out.push(s);
  };
  const items = [...objs(tender.items), ...objs(tender.lots).flatMap((l) => objs(l.items))];
  for (const a of [
    ...objs(tender.deliveryAddresses),
    ...items.flatMap((i) => [...objs(i.deliveryAddresses), ...(isObj(i.deliveryAddress) ? [i.deliveryAddress] : [])]),
  ]) {
    add(a.region);
    add(a.postalCode);
    if (!str(a.region) && !str(a.postalCode)) add(a.countryName);
  }
  for (const l of items.flatMap((i) => [...objs(i.deliveryLocations), ...(isObj(i.deliveryLocation) ? [i.deliveryLocation] : [])])) add(l.description);
  return out;
}

const tagsOf = (r: Obj) => arr(r.tag).map((t) => String(t).toLowerCase());

/** Whether a release is of the tender (or planning) stage and carries no award. */
const isTenderStage = (r: Obj) => !objs(r.awards).length && tagsOf(r).some((t) => TENDER_TAGS.has(t));
/** Whether a release follows the tender stage (awards, contracts). */
const isAwardStage = (r: Obj) => objs(r.awards).length > 0 || tagsOf(r).some((t) => AWARD_TAGS.has(t));

/** The notice one tender-stage release gives. */
export function noticeOf(r: Obj, source: TenderSource): TenderNotice {
  const ocid = str(r.ocid)!;
  const noticeId = str(r.id) ?? ocid;
  const tender = obj(r.tender);
  const buyerParty = objs(r.parties).find((p) => arr(p.roles).includes("buyer"));
  const tags = tagsOf(r);
  // OCDS 1.1 also writes a planned process as `planning`.
  const stated =
    str(tender.status)
      ?.toLowerCase()
      .replace(/^planning$/, "planned") ?? null;
  const status = stated ?? (tags.includes("tendercancellation") ? "cancelled" : tags.some((t) => t.startsWith("planning")) ? "planned" : "unknown");
  return {
    source,
    ocid,
    noticeId,
    releaseDate: str(r.date),
    noticeUrl: noticeUrlOf(source, ocid, noticeId, tender),
    title: foldText(str(tender.title) ?? str(objs(tender.lots)[0]?.title), 300),
    description: foldText(str(tender.description)),
    buyer: str(obj(r.buyer).name) ?? str(buyerParty?.name),
    cpv: cpvCodes(tender),
    value: tenderValueOf(tender),
    status,
    deadline: deadlineOf(tender),
    suitability: suitabilityOf(tender),
    regions: regionsOf(tender),
    published: str(tender.datePublished) ?? str(r.date),
    category: str(tender.mainProcurementCategory),
    closedBy: CLOSED.has(status) ? status : null,
  };
}

/** The closure a release after the tender stage gives. */
export function closureOf(r: Obj): TenderClosure {
  const stated = str(obj(r.tender).status)?.toLowerCase() ?? null;
  return {
    ocid: str(r.ocid)!,
    noticeId: str(r.id) ?? str(r.ocid)!,
    releaseDate: str(r.date),
    status: stated && CLOSED.has(stated) ? stated : "complete",
    closedBy: "award",
  };
}

/** A later notice of the same process over an earlier one: what the later one states wins, what it leaves out stays. */
export function mergeNotice(prev: TenderNotice, next: TenderNotice): TenderNotice {
  return {
    ...next,
    title: next.title ?? prev.title,
    description: next.description ?? prev.description,
    buyer: next.buyer ?? prev.buyer,
    cpv: next.cpv.length ? next.cpv : prev.cpv,
    value: next.value ?? prev.value,
    deadline: next.deadline ?? prev.deadline,
    suitability: { sme: next.suitability.sme ?? prev.suitability.sme, vcse: next.suitability.vcse ?? prev.suitability.vcse },
    regions: next.regions.length ? next.regions : prev.regions,
    // First published when the notice first appeared.
    published:
      prev.published && next.published
        ? dateValue(prev.published) <= dateValue(next.published)
          ? prev.published
          : next.published
        : (prev.published ?? next.published),
    category: next.category ?? prev.category,
  };
}

/** A closure applied to a notice (only when it is not older than the notice's own release). */
export function closeNotice(n: TenderNotice, c: TenderClosure): TenderNotice {
  if (dateValue(c.releaseDate) < dateValue(n.releaseDate)) return n;
  return { ...n, status: c.status, closedBy: c.closedBy, releaseDate: c.releaseDate ?? n.releaseDate };
}

function isoDay(t: string): string {
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? t.slice(0, 10) : new Date(ms).toISOString().slice(0, 10);
}

/** Every tender notice of an OCDS file (release package, record package, release, or an array of them). */
export function parseTenders(input: Uint8Array | string): TendersParse {
  const { releases, publishedDate } = readOcdsFile(input, "tenders");
  const notes: Record<string, number> = {};
  // Each process's releases, oldest first (file order on a tie).
  const byOcid = new Map<string, { r: Obj; at: number; index: number; source: TenderSource }[]>();
  let latest: string | null = null;
  releases.forEach((r, index) => {
    const ocid = str(r.ocid);
    if (!ocid) return count(notes, "releasesWithoutOcid");
    const date = str(r.date);
    if (date && dateValue(date) > dateValue(latest)) latest = date;
    const source = PUBLISHERS[ocid.slice(0, 11).toLowerCase()];
    if (!source) return count(notes, "otherPublishers");
    if (!isTenderStage(r) && !isAwardStage(r)) return count(notes, "releasesOfNoStageRead");
    const list = byOcid.get(ocid) ?? [];
    list.push({ r, at: dateValue(date), index, source });
    byOcid.set(ocid, list);
  });
  const notices: TenderNotice[] = [];
  const closures: TenderClosure[] = [];
  for (const list of byOcid.values()) {
    list.sort((a, b) => a.at - b.at || a.index - b.index);
    let notice: TenderNotice | null = null;
    let closure: TenderClosure | null = null;
    for (const { r, source } of list) {
      if (isTenderStage(r)) {
        const next = noticeOf(r, source);
        if (notice) count(notes, "noticesUpdated");
        notice = notice ? mergeNotice(notice, next) : next;
      } else {
        const c = closureOf(r);
        if (notice) {
          notice = closeNotice(notice, c);
          count(notes, "noticesClosedByAward");
        } else closure = c;
      }
    }
    if (notice) notices.push(notice);
    else if (closure) closures.push(closure);
  }
  const dated = publishedDate ?? latest;
  return { editionDate: dated ? isoDay(dated) : null, notices, closures, notes };
}

// ---------------------------------------------------------------------------------------------- slim releases

const pick = (o: unknown, keys: string[]): Obj | undefined => {
  if (!isObj(o)) return undefined;
  const out: Obj = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
};

const TENDER_KEYS = [
  ...["title", "status", "classification", "additionalClassifications", "value", "minValue", "maxValue"],
  ...["tenderPeriod", "suitability", "datePublished", "mainProcurementCategory", "deliveryAddresses"],
];
const ITEM_KEYS = ["classification", "additionalClassifications", "deliveryAddresses", "deliveryAddress", "deliveryLocations", "deliveryLocation"];

/**
 * A release cut down to what the tender reader needs (a day of Find a Tender releases with their documents and
 * lots is large): a tender-stage release keeps its tender's fields, buyer and the CF notice link; a later release
 * keeps only what closes its process. Contact points are dropped. Null for anything else.
 */
export function slimTenderRelease(r: unknown): Obj | null {
  if (!isObj(r) || !str(r.ocid)) return null;
  const head = pick(r, ["ocid", "id", "date", "tag", "buyer"]);
  const tender = obj(r.tender);
  if (isTenderStage(r))
    return {
      ...head,
      tender: {
        ...pick(tender, TENDER_KEYS),
        description: foldText(str(tender.description)) ?? undefined,
        items: objs(tender.items).map((i) => pick(i, ITEM_KEYS)),
        lots: objs(tender.lots).map((l) => ({
          ...pick(l, ["title", "value", "tenderPeriod", "suitability", "status"]),
          items: objs(l.items).map((i) => pick(i, ITEM_KEYS)),
        })),
        documents: objs(tender.documents)
          .filter((d) => d.documentType === "tenderNotice")
          .map((d) => pick(d, ["documentType", "url"])),
      },
      parties: objs(r.parties)
        .filter((p) => arr(p.roles).includes("buyer"))
        .map((p) => pick(p, ["id", "name", "roles"])),
    };
  if (isAwardStage(r)) return { ...head, tender: pick(tender, ["status"]), awards: objs(r.awards).map((a) => pick(a, ["id", "status"])) };
  return null;
}

// ---------------------------------------------------------------------------------------------- fetching

/** FTS tender-stage releases updated in [from, to] (ISO timestamps). */
export function fetchFtsTenders(cfg: ContractsClientConfig, from: string, to: string): Promise<ReleasePages> {
  const q = new URLSearchParams({ updatedFrom: apiTimestamp(from), updatedTo: apiTimestamp(to), stages: "tender", limit: String(CONTRACTS_PAGE_SIZE) });
  return fetchReleasePages(cfg, "fts", `${cfg.ftsUrl.replace(/\/+$/, "")}/api/1.0/ocdsReleasePackages?${q}`, slimTenderRelease);
}

/** Contracts Finder tender-stage releases published in [from, to] (ISO timestamps). */
export function fetchCfTenders(cfg: ContractsClientConfig, from: string, to: string): Promise<ReleasePages> {
  const q = new URLSearchParams({ publishedFrom: apiTimestamp(from), publishedTo: apiTimestamp(to), stages: "tender", limit: String(CONTRACTS_PAGE_SIZE) });
  return fetchReleasePages(cfg, "cf", `${cfg.cfUrl.replace(/\/+$/, "")}/Published/Notices/OCDS/Search?${q}`, slimTenderRelease);
}

/** Any OCDS search address given to the CLI (`npm run ingest -- tenders <url>`), read through its cursors on its own host. */
export async function fetchTenderUrl(
  url: string,
  opts: Pick<ContractsClientConfig, "fetchImpl" | "sleep" | "maxWaitSeconds" | "maxPages"> = {},
): Promise<ReleasePages> {
  const origin = new URL(url).origin;
  const source = /\/Published\//i.test(new URL(url).pathname) ? "cf" : "fts";
  return fetchReleasePages({ ...opts, ftsUrl: origin, cfUrl: origin }, source, url, slimTenderRelease);
}
