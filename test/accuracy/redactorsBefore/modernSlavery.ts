/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/modernSlavery.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
import { looksLikePerson } from "../../../src/services/matching/people";

// ————————————————————————————————————————————————————————————————— names out of quotes

/** Words that are never part of a person's name in a signature line: roles, bodies, labels, organisation words. */
const NOT_NAME = new Set(
  (
    "signed signature signatory sign name names title position job print printed date dated approved approval authorised authorized by for on behalf of the and this that our its their a an author " +
    "director directors managing executive non-executive chief officer ceo cfo coo cto cio cpo cro president vice chair chairman chairwoman chairperson manager general head secretary company " +
    "group uk global international european regional national interim acting deputy joint senior lead sole finance financial sales operations operating commercial technical hr people legal " +
    "ethics compliance risk procurement board founder founding owner proprietor partner partners member members designated trustee trustees governor governors principal treasurer counsel " +
    "ltd limited plc llp inc corporation holdings llc gmbh statement modern slavery act human trafficking policy court council affairs " +
    "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec"
  ).split(" "),
);
const TITLES = /^(?:mr|mrs|ms|miss|dr|sir|dame|prof|lord|lady)\.?$/i;
const PARTICLES = new Set(["van", "von", "de", "der", "den", "da", "di", "du", "le", "la", "al", "bin", "ibn", "el", "del"]);
const bare = (tok: string) => tok.replace(/^[("“‘'[]+/, "").replace(/[)"”’'\],;:]+$/, "");
/** A token that may be (part of) a person's name: capitalised, or an initial ("M", "S.M.", "J."). */
const nameish = (tok: string) => {
  const t = bare(tok);
  if (!t || /^\(/.test(tok)) return false;
  if (TITLES.test(t)) return true;
  const low = t.toLowerCase().replace(/[.'’]+$/, "");
  if (NOT_NAME.has(low) || NOT_NAME.has(t.toLowerCase())) return false;
  return /^(?:\p{Lu}\.?){1,3}$/u.test(t) || /^\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}?[\p{Ll}'’]+)*\.?$/u.test(t) || /^(?:Mc|Mac|O['’])\p{Lu}\p{Ll}+$/u.test(t);
};
/** Words after a run of capitalised words that make it an organisation's name, not a person's. */
const ORG_NEXT =
  /^(?:\(?(?:ltd|limited|plc|llp|l\.l\.p|lp|inc|llc|gmbh|ag|sa|s\.a|nv|bv|corp|corporation|holdings|group|board|council|trust|foundation|university|college)\b\.?\)?|\((?:uk|u\.k\.)\)|'s|’s)/i;
/** Labels a signer's name follows. */
const NAME_LABEL =
  /(?:\b(?:signed|signature|signatory|(?:print(?:ed)?\s+)?name(?:\s*\/\s*title)?|signed\s+by|approved\s+by|authori[sz]ed\s+by|written\s+by|prepared\s+by)\s*[:\-–]?\s*|\.{3,}\s*|…+\s*|_{3,}\s*)$/i;
/** A role word a name may directly follow ("Managing Director Eddie Example"). */
const ROLE_END =
  /(?:\b(?:director|officer|ceo|cfo|coo|chair(?:man|woman|person)?|manager|partner|secretary|trustee|president|executive)|\bhead\s+of\s+(?:[\w&]+\s+){0,2}[\w&]+)\s*[,:–-]?$/i;

/**
 * A person's name out of a quote: a run of capitalised words (initials and titles too) that follows a signature label
 * ("Signed:", "Name:", "approved by"), precedes a role ("[name], Managing Director"), or follows a role ("Managing
 * Director, [name]"); with `whole`, also a line that is nothing but a name. Organisations' names (followed by Ltd,
 * plc, Board, (UK)…) are kept. A name run into a title by the PDF ("Jane ExampleFounder") is split first.
 */
export function scrubNames(text: string, opts: { whole?: boolean; cautious?: boolean } = {}): string {
  const src = text.replace(
    /(\p{Ll})((?:Founder|Director|Managing|Chief|Chair(?:man|woman|person)?|CEO|Group|General|Head|Company|Partner|Designated|Senior|Executive)\b)/gu,
    "$1 $2",
  );
  const toks = src.split(/(\s+)/);
  const words: { tok: string; i: number }[] = [];
  toks.forEach((tok, i) => {
    if (tok && !/^\s+$/.test(tok)) words.push({ tok, i });
  });
  const replace = new Set<number>();
  let k = 0;
  while (k < words.length) {
    if (!nameish(words[k].tok)) {
      k++;
      continue;
    }
    let e = k;
    while (
      e + 1 < words.length &&
      e - k < 5 &&
      !/[,;:)]$/.test(words[e].tok) &&
      (nameish(words[e + 1].tok) || (PARTICLES.has(words[e + 1].tok) && e + 2 < words.length && nameish(words[e + 2].tok)))
    )
      e++;
    const before = words
      .slice(Math.max(0, k - 4), k)
      .map((w) => w.tok)
      .join(" ");
    const nextTok = words[e + 1]?.tok ?? "";
    const after = words
      .slice(e + 1, e + 6)
      .map((w) => w.tok)
      .join(" ");
    const run = words.slice(k, e + 1).map((w) => w.tok);
    const last = run[run.length - 1];
    const orgNext = (ORG_NEXT.test(nextTok) && !ROLE_START.test(after)) || /^(?:&|and)$/i.test(nextTok) || /['’]s$/.test(bare(last));
    const initials = run.length === 1 && /^(?:\p{Lu}\.?){1,3}[,;:]?$/u.test(run[0]);
    const single = run.length === 1 && !TITLES.test(run[0]) && !initials;
    const labelled = NAME_LABEL.test(before);
    const punctBetween = /[,;:–—-]$/.test(last) || /^[,;:–—(-]/.test(after);
    const roleAfter = ROLE_START.test(after.replace(/^[,;:–—-]\s*/, "").replace(/^\(/, "")) && (punctBetween || !single);
    const roleBefore = ROLE_END.test(before) && (/,\s*$/.test(before) || run.length >= 2);
    const whole = !!opts.whole && e - k + 1 === words.length && (run.length >= 2 || initials);
    // Outside a signature block ("our Ethical Trade Manager"), a run next to a role is a name only when set off by a
    // comma or a dash, or when it looks like one (a known given name, a title, an initial).
    const person =
      !opts.cautious ||
      punctBetween ||
      /,\s*$/.test(before) ||
      run.some((t) => TITLES.test(bare(t)) || /^\p{Lu}\.$/u.test(bare(t))) ||
      looksLikePerson(run.map(bare).join(" "), "standalone");
    if (!orgNext && (labelled || ((roleAfter || roleBefore) && person) || whole)) for (let j = k; j <= e; j++) replace.add(j);
    k = e + 1;
  }
  if (!replace.size) return src === text ? text : src;
  const out = [...toks];
  let open = false;
  words.forEach((w, j) => {
    if (!replace.has(j)) {
      open = false;
      return;
    }
    const lead = /^[("“‘]+/.exec(w.tok)?.[0] ?? "";
    const trail = /[)"”’,;:]+$/.exec(w.tok)?.[0] ?? "";
    if (open) {
      out[w.i] = "";
      out[w.i - 1] = "";
      // Trailing punctuation moves to the run's end.
      const prev = words[j - 1];
      out[prev.i] = out[prev.i].replace(/[)"”’,;:]+$/, "") + trail;
    } else out[w.i] = `${lead}[name]${trail}`;
    open = true;
  });
  return out.join("").replace(/\s+/g, " ").trim();
}

/**
 * A heading with a person's name out: a signer's name often stands as a heading line of its own ("Jane Example" over
 * "Managing Director"). `signOff`: the heading is in the sign-off, where a line of capitalised words is taken for a
 * name; elsewhere only a heading that looks like a person's name (a known given name, a title) is.
 */
export function scrubHeading(h: string, signOff = false): string {
  if (looksLikePerson(h.trim(), "standalone")) return "[name]";
  return scrubNames(h, { whole: signOff });
}
/** Where a role starts (a signature line's title, after the name). */
const ROLE_HEAD_SRC = String.raw`designated\s+member|managing\s+member|(?:managing|senior|equity|salaried)\s+partner|partner|member|directors?(?!['’]s\s+(?:report|statement))|chief\s+executive(?:\s+officer)?|chief\s+[a-z]+(?:\s+[a-z]+)?\s+officer|ceo|cfo|coo|cto|cio|cpo|cro|vice[- ]president|president|chair(?:man|woman|person)?|general\s+manager|manager|head(?=\s+of\b)|company\s+secretary|secretary|trustee|governor|owner|founder|proprietor|principal|vice[- ]chancellor|general\s+counsel|treasurer|accounting\s+officer|officer`;
export const ROLE_HEAD = new RegExp(String.raw`\b(?:${ROLE_HEAD_SRC})\b`, "gi");
const MODIFIERS = new Set(
  (
    "group uk u.k. global international european emea regional national country interim acting deputy joint co co- managing executive non-executive non executive independent senior lead sole " +
    "finance financial sales operations operating commercial technical hr people legal ethics ethical compliance risk procurement company board founding general assistant associate divisional " +
    "area site branch vice marketing it sustainability corporate quality property programme strategy business development customer chief designated local retail supply chain trading office " +
    "practice office managing-director engineering production manufacturing health safety esg responsible"
  ).split(" "),
);
const ROLE_START = new RegExp(String.raw`^(?:(?:${[...MODIFIERS].map((m) => m.replace(/[.]/g, "\\.")).join("|")})[\s-]+){0,3}(?:${ROLE_HEAD_SRC})\b`, "i");
