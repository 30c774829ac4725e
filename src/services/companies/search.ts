/**
 * Company search (SPEC §4.2): ranks candidate companies against a name the way the register checks'
 * matcher explains itself (services/matching/match.ts): a 0–1 confidence with plain reasons, exact names
 * first. Company level only: candidates carry no officer or person data. Pure: the candidates come from
 * the local name index or from Companies House's own search.
 */
import { matchNames } from "../matching/match";
import { ftsQueryFor } from "../matching/match";
import { nameWords } from "../matching/names";

export interface CompanyCandidate {
  number: string;
  name: string;
  /** Former names, most recent first (the local index has them; Companies House's search does not). */
  previousNames: string[];
}

export interface RankedCompany<C extends CompanyCandidate> {
  candidate: C;
  confidence: number;
  matchedOn: "name" | "former name";
  matchedName: string;
  reasons: string[];
}

/** Below this a candidate is not shown: it shares too little of the query to be worth a look. */
export const MIN_CONFIDENCE = 0.3;

/**
 * FTS5 expression for name-index candidates: the query's significant words, quoted and ANDed (a trading
 * name's parts ORed); a query of common words only ("Holdings Ltd") uses those words instead. Null when
 * the query has no word at all ("Ltd", "&").
 */
export function companyFtsQuery(q: string): string | null {
  const significant = ftsQueryFor(q);
  if (significant) return significant;
  const words = nameWords(q);
  return words.length ? words.map((w) => `"${w.replace(/"/g, '""')}"`).join(" AND ") : null;
}

/** Candidates ranked best first, each with its confidence and reasons; at most `limit`. */
export function rankCompanies<C extends CompanyCandidate>(q: string, candidates: C[], limit: number): RankedCompany<C>[] {
  const byNumber = new Map(candidates.map((c) => [c.number, c]));
  const matches = matchNames(
    q,
    candidates.map((c) => ({ id: c.number, name: c.name, altNames: c.previousNames })),
    { minScore: MIN_CONFIDENCE, limit: candidates.length },
  );
  const ranked = matches.map((m) => {
    const candidate = byNumber.get(m.id)!;
    const former = m.matchedName !== candidate.name && candidate.previousNames.includes(m.matchedName);
    return {
      candidate,
      // A former name is a weaker answer than the same words in the current name.
      confidence: former ? Math.round(m.score * 0.9 * 1000) / 1000 : m.score,
      matchedOn: former ? ("former name" as const) : ("name" as const),
      matchedName: m.matchedName,
      reasons: former ? [...m.reasons, `former name: ${m.matchedName}`] : m.reasons,
    };
  });
  ranked.sort((a, b) => b.confidence - a.confidence);
  return ranked.slice(0, limit);
}
