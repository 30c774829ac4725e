import { thousands } from "../shared/format";
import { z } from "@hono/zod-openapi";
import { PREFIXES } from "../services/matching/companyNumber";

/**
 * A real calendar date `YYYY-MM-DD`, as a pattern (month lengths and leap years included), so the description says
 * exactly what validation takes: 2026-02-30 and 2026-13-01 are refused, before anything is charged.
 */
const MONTH_DAY = "(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)";
const LEAP_DAY = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29";
export const ISO_DATE_PATTERN = new RegExp(`^(?:[0-9]{4}-${MONTH_DAY}|${LEAP_DAY})$`);
export const IsoDate = z.string().regex(ISO_DATE_PATTERN, "must be a real calendar date YYYY-MM-DD").openapi({ format: "date" });

/**
 * A real calendar date on or after 1 November 1998, when the Late Payment of Commercial Debts (Interest) Act 1998 came
 * into force, as a pattern (so the description states the bound validation applies): 1998-11-01 to 1998-12-31, 1999,
 * and the years 2000 to 9999 with their leap days.
 */
const FROM_LATE_PAYMENT_ACT = `^(?:1998-(?:11-(?:0[1-9]|[12][0-9]|30)|12-(?:0[1-9]|[12][0-9]|3[01]))|1999-${MONTH_DAY}|[2-9][0-9]{3}-${MONTH_DAY}|(?:[2-9][0-9](?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)-02-29)$`;
export const IsoDateFromLatePaymentAct = z
  .string()
  .regex(
    new RegExp(FROM_LATE_PAYMENT_ACT),
    "must be a real calendar date YYYY-MM-DD, not before 1998-11-01, when the Late Payment of Commercial Debts (Interest) Act 1998 came into force",
  )
  .openapi({ format: "date" });

/**
 * Numbers are read strictly (issue: hardening §4): over HTTP a query value is text, and only plain
 * decimal digits are a number ("0x10", "1e3", "0b11", " 12 " are refused); over MCP a JSON number is taken.
 */
const PLAIN_INT = /^\d{1,16}$/;
const PLAIN_POUNDS = /^\d{1,9}(?:\.\d{1,2})?$/;

/** A whole number from min to max (JSON number, or plain digits as text). */
export const strictInt = (min: number, max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      if (typeof v === "string" && !PLAIN_INT.test(v)) {
        ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max}, written with digits only` });
        return z.NEVER;
      }
      return Number(v);
    })
    .pipe(z.number().int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    // Described as the number it is (a query's text is its digits; over MCP, a JSON number), not `number | string`.
    .openapi({ type: "integer", minimum: min, maximum: max });

/** An amount of money in pounds: a JSON number, or plain digits with at most two decimal places ("1250", "1250.50"). */
export const strictPounds = (max: number) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      if (typeof v === "string" && !PLAIN_POUNDS.test(v)) {
        ctx.addIssue({
          code: "custom",
          message: "must be an amount in pounds written with digits, e.g. 1250.00 (at most 2 decimal places; no signs, spaces, exponents or hex)",
        });
        return z.NEVER;
      }
      return Number(v);
    })
    .pipe(
      z
        .number()
        .positive("must be more than 0")
        .max(max, `must be at most ${thousands(max)}`)
        .refine((n) => Number(n.toFixed(2)) === n, "must have at most 2 decimal places (pence)"),
    )
    .openapi({ type: "number", exclusiveMinimum: 0, maximum: max, multipleOf: 0.01 });

/**
 * The one table of input limits (SPEC §8). Where the SPEC says "not shown" the maximum is ours; the
 * API description in OpenAPI, the Markdown pages and MCP tool descriptions are generated from here.
 */
export const INPUT_LIMITS = {
  q: { max: 200, appliesTo: "enrich, score, company-search, industry-classifier", spec: true },
  location: { max: 120, appliesTo: "enrich, score (and batch, ours)", spec: true },
  url: { max: 500, appliesTo: "accessibility-audit, document readers, crp-check", spec: true },
  domain: { max: 200, appliesTo: "company-logo", spec: true },
  company: { max: 160, appliesTo: "register checks (a company number, register number or name)", spec: false },
  limit: { max: 50, appliesTo: "company-search: 1 to 50, default 10", spec: true },
  companies: { max: 50, appliesTo: "idv-check: company numbers per call, comma-separated (600 characters at most)", spec: true, param: "company" },
  items: { max: 25, appliesTo: "batch: 1 to 25 entries", spec: true },
  text: { max: 1_000_000, appliesTo: "document readers (POST): characters of text (the JSON body at most 4 MiB)", spec: false },
  target: { max: 200, appliesTo: "assess: company name or domain", spec: false },
  offer: { max: 1_000, appliesTo: "assess: what is sold and to whom", spec: false },
  label: { max: 100, appliesTo: "watch label", spec: false },
  feedLimit: { max: 500, appliesTo: "register change feeds: changes per page, default 100", spec: false, param: "limit" },
  rating: { max: 40, appliesTo: "cqc-check/changes: one of the CQC ratings (Outstanding, Good, Requires improvement, Inadequate)", spec: false },
} as const;

/** The query parameter a limit applies to (a table key that is not itself the parameter's name says so). */
export const limitParam = (name: keyof typeof INPUT_LIMITS): string => ("param" in INPUT_LIMITS[name] ? (INPUT_LIMITS[name] as { param: string }).param : name);

/**
 * The one rule for parameters an operation does not take (issue 29 §4), applied to every operation's input by
 * defineOperation: a query parameter or body field the operation does not name is refused with 400 `bad_request`
 * naming it, before anything is charged. A misspelt optional parameter (`limt=5`, `locaton=Leeds`) silently ignored
 * would give an answer to another question; the description says so once (apiDescription) and, for bodies,
 * `additionalProperties: false`.
 */
export const UNKNOWN_PARAMETER = "is not a parameter of this operation (see its parameters in the API description)";
export const closedInput = <I extends z.ZodObject>(input: I): I => {
  const known = new Set(Object.keys(input.shape));
  return input
    .catchall(z.unknown())
    .superRefine((value, ctx) => {
      for (const [k, v] of Object.entries(value as Record<string, unknown>))
        if (!known.has(k))
          // The field names the parameter; an empty one (`?zz=`) is said in the message (the gateway reads an issue on an empty value as "required").
          ctx.addIssue({ code: "custom", path: v === "" ? [] : [k], message: v === "" ? `\`${k}\` ${UNKNOWN_PARAMETER}` : UNKNOWN_PARAMETER });
    })
    .openapi({ additionalProperties: false }) as unknown as I;
};

/** 1 to n digits, not all zeros, as a pattern (no look-ahead: outside tools generate from it). */
const digitsNotAllZero = (n: number, exact = false) =>
  `(?:${Array.from({ length: n }, (_, zeros) => `${"0".repeat(zeros)}[1-9]${n - zeros - 1 ? `[0-9]{${exact ? n - zeros - 1 : `0,${n - zeros - 1}`}}` : ""}`).join("|")})`;
const anyCase = (s: string) => [...s].map((c) => (/[A-Z]/.test(c) ? `[${c}${c.toLowerCase()}]` : c)).join("");

/**
 * A Companies House company number exactly as validation takes it (services/matching/companyNumber.ts
 * normaliseCompanyNumber, issue 29 §4): 1 to 8 digits (padded), a known prefix (SC, NI, OC, …, any case) and 1 to 6
 * digits, or any two letters and 6 digits; never all zeros; one space may part the prefix from the digits, and spaces
 * around are trimmed. The same pattern is in the description and in validation, so the two cannot disagree.
 */
export const COMPANY_NUMBER = `(?:${digitsNotAllZero(8)}|(?:${[...PREFIXES].map(anyCase).join("|")}) ?${digitsNotAllZero(6)}|[A-Za-z]{2} ?${digitsNotAllZero(6, true)})`;
export const COMPANY_NUMBER_PATTERN = new RegExp(`^\\s*${COMPANY_NUMBER}\\s*$`);
/** Up to `max` company numbers, comma-separated. */
export const companyNumbersPattern = (max: number) => new RegExp(`^\\s*${COMPANY_NUMBER}(?:\\s*,\\s*${COMPANY_NUMBER}){0,${max - 1}}[\\s,]*$`);

/** A word matched in any case, as a pattern (`added` → `[aA][dD]…`): JSON Schema patterns take no flags. */
export const caseless = (word: string) =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
/** A comma-separated list of these words (any case, spaces and empty items allowed; empty is no filter). */
export const wordListPattern = (words: readonly string[]) => {
  const one = `(?:${words.map(caseless).join("|")})`;
  return new RegExp(`^[\\s,]*(?:${one}(?:\\s*,[\\s,]*${one})*)?[\\s,]*$`);
};

/*
 * Addresses as patterns (issue 29 §4): what validation takes, said in the description so that an outside fuzzer
 * generating from it makes only inputs the service accepts. Plain ECMA-262 that Python's `re` reads the same way: no
 * look-around, and no `\d`, `\s` or `\w` (Python's take in other scripts' digits and another set of spaces).
 */
const ALNUM = "[A-Za-z0-9]";
const LDH = "[A-Za-z0-9-]";
/**
 * A DNS label: 1 to 63 letters, digits and hyphens, not starting or ending with a hyphen, and without `--` in its third
 * and fourth places (the mark of an IDNA-encoded label such as `xn--…`, which the URL parser decodes and may refuse;
 * registries give no other name that mark). `first`: what its first character may be.
 */
const dnsLabel = (first: string, min1 = true) =>
  `(?:${first}${min1 ? `(?:${LDH}{0,2}${ALNUM})?` : `${LDH}{0,2}${ALNUM}`}|${first}${LDH}(?:${ALNUM}${LDH}|-${ALNUM})${LDH}{0,58}${ALNUM})`;
/** A host name with at least one dot (a name without one is never a public host), its last label starting with a letter (two characters or more: a last label of digits would be read as an IPv4 address); one trailing dot allowed. */
export const HOST_NAME = `(?:${dnsLabel(ALNUM)}\\.)+${dnsLabel("[A-Za-z]", false)}\\.?`;
const OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
/** An IPv4 address in dotted decimal (no leading zeros: `010` would be octal). */
const IPV4 = `(?:${OCTET}\\.){3}${OCTET}`;
const H16 = "[0-9A-Fa-f]{1,4}";
/** An IPv6 address in any of its text forms (RFC 4291 §2.2), the last 32 bits possibly in dotted decimal. */
const IPV6 = [
  `(?:${H16}:){7}${H16}`,
  `(?:${H16}:){1,7}:`,
  ...[1, 2, 3, 4, 5, 6].map((k) => `(?:${H16}:){1,${7 - k}}(?::${H16}){${k === 1 ? 1 : `1,${k}`}}`),
  `:(?::${H16}){1,7}`,
  "::",
  `(?:${H16}:){6}${IPV4}`,
  ...[0, 1, 2, 3, 4, 5].map((k) => `${k ? `(?:${H16}:){${k}}` : ":"}:(?:${H16}:){0,${5 - k}}${IPV4}`),
].join("|");
/** A port, 0 to 65535. */
const PORT = "(?::(?:[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?";
/** Path, query and fragment: printable characters of the Basic Multilingual Plane (spaces inside allowed, percent-encoded when fetched). */
const REST = "(?:[/?#][ -~\\u00A0-\\uD7FF\\uE000-\\uFFFD]*)?";
const HTTP_SCHEME = `${caseless("http")}[sS]?://`;

/**
 * A page URL as the web tools and document readers take it (app/web/page.ts PageUrl): `http://` or `https://` (or
 * no scheme: https is assumed), a host name, an IPv4 address or a bracketed IPv6 address, an optional port, and the
 * rest. No user name or password (a host has no `@`). An IP address must also be public: that is said in words, and
 * refused in validation, since no pattern can say it.
 */
export const PAGE_URL_PATTERN = new RegExp(`^(?:${HTTP_SCHEME})?(?:${HOST_NAME}|${IPV4}|\\[(?:${IPV6})\\])${PORT}${REST}$`);
/** A domain (app/web/page.ts Domain): a host name, or a pasted http(s) URL of a page of the site (only its host is kept). */
export const DOMAIN_PATTERN = new RegExp(`^(?:${HTTP_SCHEME})?${HOST_NAME}${PORT}${REST}$`);
/** A webhook URL: https (the scheme required), then as a page URL. */
export const WEBHOOK_URL_PATTERN = new RegExp(`^${caseless("https://")}(?:${HOST_NAME}|${IPV4}|\\[(?:${IPV6})\\])${PORT}${REST}$`);

/** RFC 5322 `atext`: what a dot-atom local part is made of. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
/**
 * An email address as sign-up takes it (services/account/contact.ts normaliseEmail): a dot-atom local part (no quoted
 * local parts, no comments), `@`, a host name whose last label is 2 to 63 letters (no `[IP]` literal). With `format:
 * email` in the description, every address a fuzzer generates for both is one sign-up accepts.
 */
export const EMAIL_PATTERN = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${ALNUM}(?:${LDH}{0,61}${ALNUM})?\\.)+[A-Za-z]{2,63}$`);

/** Between two digits of a mobile number: nothing, a space, dot or hyphen, or a bracket (`(+44) 7700`, `+1 (415) 555-0100`). */
const GAP = "(?:[ .-]|\\) ?| ?\\()?";
const digits = (n: string) => `(?:${GAP}[0-9])${n}`;
/**
 * A mobile number in the notations sign-up takes (every one of them read by services/account/contact.ts
 * normaliseMobile): a UK mobile as 07… (11 digits), +447… or 00447…, or another country's number as + and 8 to 15
 * digits (not +44: a UK number that is not a mobile); one space, dot or hyphen, or a bracket, between digits.
 */
export const MOBILE_PATTERN = new RegExp(
  `^\\(?(?:0${GAP}7${digits("{9}")}|(?:\\+|0${GAP}0)${GAP}4${GAP}4${GAP}7${digits("{9}")}|\\+(?:[1-35-9]${digits("{7,14}")}|4${GAP}[0-35-9]${digits("{6,13}")}))$`,
);

/** The white space of JavaScript's `\s` (ECMA-262 WhiteSpace and LineTerminator), listed: Python's `\s` is another set. */
const SPACE = "\\t\\n\\v\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
/** Text with at least `n` characters besides white space (unanchored: anywhere in it). */
export const nonSpacePattern = (n: number) => new RegExp(`(?:[^${SPACE}][${SPACE}]*){${n}}`, "u");
