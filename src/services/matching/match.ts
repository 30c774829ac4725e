/**
 * Ranks register entries against a business name (SPEC §2.5 matchedOn, §2.6 matchedBy, §4.5, §4.8).
 * Registers without company numbers (sponsors, AML) are matched by name only, so a match must be
 * explainable: every NameMatch carries plain reasons, and only exact matches reach 0.95 or more.
 */
import { GENERIC_WORDS, nameTokens, nameWords, normaliseName, normaliseNameCore, splitTradingName } from "./names";

export interface MatchableEntry {
  id: string;
  name: string;
  altNames?: string[];
}
/** `primary`: the match is on the entry's own name, not one of its trading or other names. */
export interface NameMatch {
  id: string;
  matchedName: string;
  score: number;
  exact: boolean;
  reasons: string[];
  primary: boolean;
}

/** One comparable form of a name: a legal name or a trading name, pre-normalised. */
interface Variant {
  raw: string;
  full: string;
  core: string;
  words: string[];
  tokens: Set<string>;
  trading: boolean;
  primary: boolean;
}

function variantsOf(names: string[]): Variant[] {
  const out: Variant[] = [];
  const seen = new Set<string>();
  const add = (raw: string, trading: boolean, primary: boolean) => {
    const full = normaliseName(raw);
    if (!full || seen.has(full)) return;
    seen.add(full);
    out.push({ raw, full, core: normaliseNameCore(raw), words: nameWords(raw), tokens: new Set(nameTokens(raw)), trading, primary });
  };
  names.forEach((n, i) => {
    const { name, tradingAs } = splitTradingName(n);
    add(name, false, i === 0);
    for (const t of tradingAs) add(t, true, false);
  });
  return out;
}

/** Weight of a word in the token score: generic words count a little, initials half. */
const weight = (w: string) => (GENERIC_WORDS.has(w) ? 0.25 : w.length === 1 ? 0.5 : 1);
const sum = (ws: string[]) => ws.reduce((s, w) => s + weight(w), 0);

/** Token score below 0.9, or null when no significant word (of 2+ characters) is shared. */
function tokenScore(q: Variant, c: Variant): { score: number; reasons: string[] } | null {
  if (![...q.tokens].some((t) => t.length > 1 && c.tokens.has(t))) return null;
  const cw = new Set(c.words);
  const qw = new Set(q.words);
  const shared = q.words.filter((w) => cw.has(w));
  const missing = q.words.filter((w) => !cw.has(w));
  const extra = c.words.filter((w) => !qw.has(w));
  // Mean of "how much of the query is in the name" and "how much of the name is in the query".
  const s = sum(shared);
  let score = (0.88 * (s / sum(q.words) + s / sum(c.words))) / 2;
  if (q.tokens.size === 1) score = Math.min(score, 0.8);
  const reasons = [`shared words: ${shared.join(", ")}`];
  if (missing.length) reasons.push(`missing: ${missing.join(", ")}`);
  if (extra.length) reasons.push(`extra: ${extra.join(", ")}`);
  return { score: Math.round(score * 1000) / 1000, reasons };
}

/** The best comparison of one query variant with one entry variant. */
function compare(q: Variant, c: Variant): { score: number; exact: boolean; reasons: string[] } | null {
  if (q.full === c.full) return { score: 1, exact: true, reasons: ["exact name"] };
  if (q.core && q.core === c.core) return { score: 0.95, exact: true, reasons: ["same name apart from legal form (Ltd/Limited)"] };
  const t = tokenScore(q, c);
  return t && { ...t, exact: false };
}

/**
 * Entries whose name, other names or trading names match the query, best first (score, then
 * name, then id). A query with no significant word ("Services Ltd", "The Care Home") matches nothing.
 */
export function matchNames(query: string, entries: Iterable<MatchableEntry>, opts: { minScore?: number; limit?: number } = {}): NameMatch[] {
  const { minScore = 0.6, limit = 10 } = opts;
  const qs = variantsOf([query]).filter((v) => v.tokens.size > 0);
  if (!qs.length) return [];
  const out: (NameMatch & { key: string })[] = [];
  for (const e of entries) {
    let best: (NameMatch & { key: string }) | null = null;
    for (const c of variantsOf([e.name, ...(e.altNames ?? [])])) {
      for (const q of qs) {
        const r = compare(q, c);
        if (!r || r.score < minScore || (best && r.score <= best.score)) continue;
        const reasons = c.trading ? [...r.reasons, `matched on trading name ${c.raw}`] : r.reasons;
        best = { id: e.id, matchedName: c.raw, score: r.score, exact: r.exact, reasons, primary: c.primary, key: c.full };
      }
    }
    if (best) out.push(best);
  }
  out.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out.slice(0, limit).map(({ key: _key, ...m }) => m);
}

/**
 * FTS5 MATCH expression fetching candidates for matchNames: every significant token quoted and
 * ANDed; a query with a trading name ORs its parts. Null when the query has no significant token.
 * The FTS column must hold normaliseName() of each name, so its tokens agree with these.
 */
export function ftsQueryFor(query: string): string | null {
  const groups = variantsOf([query])
    .map((v) => [...v.tokens].map((t) => `"${t.replace(/"/g, '""')}"`))
    .filter((g) => g.length);
  if (groups.length < 2) return groups.length ? groups[0].join(" AND ") : null;
  return [...new Set(groups.map((g) => (g.length > 1 ? `(${g.join(" AND ")})` : g[0])))].join(" OR ");
}
