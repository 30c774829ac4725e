/**
 * Say it once, check it always (issue 28 §4; SPEC §1 rules 2 and 6, §2.5, §2.6, §4.5, §4.8): every sentence of a
 * reply's prose that asserts a positive (licensed, supervised, registered, authorised, meets, passes, qualifies, a
 * definite sanctions match) or a reassuring absence (no proposal to strike off, no insolvency, no definite sanctions
 * match, not on a register, nothing missing, no X found) must agree with the structured fields of the same reply.
 *
 * Pure: it takes a parsed JSON reply and returns the claims it recognised and the ones the fields contradict. It knows
 * no operation: prose is found by walking the reply (every string with a space, except source text such as quotes and
 * the echo of the input), and the fields a sentence needs are looked for around it (see `scopeOf`). So a new operation
 * is checked without being listed, and so is a new prose field.
 *
 * Why here (test/support) and not in src/: it is the oracle the replies are judged by, so it must not be the code that
 * writes them (a summary built from this table would agree with it by construction), and a regex table refusing
 * replies at run time would turn a wording slip into an outage. The operations keep their own sentences; this table
 * is what they are held to.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** One claim a sentence makes, as recognised by a rule of the table. */
export interface Claim {
  /** Where the prose is, e.g. `results[0].profile.summary`. */
  path: string;
  sentence: string;
  rule: string;
}

/** A claim its reply's fields contradict (or do not support). */
export interface Disagreement extends Claim {
  /** What the rule requires of the fields. */
  requires: string;
  /** What the fields say instead. */
  fields: string;
}

/** Where a sentence is judged: the object holding the prose, and its scope (see scopeOf). */
export interface Place {
  holder: Obj;
  scope: Obj;
}

export interface ClaimRule {
  id: string;
  /** What the sentence says, in words (the table in the issue's report). */
  asserts: string;
  /** What the structured fields must say, in words. */
  requires: string;
  pattern: RegExp;
  /**
   * `positive`: a negated or hedged clause before the match ("is not", "no longer", "possible match only: …, listed
   * as …", "if", "the report mentions …") takes the claim away. `absence`: the rule's own words are a negation ("no
   * proposal to strike off"); only a hedge takes it away.
   */
  kind: "positive" | "absence";
  /** null when the fields agree; otherwise what they say instead. */
  check(place: Place, sentence: string): string | null;
}

// ————— Walking the reply —————

/**
 * Keys whose strings are not our assertions: text quoted from a source (a document, a website, a register's own
 * wording), names and labels, documentation of the method. `query` (the echo of the input) is skipped at the root.
 */
const NOT_PROSE = new Set([
  "quote",
  "quotes",
  "asWritten",
  "objects",
  "formula",
  "scoring",
  "method",
  "title",
  "label",
  "description",
  "tagline",
  "whatTheyDo",
  "ogTitle",
  "ogDescription",
  "attribution",
  "licence",
  "obtainedFrom",
  "source",
  "sources",
  "url",
  "href",
  "stack",
]);
const notProseKey = (key: string) => NOT_PROSE.has(key) || /name$/i.test(key) || /address$/i.test(key) || /^registeredOffice/.test(key);

export interface ProseItem {
  path: string;
  text: string;
  place: Place;
}

const pathText = (path: (string | number)[]) => path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

/**
 * Every prose string of a reply, with the object holding it and its scope: the outermost object reached from the
 * holder without leaving an array element. So an item of a batch, a register of licences-and-registers or a signal is
 * judged on its own fields, and a summary at the root on the whole reply.
 */
export function proseOf(reply: unknown): ProseItem[] {
  const out: ProseItem[] = [];
  // `chain`: the objects from the root to the holder; `scopeIndex`: the index in `chain` of the scope (the nearest array element, else the root).
  const visit = (v: unknown, path: (string | number)[], chain: Obj[], scopeIndex: number, key: string | null) => {
    if (typeof v === "string") {
      if (key !== null && notProseKey(key)) return;
      if (!/\s/.test(v.trim()) || chain.length === 0) return;
      out.push({ path: pathText(path), text: v, place: { holder: chain[chain.length - 1], scope: chain[scopeIndex] } });
      return;
    }
    if (Array.isArray(v)) {
      if (key !== null && NOT_PROSE.has(key)) return;
      v.forEach((x, i) => {
        // An object in an array is a scope of its own; a string in an array belongs to the object holding the array.
        if (isObj(x)) visit(x, [...path, i], chain, chain.length, key);
        else visit(x, [...path, i], chain, scopeIndex, key);
      });
      return;
    }
    if (isObj(v)) {
      // An object under a source key is source text too; one under a name key (`name: {value, evidence, note}`) is not.
      if (key !== null && NOT_PROSE.has(key)) return;
      const next = [...chain, v];
      const si = chain.length === 0 ? 0 : scopeIndex;
      for (const [k, x] of Object.entries(v)) {
        if (chain.length === 0 && k === "query") continue;
        visit(x, [...path, k], next, si, k);
      }
    }
  };
  visit(reply, [], [], 0, null);
  return out;
}

/** The sentences of a prose string. */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z("“'])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A negation before the claim in its clause: the claim is not a positive. */
const NEGATION = /\b(?:not|never|neither|nor|without|cannot|none|nothing|no longer|unable)\b|\bno\b(?!\.)|n't\b/i;
/** A hedge before the claim: possible, conditional, reported speech, past. Not a positive of ours. */
const HEDGE =
  /\b(?:possible|possibly|may|might|could|would|should|if|whether|unless|mentions?|states?|stated|says|said|claims?|quotes?|listed as|as the \w+ (?:gives|states)|formerly|previously|used to|until)\b/i;

/** The clause before position `at`: from the sentence's start or its last `;` / "but". */
function clauseBefore(sentence: string, at: number): string {
  const before = sentence.slice(0, at);
  const cuts = [...before.matchAll(/;|\bbut\b/gi)];
  const last = cuts[cuts.length - 1];
  return last ? before.slice(last.index + last[0].length) : before;
}

// ————— Looking for fields —————

interface Found {
  obj: Obj;
  /** The objects from the scope down to `obj`, both included. */
  chain: Obj[];
}

/** The shallowest objects of `scope` (arrays entered) for which `speaks` holds: the fields that decide. */
function shallowest(scope: Obj, speaks: (o: Obj) => boolean): Found[] {
  let level: Found[] = [{ obj: scope, chain: [scope] }];
  while (level.length) {
    const hits = level.filter((f) => speaks(f.obj));
    if (hits.length) return hits;
    const next: Found[] = [];
    for (const f of level)
      for (const v of Object.values(f.obj)) {
        const kids = Array.isArray(v) ? v.filter(isObj) : isObj(v) ? [v] : [];
        for (const k of kids) next.push({ obj: k, chain: [...f.chain, k] });
      }
    level = next;
  }
  return [];
}

/** Every value in the subtree with the key it is under. */
function* entries(v: Json, key: string | null = null): Generator<[string | null, Json]> {
  yield [key, v];
  if (Array.isArray(v)) for (const x of v) yield* entries(x, key);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) yield* entries(x, k);
}

const onPossiblePath = (f: Found) => f.chain.some((o) => o.possibleMatch === true);
const show = (o: Obj, keys: string[]) =>
  keys
    .filter((k) => k in o)
    .map((k) => `${k}: ${JSON.stringify(o[k])}`)
    .join(", ");

// ————— The registers —————

interface RegisterSpec {
  /** The register's key where a reply lists registers (`register: "sra"`). */
  key: string;
  /** The positive field of its check. */
  field: string;
  /** How prose names it. */
  named: RegExp;
  /** Another shape that speaks for it (the charity reader's `register: {charityNumber, found}`). */
  also?: (o: Obj) => boolean;
}

export const REGISTERS: Record<string, RegisterSpec> = {
  sponsors: { key: "sponsors", field: "licensed", named: /licensed sponsors|sponsors? register|register of (?:licensed )?sponsors|sponsor licen[cs]e/i },
  aml: { key: "aml", field: "supervisedByHmrc", named: /HMRC|money[- ]laundering|supervised business register/i },
  sra: { key: "sra", field: "authorised", named: /\bSRA\b|Solicitors Regulation Authority/i },
  cqc: { key: "cqc", field: "registered", named: /\bCQC\b|Care Quality Commission/i },
  charity: {
    key: "charity",
    field: "registered",
    named: /Charity Commission|register of charities|registered charity/i,
    also: (o) => "charityNumber" in o && typeof o.found === "boolean",
  },
};

const speaksFor = (r: RegisterSpec) => (o: Obj) =>
  typeof o[r.field] === "boolean" || (o.register === r.key && typeof o.found === "boolean") || (r.also?.(o) ?? false);
const affirms = (r: RegisterSpec, f: Found) =>
  (f.obj[r.field] === true || (f.obj.register === r.key && f.obj.found === true) || ((r.also?.(f.obj) ?? false) && f.obj.found === true)) && !onPossiblePath(f);
const registerFields = (r: RegisterSpec, hits: Found[]) =>
  hits
    .map(
      (f) =>
        `{${show(f.obj, [r.field, "register", "found", "charityNumber", "possibleMatch"])}${onPossiblePath(f) && f.obj.possibleMatch !== true ? ", possibleMatch: true above it" : ""}}`,
    )
    .join("; ");

/** A positive about register `r`: the deciding fields say so, for a definite match. */
function registerPositive(r: RegisterSpec) {
  return ({ scope }: Place): string | null => {
    const hits = shallowest(scope, speaksFor(r));
    if (!hits.length) return `no field says it (no \`${r.field}\`, no \`register: "${r.key}"\` with \`found\`)`;
    return hits.some((f) => affirms(r, f)) ? null : registerFields(r, hits);
  };
}

// ————— Verdict fields —————

/** A field, by key and value. */
type FieldTest = (key: string, value: Json) => boolean;

/**
 * A positive said by verdict fields (a `meets…` boolean, a verdict value "pass"): the shallowest objects with a field
 * that `speaks` decide, and one of their fields `says` yes; otherwise the message is `none` (no such field) or their
 * fields that `shown` picks (by default those that speak).
 */
function verdictPositive({ none, speaks, says, shown = speaks }: { none: string; speaks: FieldTest; says: FieldTest; shown?: FieldTest }) {
  return ({ scope }: Place): string | null => {
    const hits = shallowest(scope, (o) => Object.entries(o).some(([k, v]) => speaks(k, v)));
    if (!hits.length) return none;
    const yes = hits.some((f) => Object.entries(f.obj).some(([k, v]) => says(k, v)));
    return yes
      ? null
      : hits
          .map(
            (f) =>
              `{${Object.entries(f.obj)
                .filter(([k, v]) => shown(k, v))
                .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
                .join(", ")}}`,
          )
          .join("; ");
  };
}

const PASS_VALUES = new Set(["pass", "passes", "passed", "pass-with-action-plan"]);
const FAIL_VALUES = new Set(["fail", "fails", "failed", "cannot-tell", "not-enough-reports"]);

// ————— The table —————

const POSITIVE_FIELDS = ["licensed", "supervisedByHmrc", "authorised", "registered"];
const enumLike = (v: Json): v is string => typeof v === "string" && /^[A-Za-z0-9_.-]+$/.test(v);

export const CLAIM_RULES: ClaimRule[] = [
  {
    id: "licensed-sponsor",
    asserts: '"is a licensed sponsor", "holds a sponsor licence", "on the register of licensed sponsors"',
    requires: '`licensed === true` (or a `register: "sponsors"` entry with `found === true`), and no `possibleMatch === true` on the way to it',
    pattern:
      /\b(?:is|are|was) (?:an? )?(?:licensed (?:visa |worker |student )?sponsors?|sponsor licen[cs]e holders?)\b|\bholds? an? sponsor licen[cs]e\b|\bon the (?:Home Office(?:'s)? )?(?:register of licensed sponsors|licensed sponsors? register)\b/i,
    kind: "positive",
    check: registerPositive(REGISTERS.sponsors),
  },
  {
    id: "hmrc-supervised",
    asserts: '"supervised by HMRC", "on HMRC\'s supervised business register", "on the HMRC money-laundering supervision register"',
    requires: '`supervisedByHmrc === true` (or a `register: "aml"` entry with `found === true`), and no `possibleMatch === true` on the way to it',
    pattern:
      /\bsupervised by HMRC\b|\bHMRC[- ]supervised\b|\bon HMRC's (?:supervised business |(?:anti-)?money[- ]laundering (?:supervision )?)?register\b|\bon the HMRC (?:(?:anti-)?money[- ]laundering (?:supervision )?|supervised business )register\b/i,
    kind: "positive",
    check: registerPositive(REGISTERS.aml),
  },
  {
    id: "sra-authorised",
    asserts: '"authorised by the Solicitors Regulation Authority", "on the SRA register", "SRA-authorised"',
    requires: '`authorised === true` (or a `register: "sra"` entry with `found === true`), and no `possibleMatch === true` on the way to it',
    pattern:
      /\bauthorised by the (?:Solicitors Regulation Authority|SRA)\b|\bSRA[- ]authorised\b|\bon the SRA(?:'s)? register\b|\bregulated by the (?:SRA|Solicitors Regulation Authority)\b/i,
    kind: "positive",
    check: registerPositive(REGISTERS.sra),
  },
  {
    id: "cqc-registered",
    asserts: '"registered with CQC", "on the CQC register"',
    requires: '`registered === true` (or a `register: "cqc"` entry with `found === true`), and no `possibleMatch === true` on the way to it',
    pattern: /\bregistered with (?:the )?(?:CQC|Care Quality Commission)\b|\bon the (?:CQC|Care Quality Commission)(?:'s)? register\b|\bCQC[- ]registered\b/i,
    kind: "positive",
    check: registerPositive(REGISTERS.cqc),
  },
  {
    id: "registered-charity",
    asserts: '"registered with the Charity Commission", "on the Charity Commission register", "registered charity (number)"',
    requires:
      '`registered === true`, or a `register: "charity"` entry or a `{charityNumber, found}` register object with `found === true`; no `possibleMatch === true` on the way',
    pattern: /\bregistered with the Charity Commission\b|\bon the Charity Commission(?:'s)? register\b|\bregistered charity\b/i,
    kind: "positive",
    check: registerPositive(REGISTERS.charity),
  },
  {
    id: "on-this-register",
    asserts: '"On this register" (a register\'s own note)',
    requires: "the object holding it has `found === true` and `possibleMatch !== true`",
    pattern: /\bon this register\b/i,
    kind: "positive",
    check: ({ holder }) =>
      typeof holder.found === "boolean"
        ? holder.found === true && holder.possibleMatch !== true
          ? null
          : show(holder, ["found", "possibleMatch"])
        : "no `found` field beside it",
  },
  {
    id: "meets",
    asserts: '"meets" (the template, the requirement, the test)',
    requires: 'a `meets…` field true, or a verdict field whose value is "meets"',
    pattern: /\bmeets\b/i,
    kind: "positive",
    check: verdictPositive({
      none: "no `meets…` field and no verdict field",
      speaks: (k, v) => (/^meets[A-Z]/.test(k) && typeof v === "boolean") || v === "meets" || v === "does_not_meet",
      says: (k, v) => (/^meets[A-Z]/.test(k) && v === true) || v === "meets",
      shown: (k, v) => /^meets[A-Z]/.test(k) || v === "meets" || v === "does_not_meet",
    }),
  },
  {
    id: "passes",
    asserts: '"passes", "passed" (a test)',
    requires: 'a `pass`/`passes`/`passed` field true, or a verdict value "pass" / "pass-with-action-plan" / "passed"',
    pattern: /\bpass(?:es|ed)\b/i,
    kind: "positive",
    check: verdictPositive({
      none: "no pass field and no verdict field",
      speaks: (k, v) => (/^pass(?:es|ed)?$/i.test(k) && typeof v === "boolean") || (typeof v === "string" && (PASS_VALUES.has(v) || FAIL_VALUES.has(v))),
      says: (k, v) => (/^pass(?:es|ed)?$/i.test(k) && v === true) || (typeof v === "string" && PASS_VALUES.has(v)),
    }),
  },
  {
    id: "qualifies",
    asserts: '"qualifies" (a signature, an approval)',
    requires: "a `qualifies` field true",
    pattern: /\bqualifies\b/i,
    kind: "positive",
    check: ({ scope }) => {
      const hits = shallowest(scope, (o) => typeof o.qualifies === "boolean");
      if (!hits.length) return "no `qualifies` field";
      return hits.some((f) => f.obj.qualifies === true) ? null : hits.map((f) => `{qualifies: ${f.obj.qualifies}}`).join("; ");
    },
  },
  {
    id: "sanctions-listed",
    asserts: '"is on the UK sanctions list", "a definite match on the sanctions list"',
    requires: "a non-empty `definiteMatches` (SPEC §1 rule 6: only on a definite match)",
    pattern: /\b(?:is|are) on the (?:UK )?sanctions list\b|\bdefinite match(?:es)? (?:on|in|with) the (?:UK )?sanctions list\b/i,
    kind: "positive",
    check: ({ scope }) => {
      const hits = shallowest(scope, (o) => Array.isArray(o.definiteMatches));
      if (!hits.length) return "no `definiteMatches` field";
      return hits.some((f) => (f.obj.definiteMatches as Json[]).length > 0) ? null : "definiteMatches: []";
    },
  },
  {
    id: "possible-match",
    asserts: '"possible match"',
    requires:
      "`possibleMatch === true` where the field exists; where it does not, no positive field (licensed, supervisedByHmrc, authorised, registered) true beside it",
    pattern: /\bpossible match\b/i,
    kind: "absence", // its own word "possible" is the hedge; a negation ("not a possible match") still takes it away
    check: ({ scope }) => {
      const hits = shallowest(scope, (o) => typeof o.possibleMatch === "boolean");
      if (hits.length) return hits.some((f) => f.obj.possibleMatch === true) ? null : hits.map((f) => `{possibleMatch: ${f.obj.possibleMatch}}`).join("; ");
      const positives = shallowest(scope, (o) => POSITIVE_FIELDS.some((k) => typeof o[k] === "boolean"));
      const yes = positives.filter((f) => POSITIVE_FIELDS.some((k) => f.obj[k] === true));
      return yes.length ? `no \`possibleMatch\` field, and ${yes.map((f) => `{${show(f.obj, POSITIVE_FIELDS)}}`).join("; ")}` : null;
    },
  },
  {
    id: "no-strike-off",
    asserts: '"no proposal to strike off", "not proposed to be struck off"',
    requires: "a company status field in the reply (status, statusDetail or a strike-off flag), and none showing a proposal to strike off",
    pattern: /\bno (?:active )?proposal to strike (?:\S+ )?off\b|\bnot (?:proposed|due) to be struck off\b|\bno strike-off\b/i,
    kind: "absence",
    check: ({ scope }) => {
      let checked = false;
      const against: string[] = [];
      for (const [k, v] of entries(scope)) {
        if (k === null) continue;
        if (/^(?:status|statusDetail|companyStatus|companyStatusDetail)$/.test(k) || /strikeOff/i.test(k)) checked = true;
        if (/strikeOff/i.test(k) && v === true) against.push(`${k}: true`);
        if (enumLike(v) && /strike-off/i.test(v)) against.push(`${k}: ${JSON.stringify(v)}`);
      }
      if (against.length) return against.join(", ");
      return checked ? null : "no company status field: nothing shows it was checked";
    },
  },
  {
    id: "strike-off-proposed",
    asserts: '"a proposal to strike … off" (said as a fact)',
    requires: "a status field showing it (e.g. `statusDetail: active-proposal-to-strike-off`) or a strike-off flag true",
    pattern: /\bproposal to strike\b(?:[^.]{0,80}?)\boff\b/i,
    kind: "positive",
    check: ({ scope }) => {
      for (const [k, v] of entries(scope)) {
        if (k !== null && /strikeOff/i.test(k) && v === true) return null;
        if (enumLike(v) && /strike-off/i.test(v)) return null;
      }
      return "no status field shows a proposal to strike off";
    },
  },
  {
    id: "no-insolvency",
    asserts: '"no insolvency", "no liquidation", "no administration"',
    requires: "no status field in liquidation, administration, receivership or insolvency, and no insolvency flag true",
    pattern: /\bno (?:insolvency|liquidation|administration|receivership)\b/i,
    kind: "absence",
    check: ({ scope }) => {
      const against: string[] = [];
      for (const [k, v] of entries(scope)) {
        if (k === null) continue;
        if (
          /^(?:status|statusDetail|companyStatus|companyStatusDetail)$/.test(k) &&
          enumLike(v) &&
          /liquidation|administration|receivership|insolvency/i.test(v)
        )
          against.push(`${k}: ${JSON.stringify(v)}`);
        if (/insolven|liquidat/i.test(k) && v === true) against.push(`${k}: true`);
      }
      return against.length ? against.join(", ") : null;
    },
  },
  {
    id: "no-sanctions-match",
    asserts: '"no definite match on the UK sanctions list", "not on the UK sanctions list"',
    requires: "a sanctions object with `checked === true` and an empty `definiteMatches`",
    pattern: /\bno definite match(?:es)? (?:on|in|with) the (?:UK )?sanctions list\b|\bnot on the (?:UK )?sanctions list\b/i,
    kind: "absence",
    check: ({ scope }) => {
      const hits = shallowest(scope, (o) => Array.isArray(o.definiteMatches));
      if (!hits.length) return "no `definiteMatches` field";
      const ok = hits.some((f) => (f.obj.definiteMatches as Json[]).length === 0 && f.obj.checked !== false);
      return ok ? null : hits.map((f) => `{checked: ${f.obj.checked}, definiteMatches: ${(f.obj.definiteMatches as Json[]).length}}`).join("; ");
    },
  },
  {
    id: "not-on-register",
    asserts: '"not found on / not on / not listed on <register>" (each register the sentence names after it)',
    requires:
      'no deciding field of that register affirms it (the positive field, or `found` true for a definite match); for "not on this register", the object holding it has `found !== true`',
    pattern: /\bnot (?:found |listed |registered )?on (?:the |HMRC's |this )?/i,
    kind: "absence",
    check: ({ scope, holder }, sentence) => {
      const at = sentence.search(/\bnot (?:found |listed |registered )?on\b/i);
      const after = sentence.slice(at);
      const against: string[] = [];
      if (/^not (?:found |listed |registered )?on this register\b/i.test(after) && holder.found === true) against.push("this register: found: true");
      for (const r of Object.values(REGISTERS)) {
        if (!r.named.test(after)) continue;
        const hits = shallowest(scope, speaksFor(r));
        if (hits.some((f) => affirms(r, f))) against.push(`${r.key}: ${registerFields(r, hits)}`);
      }
      return against.length ? against.join("; ") : null;
    },
  },
  {
    id: "nothing-missing",
    asserts: '"nothing (required) was found missing or wrong", "no problems found"',
    requires: "the nearest `problems` list is empty",
    pattern: /\bnothing (?:required )?(?:was |is )?(?:found )?missing or wrong\b|\bno problems? (?:was |were )?found\b/i,
    kind: "absence",
    check: ({ scope }) => {
      const hits = shallowest(scope, (o) => Array.isArray(o.problems));
      if (!hits.length) return "no `problems` field";
      return hits.every((f) => (f.obj.problems as Json[]).length === 0) ? null : `problems: ${hits.map((f) => (f.obj.problems as Json[]).length).join(", ")}`;
    },
  },
  {
    id: "no-x-found",
    asserts: '"no X (was) found", "X not found"',
    requires:
      "where the object holding the sentence has a boolean `found`, it is false; where it has a list named after X (report → reports, award → awards), the list is empty",
    pattern: /\bno (?:[\w-]+ ){0,6}?(?:was |were |is |are )?found\b|\b(?:was|were) not found\b/i,
    kind: "absence",
    check: ({ holder }, sentence) => {
      if (typeof holder.found === "boolean") return holder.found === false ? null : "found: true";
      const words = new Set((sentence.match(/\b[a-z]+\b/gi) ?? []).map((w) => w.toLowerCase()));
      const lists = Object.entries(holder).filter(([k, v]) => Array.isArray(v) && k.length > 3 && words.has(k.toLowerCase().replace(/s$/, "")));
      const full = lists.filter(([, v]) => (v as Json[]).length > 0);
      return full.length ? full.map(([k, v]) => `${k}: ${(v as Json[]).length} item(s)`).join(", ") : null;
    },
  },
];

/** The claims of one sentence (a rule matched where it is not negated or hedged). */
export function claimsOf(sentence: string): ClaimRule[] {
  const out: ClaimRule[] = [];
  for (const rule of CLAIM_RULES) {
    const m = rule.pattern.exec(sentence);
    if (!m) continue;
    const clause = clauseBefore(sentence, m.index);
    if (HEDGE.test(clause) && rule.id !== "possible-match") continue;
    if (rule.kind === "positive" && NEGATION.test(clause)) continue;
    if (rule.id === "possible-match" && NEGATION.test(clause)) continue;
    out.push(rule);
  }
  return out;
}

/** Every claim the reply's prose makes, and those its fields contradict or do not support. */
export function checkClaims(reply: unknown): { claims: Claim[]; disagreements: Disagreement[] } {
  const claims: Claim[] = [];
  const disagreements: Disagreement[] = [];
  for (const item of proseOf(reply)) {
    for (const sentence of sentencesOf(item.text)) {
      for (const rule of claimsOf(sentence)) {
        claims.push({ path: item.path, sentence, rule: rule.id });
        const fields = rule.check(item.place, sentence);
        if (fields !== null) disagreements.push({ path: item.path, sentence, rule: rule.id, requires: rule.requires, fields });
      }
    }
  }
  return { claims, disagreements };
}

/** A disagreement as a line of a failure message. */
export const describeDisagreement = (d: Disagreement) => `${d.path}: "${d.sentence}" [${d.rule}] requires ${d.requires}; the fields say ${d.fields}`;
