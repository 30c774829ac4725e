/**
 * The enrichment core (SPEC §2.2, issue 18 §1): reads what a query needs — the business's site (its homepage and up
 * to four legal pages it links to), the register entries for the numbers the site states, a register search for its
 * names, the confirmed company's register facts and officer count (counted, never named), and the signals of the
 * other registers this service keeps — and hands them to services/enrich (identity.ts decides, profile.ts builds).
 * Used by enrich, batch, the demo, score, assess, the industry classifier and tender-match.
 *
 * Failures: the business's site not answering is an answer (the profile says so); an upstream of ours failing
 * (Companies House, the DNS resolver) throws UpstreamError, a 503 with credits back — never "not found".
 */
import type { OpContext } from "../../platform/registry";
import { statusFromBulk } from "../../services/companies/bulkVocabulary";
import type { CompanyProfile } from "../../services/companies/profile";
import type { CompanyRow } from "../../services/companies/records";
import { companyFtsQuery, rankCompanies } from "../../services/companies/search";
import {
  type Candidate,
  type EnrichQuery,
  type Identity,
  type Tie,
  alternativeOf,
  decideForSite,
  inPlace,
  parseEnrichQuery,
  sameNamed,
  siteConfirms,
} from "../../services/enrich/identity";
import { baseSignals, buildProfile, registerFactsOfBulkRow, registerFactsOfLive } from "../../services/enrich/profile";
import { GAZETTE_SOURCE, PAYMENT_SOURCE, cqcSignals, paymentSignal, recentInsolvencyNotices } from "../../services/enrich/registerSignals";
import { gazetteSignals } from "../../services/risk/gazette";
import { sicHierarchy } from "../../services/enrich/sic";
import { REGISTER_CATALOGUE } from "../../services/registers/catalogue";
import type { Entry, RegisterSource } from "../../services/registers/types";
import { latestAccountsOf } from "../companies/latestAccounts";
import { type SitePage, readSite } from "../../services/enrich/site";
import type { Alternative, BusinessProfile, Employees, InsolvencyNotices, RegisterFacts, Signal, SiteFacts } from "../../services/enrich/types";
import { domainLabel, domainsForName } from "../../services/matching/domainName";
import { statedCompanyNames } from "../../services/web/disclosures";
import { legalPagesToFollow, readPage } from "../../services/web/siteLinks";
import type { Services } from "../../platform/services";
import { mapLimited } from "../../shared/concurrency";
import { InputError, NotFoundError, UpstreamError } from "../../shared/errors";
import { type LookupServices, lookup } from "../registers/lookup";
import { isHtmlPage } from "../web/page";

/** Legal pages read besides the homepage (contact, about, terms, privacy, legal). */
const LEGAL_PAGES = 4;
/** Pages (or guessed domains) fetched at once for one enrichment. */
const PAGE_CONCURRENCY = 3;
/** Guessed domains tried for a company known by name or number. */
const GUESSES = 4;
/** Register entries sharing a name whose websites are looked for (beyond it, alternatives only). */
const DISCOVER_MAX = 3;
const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
/** A cached enrichment is reused for this long (the demo and repeated calls). */
export const ENRICH_CACHE_SECONDS = 6 * 3600;
const CACHE_VERSION = "enrich:v3";
/** Characters of the site's visible text kept in the cache. */
const CACHED_TEXT = 100_000;

export interface Enriched {
  profile: BusinessProfile;
  /** The confirmed company's register facts (null when none is confirmed). */
  register: RegisterFacts | null;
  /** The site read (null when there is none or it could not be read). */
  site: SiteFacts | null;
  /** Why the site could not be read, when a domain was asked and it did not answer. */
  siteProblem: string | null;
  /**
   * Set when the company's website could not be looked for at all (our DNS resolver failed): "no website" is then not
   * known, only not found just now. Such an answer is never cached.
   */
  siteLookupUnavailable?: string;
  /** Upstream requests this enrichment made (web pages, Companies House); 0 when answered from the cache. */
  upstreamCalls: number;
  /** Answered from the enrichment cache. */
  cached: boolean;
}

interface Counter {
  calls: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The site
// ---------------------------------------------------------------------------------------------------------------

type SiteRead = { ok: true; host: string; html: string; pages: SitePage[] } | { ok: false; reason: string };

const reasonOf = (e: unknown) => (e instanceof Error ? e.message.replace(/\.$/, "") : "it could not be fetched");

/** The homepage and, with `legal`, the legal pages it links to. Never throws for the site's own failures. */
async function readSiteAt(ctx: OpContext, url: string, legal: boolean, count: Counter): Promise<SiteRead> {
  let home: Awaited<ReturnType<OpContext["services"]["web"]["fetch"]>>;
  try {
    count.calls++;
    home = await ctx.services.web.fetch(url, { accept: HTML_ACCEPT, timeoutMs: 8_000, maxBytes: 3 * 1024 * 1024 });
  } catch (e) {
    // The site's own failure (not answering, not found, refused) is part of the answer; ours (the DNS resolver) is a 503.
    if (e instanceof InputError) return { ok: false, reason: reasonOf(e) };
    throw e;
  }
  if (!isHtmlPage(home.contentType, home.text)) return { ok: false, reason: `the address is not a web page (${home.contentType || "no content type"})` };
  const host = new URL(home.url).hostname.toLowerCase();
  let homePage: SitePage;
  try {
    homePage = { ...readPage(home.text, home.url), url: home.url, kind: "home" };
  } catch (e) {
    // A page beyond the HTML limits (services/html/parse.ts) is the site's own failure, as one not answering is.
    if (e instanceof InputError) return { ok: false, reason: reasonOf(e) };
    throw e;
  }
  const pages: SitePage[] = [homePage];
  if (legal) {
    const follow = legalPagesToFollow(pages[0].links, home.url, LEGAL_PAGES);
    const more = await mapLimited(follow, PAGE_CONCURRENCY, async (f): Promise<SitePage | null> => {
      try {
        count.calls++;
        const p = await ctx.services.web.fetch(f.url, { accept: HTML_ACCEPT, timeoutMs: 8_000, maxBytes: 2 * 1024 * 1024 });
        return p.status < 400 && isHtmlPage(p.contentType, p.text) ? { ...readPage(p.text, p.url), url: p.url, kind: f.kind } : null;
      } catch (e) {
        if (e instanceof InputError) return null;
        throw e;
      }
    });
    pages.push(...more.filter((p): p is SitePage => p !== null));
  }
  return { ok: true, host, html: home.text, pages };
}

// ---------------------------------------------------------------------------------------------------------------
// The register
// ---------------------------------------------------------------------------------------------------------------

const candidateOfRow = (r: CompanyRow): Candidate => {
  const x = r.extra as Record<string, string | undefined>;
  return {
    number: r.number,
    name: r.name,
    previousNames: r.previousNames.map((p) => p.name),
    status: statusFromBulk(r.status).status,
    postcode: r.postcode,
    locality: r.locality,
    address: [x.addressLine1, x.addressLine2, r.locality, x.county, r.postcode].filter(Boolean).join(", ") || null,
    incorporationDate: r.incorporatedOn,
  };
};

const candidateOfProfile = (p: CompanyProfile): Candidate => ({
  number: p.number,
  name: p.name,
  previousNames: p.previousNames.map((x) => x.name),
  status: p.status || null,
  postcode: p.registeredOffice.postcode,
  locality: p.registeredOffice.locality,
  address: p.registeredOffice.text || null,
  incorporationDate: p.incorporatedOn,
});

/** The register's entry for a number: the local file's row when it lists it, else Companies House (null: no such company). */
async function entryOf(
  ctx: OpContext,
  number: string,
  count: Counter,
): Promise<{ candidate: Candidate; row: CompanyRow | null; profile: CompanyProfile | null } | null> {
  const reg = ctx.services.companiesRegister;
  const row = (await reg.companiesEdition()) ? await reg.companyByNumber(number) : null;
  if (row) return { candidate: candidateOfRow(row), row, profile: null };
  count.calls++;
  const profile = await ctx.services.companiesHouse.getProfile(number);
  return profile ? { candidate: candidateOfProfile(profile), row: null, profile } : null;
}

/** Register entries for a name: the local name index when loaded, else Companies House's search; best first. */
async function searchRegister(ctx: OpContext, name: string, count: Counter, limit = 10): Promise<{ candidate: Candidate; confidence: number }[]> {
  const reg = ctx.services.companiesRegister;
  if (await reg.companiesEdition()) {
    const fts = companyFtsQuery(name);
    const rows = fts ? await reg.companiesMatching(fts, 200) : [];
    return rankCompanies(
      name,
      rows.map((row) => ({ number: row.number, name: row.name, previousNames: row.previousNames.map((p) => p.name), row })),
      limit,
    ).map((r) => ({
      candidate: candidateOfRow(r.candidate.row),
      confidence: r.confidence,
    }));
  }
  count.calls++;
  const found = await ctx.services.companiesHouse.searchCompanies(name, 20);
  const items = found.items.map((i) => ({ number: i.number, name: (i.name ?? "").replace(/\s{2,}/g, " ").trim(), previousNames: [] as string[], i }));
  return rankCompanies(name, items, limit).map((r) => ({
    candidate: {
      number: r.candidate.number,
      name: r.candidate.name,
      previousNames: [],
      status: r.candidate.i.status,
      postcode: r.candidate.i.postcode,
      locality: r.candidate.i.locality,
      address: r.candidate.i.addressSnippet,
      incorporationDate: r.candidate.i.incorporatedOn,
    },
    confidence: r.confidence,
  }));
}

/** The live profile of a company the bulk file lists: null, with the reason in words, when it cannot be read just now. */
async function liveProfileOf(
  ctx: OpContext,
  number: string,
  count: Counter,
): Promise<{ profile: CompanyProfile; note: null } | { profile: null; note: string }> {
  count.calls++;
  try {
    const profile = await ctx.services.companiesHouse.getProfile(number);
    return profile ? { profile, note: null } : { profile: null, note: `Companies House gives no live profile for company ${number} just now` };
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    return { profile: null, note: `Companies House could not be read just now: ${reasonOf(e)}` };
  }
}

/**
 * The company's corporate insolvency notices in The Gazette (category 24, matched by its number, or its exact name and
 * registered office postcode, as distress-signals matches them), those of concern in the last 12 months kept. The
 * Gazette failing is said (`read: false`), never "no notices".
 */
async function insolvencyNoticesOf(
  ctx: OpContext,
  facts: Pick<RegisterFacts, "number" | "name" | "registeredOffice">,
  previousNames: string[],
  today: string,
  count: Counter,
): Promise<InsolvencyNotices> {
  count.calls++;
  try {
    const found = await ctx.services.gazette.insolvencyNotices({
      number: facts.number,
      name: facts.name,
      previousNames,
      postcode: facts.registeredOffice.postcode,
    });
    return { read: true, recent: recentInsolvencyNotices(gazetteSignals(found.matched.map((m) => m.notice)), today), note: null };
  } catch (e) {
    if (!(e instanceof UpstreamError)) throw e;
    return { read: false, recent: [], note: `The Gazette could not be read just now: ${reasonOf(e)}` };
  }
}

/**
 * The confirmed company's register facts (issue 28 §2): Companies House's live profile gives the status, the status
 * detail and every field it has; the monthly bulk file fills its gaps, each named with the file's date. When the live
 * profile cannot be read, the bulk file's facts are given as of its date and `record` says so. Then the SIC
 * descriptions, the officers (counted; null when they cannot be read), the employees and The Gazette's notices.
 */
async function registerFactsOf(ctx: OpContext, entry: NonNullable<Awaited<ReturnType<typeof entryOf>>>, today: string, count: Counter): Promise<RegisterFacts> {
  const reg = ctx.services.companiesRegister;
  const c = entry.candidate;
  const officers = (async () => {
    count.calls++;
    try {
      const list = await ctx.services.companiesHouse.getOfficers(c.number);
      if (!list) return { n: null, note: null };
      return { n: list.activeCount ?? list.items.filter((o) => !o.resignedOn).length, note: null };
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      return { n: null, note: `officers not counted: Companies House could not be read just now (${reasonOf(e)})` };
    }
  })();
  let whole: RegisterFacts;
  if (entry.row) {
    const [live, edition] = await Promise.all([liveProfileOf(ctx, c.number, count), reg.companiesEdition()]);
    const fileDate = edition?.editionDate ?? null;
    if (live.profile)
      whole = registerFactsOfLive(live.profile, today, { facts: registerFactsOfBulkRow(entry.row, c.address ?? "", today, fileDate, ""), fileDate });
    else whole = registerFactsOfBulkRow(entry.row, c.address ?? "", today, fileDate, live.note);
  } else whole = registerFactsOfLive(entry.profile!, today);
  const { sicDescriptions: _d, activeOfficers: _o, employees: _e, ...facts } = whole;
  const [sic, counted, employees, insolvencyNotices] = await Promise.all([
    reg.sicDescriptions(facts.sicCodes),
    officers,
    employeesOf(ctx, facts, c.previousNames, count),
    insolvencyNoticesOf(ctx, facts, c.previousNames, today, count),
  ]);
  return {
    ...facts,
    sicDescriptions: Object.fromEntries(sic),
    activeOfficers: counted.n,
    ...(counted.note ? { activeOfficersNote: counted.note } : {}),
    ...(employees ? { employees } : {}),
    insolvencyNotices,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Signals of the other sources
// ---------------------------------------------------------------------------------------------------------------

/** The company profile the register lookups match against, from the facts already read. */
const profileOfFacts = (r: Omit<RegisterFacts, "sicDescriptions" | "activeOfficers">, previousNames: string[]): CompanyProfile => ({
  number: r.number,
  name: r.name,
  status: r.status,
  statusDetail: r.statusDetail,
  type: r.type,
  incorporatedOn: r.incorporationDate,
  ceasedOn: null,
  jurisdiction: null,
  registeredOffice: {
    line1: null,
    line2: null,
    locality: r.registeredOffice.locality,
    region: null,
    postcode: r.registeredOffice.postcode,
    country: null,
    text: r.registeredOffice.text,
  },
  previousNames: previousNames.map((name) => ({ name, from: null, until: null })),
  sicCodes: r.sicCodes,
  accountsOverdue: r.accountsOverdue,
  confirmationStatementOverdue: r.confirmationStatementOverdue,
  filingDates: { accountsDueOn: null, accountsMadeUpTo: null, confirmationStatementDueOn: null, confirmationStatementMadeUpTo: null },
  hasFilingDeadlines: false,
});

/**
 * The company's entries on a register this service keeps, asked as its own check asks (the company number, then its
 * registered and former names, exact only), without asking Companies House again. None when the register is not
 * loaded or does not list it; an entry that states another company's number is never this one's, whatever its name.
 */
async function companyEntriesOn<S extends RegisterSource>(
  ctx: OpContext,
  r: Omit<RegisterFacts, "sicDescriptions" | "activeOfficers">,
  previousNames: string[],
  source: S,
): Promise<Entry<S>[]> {
  if (!(await ctx.services.registers.editionInfo(source)).editionDate) return [];
  const profile = profileOfFacts(r, previousNames);
  const services: LookupServices = {
    registers: ctx.services.registers,
    companiesHouse: Object.assign(Object.create(ctx.services.companiesHouse) as Services["companiesHouse"], { getProfile: async () => profile }),
  };
  try {
    // Only a definite match is the company's (issue 28 §1: the register checks' one match rule); a former or alternative name is not.
    return (await lookup(services, source, r.number)).found
      .filter((f) => f.certainty.definite)
      .map((f) => f.entry)
      .filter((e) => !e.removedOn);
  } catch (e) {
    if (e instanceof NotFoundError) return [];
    throw e;
  }
}

const EMPLOYEES_NOT_READ = "employees in the filed accounts not read (Companies House could not be read just now)";

/**
 * What the company's filings say of its employees: the average its latest tagged accounts state (not read for a
 * dormant company; Companies House failing leaves it out, said in `note`, rather than failing the enrichment), and the
 * headcount band of its newest gender pay gap report. Never an estimate.
 */
async function employeesOf(
  ctx: OpContext,
  facts: Omit<RegisterFacts, "sicDescriptions" | "activeOfficers">,
  previousNames: string[],
  count: Counter,
): Promise<Employees | undefined> {
  // Each request the accounts take is counted as it is asked (the filing history, the metadata, the document).
  const counted = <T extends object>(o: T, names: (keyof T)[]): T =>
    Object.assign(
      Object.create(o) as T,
      Object.fromEntries(names.map((n) => [n, (...a: unknown[]) => (count.calls++, (o[n] as (...a: unknown[]) => unknown).apply(o, a))])),
    );
  const services = {
    companiesHouse: counted(ctx.services.companiesHouse, ["getFilingHistory"]),
    companiesHouseDocuments: counted(ctx.services.companiesHouseDocuments, ["getMetadata", "getAccounts"]),
  };
  const accounts = (async (): Promise<Pick<Employees, "average" | "periodEnd" | "note">> => {
    const none = { average: null, periodEnd: null, note: null };
    if (/dormant/i.test(facts.lastAccountsType ?? "")) return none;
    try {
      const latest = await latestAccountsOf(services, facts.number);
      if (latest.kind !== "read" || (latest.doc.companyNumber && latest.doc.companyNumber !== facts.number)) return none;
      const average = latest.doc.current.figures.averageEmployees;
      return average === null ? none : { average, periodEnd: latest.doc.periodEnd ?? latest.madeUpTo, note: null };
    } catch (e) {
      if (!(e instanceof UpstreamError)) throw e;
      return { ...none, note: EMPLOYEES_NOT_READ };
    }
  })();
  const [acc, gpg] = await Promise.all([accounts, companyEntriesOn(ctx, facts, previousNames, "gender-pay-gap")]);
  const newest = gpg
    .map((e) => e.data)
    .filter((g) => g.sizeBand)
    .sort((a, b) => b.year.localeCompare(a.year))[0];
  if (acc.average === null && !acc.note && !newest) return undefined;
  return { ...acc, band: newest?.sizeBand ?? null, bandYear: newest?.year ?? null };
}

const money = (n: number) => `£${Math.round(n).toLocaleString("en-GB")}`;

/** Won public contracts (the awards loaded from Find a Tender and Contracts Finder). */
async function otherSignals(ctx: OpContext, r: RegisterFacts, previousNames: string[], today: string): Promise<Signal[]> {
  const out: Signal[] = [];
  const since = `${Number(today.slice(0, 4)) - 3}${today.slice(4)}`;
  const awards = await ctx.services.contracts.contractAwardsOf({ numbers: [r.number], keys: [], since }, 50, 0);
  if (awards.length) {
    const total = awards.reduce((s, a) => s + (a.award.value?.currency === "GBP" ? a.award.value.amount : 0), 0);
    const latest = awards
      .map((a) => a.award.awardDate ?? a.award.datePublished ?? "")
      .sort()
      .at(-1);
    out.push({
      code: "won-public-contracts",
      label: `Won ${awards.length === 50 ? "50 or more" : awards.length} public contract award${awards.length === 1 ? "" : "s"} since ${since}${total ? ` (${money(total)} stated)` : ""}${latest ? `, the latest ${latest.slice(0, 10)}` : ""}`,
      kind: "opportunity",
      source: "contract awards (Find a Tender, Contracts Finder)",
    });
  }
  const on = <S extends RegisterSource>(source: S) => companyEntriesOn(ctx, r, previousNames, source);
  const [sponsor, cqc, payments] = await Promise.all([on("sponsors"), on("cqc"), on("payment-practices")]);
  if (sponsor.length)
    out.push({
      code: "licensed-sponsor",
      label: "On the register of licensed visa sponsors",
      kind: "info",
      source: REGISTER_CATALOGUE.sponsors.label,
    });
  // The CQC lists a provider's locations under its provider id (a location often carries no company number).
  const providerIds = [...new Set(cqc.flatMap((e) => (e.data.kind === "provider" ? [e.data.providerId] : [])))];
  const locations = (await Promise.all(providerIds.map((id) => ctx.services.registers.entriesByDataField("cqc", "providerId", id, 2000))))
    .flat()
    .filter((e) => e.data.kind === "location" && !e.removedOn);
  const cqcAll = [...new Map([...cqc, ...locations].map((e) => [e.key, e])).values()];
  out.push(...cqcSignals(cqcAll.map((e) => ({ kind: e.data.kind, status: e.status, rating: e.rating, removed: e.removedOn !== null }))));
  const paid = paymentSignal(
    payments.map((e) => e.data),
    today,
  );
  if (paid) out.push(paid);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The enrichment
// ---------------------------------------------------------------------------------------------------------------

const siteNames = (site: SiteFacts, host: string): string[] => {
  const names = new Set<string>();
  for (const n of statedCompanyNames(site.text).slice(0, 3)) names.add(n.name);
  if (site.siteName) names.add(site.siteName);
  const label = domainLabel(host);
  if (label.includes("-")) names.add(label.replace(/-/g, " "));
  return [...names].slice(0, 4);
};

async function forDomain(ctx: OpContext, host: string, count: Counter) {
  const read = await readSiteAt(ctx, `https://${host}/`, true, count);
  if (!read.ok) {
    return {
      site: null,
      evidence: null,
      identity: {
        confirmed: null,
        note: `The website could not be read (${read.reason}), so nothing on it confirms a registered company: no company number is given.`,
        alternatives: [],
      } as Identity,
      siteProblem: read.reason,
      entry: null,
    };
  }
  const { facts, evidence } = readSite(read.host, read.html, read.pages);
  const stated = await Promise.all(evidence.numbers.slice(0, 3).map(async (n) => ({ number: n.number, found: await entryOf(ctx, n.number, count) })));
  const byName = stated.some((s) => s.found)
    ? []
    : (await Promise.all(siteNames(facts, read.host).map((n) => searchRegister(ctx, n, count, 5))))
        .flat()
        .filter((x) => x.confidence >= 0.6)
        .map((x) => x.candidate);
  const identity = decideForSite(
    evidence,
    stated.map((s) => ({ number: s.number, entry: s.found?.candidate ?? null })),
    byName,
  );
  const entry = identity.confirmed
    ? (stated.find((s) => s.found?.candidate.number === identity.confirmed!.candidate.number)?.found ??
      (await entryOf(ctx, identity.confirmed.candidate.number, count)))
    : null;
  return { site: facts, evidence, identity, siteProblem: null, entry };
}

/** Looks for the website of a register entry among the domains its name suggests; the site must confirm it. */
async function discoverSite(
  ctx: OpContext,
  c: Candidate,
  count: Counter,
): Promise<{ site: SiteFacts; tie: Tie; tried: string[] } | { site: null; tried: string[] }> {
  const tried = domainsForName(c.name, GUESSES, ctx.services.enrichment.domainSuffixes);
  // An upstream of ours failing here (the DNS resolver) propagates: "no website found" is never said when none could be looked for.
  const homes = await mapLimited(tried, PAGE_CONCURRENCY, (d) => readSiteAt(ctx, `https://${d}/`, false, count));
  for (let i = 0; i < tried.length; i++) {
    if (!homes[i].ok) continue;
    // The homepage answered: read the legal pages too (a number is often stated only there).
    const full = await readSiteAt(ctx, `https://${tried[i]}/`, true, count);
    if (!full.ok) continue;
    const { facts, evidence } = readSite(full.host, full.html, full.pages);
    const tie = siteConfirms(evidence, c);
    if (tie) return { site: facts, tie, tried };
  }
  return { site: null, tried };
}

async function forRegisterEntries(
  ctx: OpContext,
  candidates: Candidate[],
  count: Counter,
): Promise<{ identity: Identity; site: SiteFacts | null; tried: string[] }> {
  const found = await Promise.all(candidates.slice(0, DISCOVER_MAX).map((c) => discoverSite(ctx, c, count)));
  const confirmed = found.flatMap((f) => (f.site ? [f] : []));
  const tried = found.flatMap((f) => f.tried);
  if (confirmed.length === 1) return { identity: { confirmed: confirmed[0].tie, note: null, alternatives: [] }, site: confirmed[0].site, tried };
  return { identity: { confirmed: null, note: null, alternatives: candidates }, site: null, tried };
}

/** The SIC 2007 section of the first registered code with a real activity, in words. */
const sectorOf = (r: RegisterFacts | null): string | null => {
  const h = (r?.sicCodes ?? []).map(sicHierarchy).find((x) => x && !x.noActivity);
  return h ? h.section.name : null;
};

const triedWords = (tried: string[]) => (tried.length ? ` (looked for at ${tried.join(", ")})` : "");

/** Enriches one query. Upstream failures of ours throw (503); the business's own site failing is part of the answer. */
export async function enrich(ctx: OpContext, q: string, location: string | undefined, opts: { cache?: boolean } = {}): Promise<Enriched> {
  const key = `${CACHE_VERSION}:${q.trim().toLowerCase()}|${(location ?? "").trim().toLowerCase()}`;
  if (opts.cache !== false) {
    const hit = await ctx.services.cache.get(key);
    if (hit) return { ...(JSON.parse(hit.body) as Omit<Enriched, "cached" | "upstreamCalls">), upstreamCalls: 0, cached: true };
  }
  const out = await enrichUncached(ctx, parseEnrichQuery(q), location?.trim() || undefined);
  // An answer missing a part that could not be read just now (the live profile, The Gazette, the officers, the accounts' employees) is not kept: the next call reads again.
  const partial =
    !!out.siteLookupUnavailable ||
    (!!out.register &&
      (out.register.record.source !== "live" ||
        out.register.insolvencyNotices?.read === false ||
        !!out.register.employees?.note ||
        !!out.register.activeOfficersNote));
  if (opts.cache !== false && !partial) {
    const { profile, register, site, siteProblem } = out;
    // The site's text is kept to its first CACHED_TEXT characters: enough for the classifier, small enough for a row.
    const kept = site ? { ...site, text: site.text.slice(0, CACHED_TEXT) } : null;
    ctx.waitUntil(
      ctx.services.cache
        .put(key, { status: 200, body: JSON.stringify({ profile, register, site: kept, siteProblem }), fetchedAt: ctx.now.getTime() }, ENRICH_CACHE_SECONDS)
        .catch(() => {}),
    );
  }
  return out;
}

async function enrichUncached(ctx: OpContext, query: EnrichQuery, location: string | undefined): Promise<Enriched> {
  const count: Counter = { calls: 0 };
  const today = ctx.now.toISOString().slice(0, 10);
  let identity: Identity;
  let site: SiteFacts | null = null;
  let siteProblem: string | null = null;
  let entry: Awaited<ReturnType<typeof entryOf>> = null;
  let numberFromQuery: Tie | null = null;
  let alternatives: Alternative[] = [];
  let siteLookupUnavailable: string | null = null;

  if (query.kind === "domain") {
    const d = await forDomain(ctx, query.host, count);
    ({ identity, site, siteProblem, entry } = d);
    alternatives = identity.alternatives.map((c) =>
      alternativeOf(c, identity.note?.includes("several company numbers") ? "a company number the site states" : "shares words with the site's name"),
    );
  } else if (query.kind === "number") {
    entry = await entryOf(ctx, query.number, count);
    if (!entry) identity = { confirmed: null, note: `No company with number ${query.number} is on the companies register.`, alternatives: [] };
    else {
      // The caller named the company by its number: its register facts are the answer; its website is a part of it
      // that may be missing. When the websites could not be looked for (the DNS resolver down), the note says so.
      let d: Awaited<ReturnType<typeof forRegisterEntries>> | null = null;
      let unavailable: string | null = null;
      try {
        d = await forRegisterEntries(ctx, [entry.candidate], count);
      } catch (e) {
        if (!(e instanceof UpstreamError)) throw e;
        unavailable = e.message.replace(/\.$/, "");
        siteLookupUnavailable = unavailable;
      }
      site = d?.site ?? null;
      identity = d?.identity.confirmed ? d.identity : { confirmed: null, note: null, alternatives: [] };
      if (!d?.identity.confirmed) {
        numberFromQuery = { candidate: entry.candidate, number: null, name: null, postcode: null, domain: false };
        identity.note = unavailable
          ? `The company's website could not be looked for just now (${unavailable}): the register's facts are given for the number asked, without a website; ask again later for it.`
          : `No website confirming the company was found${triedWords(d!.tried)}: the register's facts are given for the number asked, without a website.`;
      }
    }
  } else {
    const ranked = await searchRegister(ctx, query.name, count, 20);
    const same = sameNamed(
      query.name,
      ranked.map((r) => r.candidate),
    );
    const here = location ? same.filter((c) => inPlace(c, location)) : same;
    if (!same.length) {
      const near = ranked
        .filter((r) => r.confidence >= 0.6)
        .slice(0, 5)
        .map((r) => r.candidate);
      identity = {
        confirmed: null,
        note: `No registered company is named "${query.name}"${near.length ? "; companies with similar names are listed as alternatives to confirm" : ""}.`,
        alternatives: [],
      };
      alternatives = near.map((c) => alternativeOf(c, "similar name"));
    } else if (!here.length) {
      identity = {
        confirmed: null,
        note: `No company named "${query.name}" has its registered office in ${location}; those that share the name elsewhere are listed as alternatives to confirm.`,
        alternatives: [],
      };
      alternatives = same.slice(0, 10).map((c) => alternativeOf(c, "same name, registered elsewhere"));
    } else {
      // Several companies sharing the name: none is picked for the caller, whatever websites exist (the caller may mean one without).
      const d =
        here.length === 1
          ? await forRegisterEntries(ctx, here, count)
          : { identity: { confirmed: null, note: null, alternatives: here } as Identity, site: null, tried: [] };
      site = d.site;
      identity = d.identity;
      if (!identity.confirmed) {
        const where = location ? `, in ${location}` : "";
        identity.note =
          here.length > 1
            ? `${here.length} registered companies share the name${where}: nothing is picked for you. Confirm one of the alternatives, or ask again with a location, the company's domain or its number.`
            : `A registered company has this name${where}, but no website confirming it was found${triedWords(d.tried)}, so its number is not given as the answer. Confirm the alternative, or ask again with the company's domain or number.`;
        alternatives = here.slice(0, 10).map((c) => alternativeOf(c, `same name${where}`));
      }
      if (identity.confirmed) entry = await entryOf(ctx, identity.confirmed.candidate.number, count);
    }
  }

  const confirmedEntry = identity.confirmed || numberFromQuery ? entry : null;
  const register = confirmedEntry ? await registerFactsOf(ctx, confirmedEntry, today, count) : null;
  const signals = [
    ...baseSignals(register, site, today),
    ...(register ? await otherSignals(ctx, register, confirmedEntry!.candidate.previousNames, today) : []),
  ];
  const sources = [
    ...(site ? [`website: ${site.url}`] : []),
    ...(register
      ? [
          `companies register: ${register.number}${register.record.source === "bulk-file" ? ` (the Basic Company Data file${register.record.bulkFileDate ? ` of ${register.record.bulkFileDate}` : ""}; the live profile could not be read)` : ""}`,
        ]
      : []),
    ...(signals.some((s) => s.code === "gazette-notice") ? [GAZETTE_SOURCE] : []),
    ...(signals.some((s) => s.code === "won-public-contracts") ? ["contract awards: Find a Tender, Contracts Finder"] : []),
    ...(signals.some((s) => s.code === "licensed-sponsor") ? [REGISTER_CATALOGUE.sponsors.label] : []),
    ...(signals.some((s) => s.code === "cqc-registered") ? [REGISTER_CATALOGUE.cqc.label] : []),
    ...(signals.some((s) => s.source === PAYMENT_SOURCE) ? [REGISTER_CATALOGUE["payment-practices"].label] : []),
    ...(register?.employees?.band ? [`${REGISTER_CATALOGUE["gender-pay-gap"].label} (headcount band)`] : []),
  ];
  const profile = buildProfile({
    identity,
    numberFromQuery,
    register,
    site,
    siteName: site?.siteName ?? null,
    sector: sectorOf(register),
    signals,
    sources,
    alternatives,
    today,
  });
  return { profile, register, site, siteProblem, ...(siteLookupUnavailable ? { siteLookupUnavailable } : {}), upstreamCalls: count.calls, cached: false };
}
