import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { operations } from "../src/operations";
import { isPublicAddress, parseIpLiteral } from "../src/services/net/address";
import type { AnyOperation } from "../src/platform/registry";
import { balanceOf, call, createTestKey } from "./helpers";
import { SETUP, loadSampleRegisters, requestOf } from "./support/everyOperation";
import { emittedDoc } from "./support/replyConformance";

/**
 * Issue 29 §4: inputs generated from the EMITTED description (/openapi.json), as an outside fuzzer makes them, for
 * every operation:
 * - valid by the description → never refused as invalid (400) and never a 5xx, except the documented 503 when an
 *   upstream the test stands in for answers nothing (this test stands in for none: unknown hosts answer 599);
 * - invalid (a required parameter missing, a wrong type, over maxLength, outside min/max, not matching its pattern or
 *   enum, a parameter the operation does not describe) → 400 `bad_request` naming the field, never charged.
 * Every reply is also checked against the description's own reply schema (test/setup.ts, support/replyConformance.ts).
 *
 * Rules a parameter list cannot say (OpenAPI has no "one of these two parameters"), written in the operations'
 * descriptions: generated inputs keep them (ONE_OF). Operations whose example needs state made first (SETUP) get it.
 */

type Schema = Record<string, any>;
interface Param {
  name: string;
  required: boolean;
  schema: Schema;
  /** A path parameter (`/api/v1/receipts/{id}`): without it the request is for another address (404), not this operation. */
  inPath?: boolean;
}

/** "Give this or that" rules, from the operations' descriptions: a generated input carries exactly one of each pair. */
const ONE_OF: Record<string, [string, string]> = {
  checkAiVisibility: ["domain", "url"],
  getBrandKit: ["domain", "url"],
  scoreModernSlaveryStatement: ["text", "url"],
  structureOfstedReport: ["text", "url"],
  structureCqcReport: ["text", "url"],
  structureCharityReport: ["text", "url"],
  companyLogoImage: ["domain", "company"],
};

/** Rules between two parameters, from the operations' descriptions: a generated input is put in order. */
const BETWEEN: Record<string, (input: Record<string, unknown>) => void> = {
  // late-payment: `paid` is not before `due`.
  calculateLatePayment: (i) => {
    if (typeof i.paid === "string" && typeof i.due === "string" && i.paid < i.due) [i.paid, i.due] = [i.due, i.paid];
  },
};

/** Opaque tokens only the service gives out (a page's `nextCursor`): never generated (a made-up one is refused, rightly). */
const GIVEN_OUT = new Set(["cursor"]);

/**
 * Operations whose input rules the description does not (yet) say, each with its reason: their test is expected to
 * fail (it.fails), so when the description and validation come to agree it passes, fails as "expected to fail", and
 * the entry must go. Empty: every operation's description says its input rules (issue 29 §4).
 */
const KNOWN_DISAGREEMENTS: Record<string, string> = {};

/**
 * The one refusal of an input valid by its pattern that the description says in words instead (URL_RULES, "An IP
 * address must be a public one"): a `url` whose host is an IP address that is not public, refused with 400
 * `bad_request` naming `url`. No pattern can say which addresses are public; nothing else is excused.
 */
/**
 * The other: an `asOf` date after today (issue 33 §1), which the description says in words ("Not after today"); a
 * pattern cannot follow the calendar.
 */
function asOfAfterToday(input: Record<string, unknown>): boolean {
  return typeof input.asOf === "string" && input.asOf > new Date().toISOString().slice(0, 10);
}

function nonPublicIpUrl(input: Record<string, unknown>): boolean {
  if (typeof input.url !== "string") return false;
  const raw = input.url.trim();
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`).hostname;
  } catch {
    return false;
  }
  const ip = parseIpLiteral(host);
  return ip !== null && !isPublicAddress(ip);
}

/** The codes an input refused as invalid may carry: both are 400 (`invalid_url`: the webhook's address check, which names `url`). */
const INVALID_CODES = new Set(["bad_request", "invalid_url"]);

/** Valid runs per operation (inputs are random; a few each keep the file under a minute). */
const RUNS = 4;

let doc: Awaited<ReturnType<typeof emittedDoc>>;
beforeAll(async () => {
  await loadSampleRegisters();
  doc = await emittedDoc();
}, 120_000);
afterEach(() => vi.restoreAllMocks());

const resolve = (s: Schema): Schema =>
  typeof s?.$ref === "string"
    ? resolve(
        s.$ref
          .split("/")
          .slice(1)
          .reduce((o: Schema, k: string) => o?.[k], doc as Schema),
      )
    : s;

/** An operation's inputs as the description gives them: path and query parameters, or the JSON body's properties. */
function paramsOf(op: AnyOperation): Param[] {
  const d = (doc.paths as Record<string, Record<string, Schema>>)[op.path.replace(/:(\w+)/g, "{$1}")][op.method];
  if (op.method === "get" || op.method === "delete")
    return (d.parameters ?? []).map((p: Schema) => ({ name: p.name, required: !!p.required, schema: resolve(p.schema), inPath: p.in === "path" }));
  const body = resolve(d.requestBody.content["application/json"].schema);
  return Object.entries((body.properties ?? {}) as Record<string, Schema>).map(([name, s]) => ({
    name,
    required: (body.required ?? []).includes(name),
    schema: resolve(s),
  }));
}

const typesOf = (s: Schema): string[] => [s.type].flat().filter((t): t is string => typeof t === "string");

/** A value valid by the schema (text for a query, JSON for a body). */
function arbitraryOf(s: Schema, inQuery: boolean): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...(s.enum as unknown[]).filter((v) => v !== null));
  const types = typesOf(s);
  const asText = (a: fc.Arbitrary<number>) => (inQuery ? a.map(String) : a);
  if (types.includes("integer")) return asText(fc.integer({ min: Math.max(s.minimum ?? 0, -1e9), max: Math.min(s.maximum ?? 1e9, 1e9) }));
  if (types.includes("number")) {
    const step = s.multipleOf ?? 0.01;
    const lo = Math.ceil(((s.exclusiveMinimum ?? s.minimum ?? 0) + (s.exclusiveMinimum !== undefined ? step : 0)) / step);
    const hi = Math.floor(Math.min(s.maximum ?? 1e9, 1e9) / step);
    return asText(fc.integer({ min: lo, max: hi }).map((n) => Number((n * step).toFixed(2))));
  }
  if (types.includes("boolean")) return inQuery ? fc.constantFrom("true", "false") : fc.boolean();
  if (types.includes("array"))
    return fc.array(arbitraryOf(resolve(s.items ?? {}), inQuery), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 60, 60);
  const text = s.pattern ? fc.stringMatching(new RegExp(s.pattern, "u")) : fc.string({ minLength, maxLength, unit: "grapheme" });
  return text.filter((t) => [...t].length >= minLength && [...t].length <= (s.maxLength ?? Infinity));
}

/** A valid input: every required parameter, each optional one or not, one of each ONE_OF pair. */
function validInput(op: AnyOperation): fc.Arbitrary<Record<string, unknown>> {
  const inQuery = op.method === "get" || op.method === "delete";
  const pair = ONE_OF[op.operationId];
  const params = paramsOf(op);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of params.filter((q) => !GIVEN_OUT.has(q.name)))
    fields[p.name] = p.required ? arbitraryOf(p.schema, inQuery) : fc.option(arbitraryOf(p.schema, inQuery), { nil: undefined });
  return fc.record(fields).chain((input) =>
    fc.constantFrom(0, 1).map((which) => {
      const out = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (pair) {
        const keep = pair[which];
        delete out[pair[1 - which]];
        if (out[keep] === undefined) out[keep] = fc.sample(arbitraryOf(params.find((p) => p.name === keep)!.schema, inQuery), 1)[0];
      }
      BETWEEN[op.operationId]?.(out);
      return out;
    }),
  );
}

/** One input a description says is invalid, and the field it is wrong in. */
interface Invalid {
  what: string;
  field: string;
  input: Record<string, unknown>;
}

function invalidInputs(op: AnyOperation, base: Record<string, unknown>): Invalid[] {
  const inQuery = op.method === "get" || op.method === "delete";
  const out: Invalid[] = [{ what: "a parameter it does not describe", field: "zzUnknown", input: { ...base, zzUnknown: "1" } }];
  for (const p of paramsOf(op)) {
    const s = p.schema;
    const types = typesOf(s);
    const put = (what: string, v: unknown) => out.push({ what: `${p.name}: ${what}`, field: p.name, input: { ...base, [p.name]: v } });
    if (p.required && !p.inPath) {
      const { [p.name]: _, ...rest } = base;
      out.push({ what: `${p.name} missing`, field: p.name, input: rest });
    }
    if (types.includes("integer") || types.includes("number")) {
      put("not a number", "abc");
      if (s.maximum !== undefined) put("over its maximum", inQuery ? String(s.maximum + 1) : s.maximum + 1);
      if (s.minimum !== undefined) put("under its minimum", inQuery ? String(s.minimum - 1) : s.minimum - 1);
      if (types.includes("integer")) put("not whole", inQuery ? "1.5" : 1.5);
    } else if (types.includes("string")) {
      if (!inQuery) put("not a string", 12345);
      if (s.maxLength !== undefined && s.maxLength < 100_000) put(`over maxLength ${s.maxLength}`, "7".repeat(s.maxLength + 1));
      if (s.enum) put("not one of its values", "zz-not-a-value");
      else if (s.pattern && !new RegExp(s.pattern, "u").test("#!?")) put("not matching its pattern", "#!?");
    } else if (types.includes("array")) {
      put("not an array", "x");
      if (s.maxItems !== undefined)
        put(
          `over maxItems ${s.maxItems}`,
          Array.from({ length: s.maxItems + 1 }, () => "x"),
        );
    }
  }
  return out;
}

const ops = operations.filter((op) => op.method === "get" || op.method === "delete" || op.method === "post" || op.method === "put");

describe("issue 29 §4: inputs generated from the emitted description", () => {
  const agreeing = ops.filter((op) => !(op.operationId in KNOWN_DISAGREEMENTS));
  const disagreeing = ops.filter((op) => op.operationId in KNOWN_DISAGREEMENTS);
  it("every known disagreement names an operation of the registry", () => {
    expect(Object.keys(KNOWN_DISAGREEMENTS).filter((id) => !ops.some((op) => op.operationId === id))).toEqual([]);
  });
  it.each(agreeing.map((op) => [op.operationId, op] as const))(
    "%s: valid inputs are never refused as invalid and never a 5xx; invalid ones are 400 naming the field, uncharged",
    (_id, op) => generatedInputs(op),
    120_000,
  );
  it.fails.each(disagreeing.map((op) => [op.operationId, KNOWN_DISAGREEMENTS[op.operationId], op] as const))(
    "%s (known disagreement: %s): expected to fail until the description says the rule",
    (_id, _why, op) => generatedInputs(op),
    120_000,
  );
});

async function generatedInputs(op: AnyOperation): Promise<void> {
  {
    const { key } = await createTestKey({ plan: "enterprise", verified: true });
    const setup = SETUP[op.operationId];
    const fill = setup ? await setup(op.auth === "key" ? key : undefined) : {};
    const seen: string[] = [];
    await fc.assert(
      fc.asyncProperty(validInput(op), async (generated) => {
        const input = { ...generated, ...Object.fromEntries(Object.entries(fill).filter(([k]) => k in generated)) };
        vi.spyOn(console, "log").mockImplementation(() => {});
        const r = await call(...requestOf(op, input, op.auth === "key" ? key : undefined));
        const body = (await r.json().catch(() => null)) as Record<string, unknown> | null;
        const said = `${op.method.toUpperCase()} ${op.path} ${JSON.stringify(input).slice(0, 300)} → ${r.status} ${JSON.stringify(body).slice(0, 300)}`;
        seen.push(said);
        if (r.status === 400 && nonPublicIpUrl(input) && body?.code === "bad_request" && body?.field === "url") return;
        if (r.status === 400 && asOfAfterToday(input) && body?.code === "bad_request" && body?.field === "asOf") return;
        expect(r.status, `valid by the description but refused: ${said}`).not.toBe(400);
        if (r.status >= 500) expect([503], `a server error: ${said}`).toContain(r.status);
        if (r.status === 503) expect(["upstream_unavailable", "timeout"], said).toContain(body?.code);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );

    // A fresh key (a valid revokeApiKey may have revoked the first).
    const { key: key2, keyId: keyId2 } = await createTestKey({ plan: "enterprise", verified: true });
    const before = op.auth === "key" ? await balanceOf(keyId2, { plan: "enterprise" }) : 0;
    const base = { ...fc.sample(validInput(op), { numRuns: 1, seed: 29 })[0], ...fill };
    const wrong: string[] = [];
    for (const bad of invalidInputs(op, base)) {
      const r = await call(...requestOf(op, bad.input, op.auth === "key" ? key2 : undefined));
      const body = (await r.json().catch(() => null)) as Record<string, unknown> | null;
      const fieldOk = typeof body?.field === "string" && (body.field === bad.field || body.field.startsWith(`${bad.field}.`));
      if (r.status !== 400 || !INVALID_CODES.has(String(body?.code)) || !fieldOk || r.headers.has("x-credits-remaining"))
        wrong.push(`${bad.what}: ${JSON.stringify(bad.input).slice(0, 200)} → ${r.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    expect(wrong, "invalid by the description, but not refused with 400 naming the field").toEqual([]);
    if (op.auth === "key") expect(await balanceOf(keyId2, { plan: "enterprise" }), "invalid inputs are never charged").toBe(before);
  }
}

describe("issue 29 §4: the company number pattern is what validation takes", () => {
  it("COMPANY_NUMBER_PATTERN matches exactly the numbers normaliseCompanyNumber reads (fuzzed and by hand)", async () => {
    const { COMPANY_NUMBER_PATTERN } = await import("../src/platform/schemas");
    const { normaliseCompanyNumber } = await import("../src/services/matching/companyNumber");
    // Valid forms (the pattern's own space rule: trimmed, at most one space after the prefix).
    for (const n of ["1", "01234567", "12345678", " 1234567 ", "SC123456", "sc 12345", "oc300123", "R0000123", "AB123456", "ab 123456"])
      expect(COMPANY_NUMBER_PATTERN.test(n), n).toBe(true);
    for (const n of ["0", "00000000", "123456789", "SC000000", "AB12345", "A1123456", "SC1234567", "", "S C123456", "valueOf"])
      expect(COMPANY_NUMBER_PATTERN.test(n), n).toBe(false);
    const shaped = fc.oneof(
      fc.stringMatching(/^\s?[0-9]{1,9}\s?$/),
      fc
        .tuple(fc.constantFrom("SC", "sc", "NI", "OC", "R0", "AB", "zz", "A1", "1A"), fc.constantFrom("", " "), fc.stringMatching(/^[0-9]{1,7}$/))
        .map(([p, s, d]) => `${p}${s}${d}`),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(shaped, (s) => {
        // Where the pattern's space rule holds, pattern and normalisation agree exactly.
        if (/\S\s+\S/.test(s.trim()) && !/^[A-Za-z][A-Za-z0-9] [0-9]+$/.test(s.trim())) return;
        expect(COMPANY_NUMBER_PATTERN.test(s), JSON.stringify(s)).toBe(normaliseCompanyNumber(s) !== null);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("issue 29 §4: the address, email, mobile and text patterns are what validation takes", () => {
  /** Strings a fuzzer makes from a description's pattern (as fast-check reads it: ECMA-262, `u`), within maxLength. */
  const fromPattern = (re: RegExp, maxLength: number) => fc.stringMatching(new RegExp(re.source, "u")).filter((s) => [...s].length <= maxLength);

  it("every URL PAGE_URL_PATTERN matches passes validation and the safe fetcher's own check, but for an IP address that is not public (said in words)", async () => {
    const { PAGE_URL_PATTERN } = await import("../src/platform/schemas");
    const { PageUrl, pageOf, urlRefusal } = await import("../src/app/web/page");
    const { checkUrl } = await import("../src/sources/web/safeFetch");
    let ips = 0;
    fc.assert(
      fc.property(fromPattern(PAGE_URL_PATTERN, 500), (s) => {
        const why = urlRefusal(s.trim());
        if (nonPublicIpUrl({ url: s })) {
          ips++;
          expect(why, s).toMatch(/private, loopback/);
          return;
        }
        expect(why, JSON.stringify(s)).toBeNull();
        expect(PageUrl.safeParse(s).success, JSON.stringify(s)).toBe(true);
        const page = pageOf({ url: s.trim() });
        // Ports and local names are the fetcher's to refuse (422 blocked_address), never as an invalid URL (400).
        if (page.length <= 500)
          try {
            checkUrl(page);
          } catch (e) {
            expect((e as { code?: string }).code, `${JSON.stringify(s)}: ${String(e)}`).toBe("blocked_address");
          }
      }),
      { numRuns: 3000 },
    );
    expect(ips).toBeGreaterThan(0);
    // Real addresses callers send match it; what validation refuses does not.
    for (const u of [
      "https://www.example.co.uk/",
      "www.example.co.uk/statement",
      "HTTPS://WWW.EXAMPLE.CO.UK",
      "http://93.184.215.14/",
      "https://[2606:4700::1111]/",
      "https://[::ffff:8.8.8.8]:8443/x",
      "https://example.com:8443/a?b=c#d",
      "https://www.example.co.uk/modern slavery statement.pdf",
      "https://www.example.co.uk/café?q=a&b=c",
      "example.com.",
      "https://a-b--c.example.com/",
    ])
      expect([u, PAGE_URL_PATTERN.test(u), urlRefusal(u)]).toEqual([u, true, null]);
    for (const u of [
      "ftp://example.com/",
      "https://user:pw@example.com/",
      "not a url",
      "https://exa mple.com/",
      "https://xn--a.com/",
      "https://a.0x1/",
      "https://1.2.3.4.5/",
      "https://example.com:65536/",
      "#!?",
    ])
      expect([u, PageUrl.safeParse(u).success]).toEqual([u, false]);
  });

  // The fetcher counts the caller's 500 characters, not the `https://` this service puts before an address without a scheme.
  it("a URL without a scheme of up to 500 characters is not refused as too long once https:// is put before it", async () => {
    const { pageOf } = await import("../src/app/web/page");
    const { checkUrl } = await import("../src/sources/web/safeFetch");
    const s = `www.example.co.uk/${"a".repeat(500 - 18)}`;
    expect(s.length).toBe(500);
    expect(() => checkUrl(pageOf({ url: s }))).not.toThrow();
  });

  it("every domain DOMAIN_PATTERN matches is taken (its host kept); what it does not match is refused", async () => {
    const { DOMAIN_PATTERN } = await import("../src/platform/schemas");
    const { Domain } = await import("../src/app/web/page");
    fc.assert(
      fc.property(fromPattern(DOMAIN_PATTERN, 200), (s) => {
        const r = Domain.safeParse(s);
        expect(r.success, JSON.stringify(s)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    for (const d of ["example.co.uk", "WWW.Example.CO.UK", "https://www.example.co.uk/about", "example.co.uk.", "a.io"])
      expect([d, Domain.safeParse(d).success]).toEqual([d, true]);
    for (const d of ["localhost", "1.2.3.4", "ftp://example.com", "https://u@example.com", "exa mple.com", "xn--a.com", "a.b", "#!?"])
      expect([d, Domain.safeParse(d).success]).toEqual([d, false]);
  });

  it("every webhook URL WEBHOOK_URL_PATTERN matches passes the address check's URL rules (only blocked_address, 422, for a private address, a local name or a port)", async () => {
    const { WEBHOOK_URL_PATTERN } = await import("../src/platform/schemas");
    const { checkUrl } = await import("../src/sources/web/safeFetch");
    fc.assert(
      fc.property(fromPattern(WEBHOOK_URL_PATTERN, 500), (s) => {
        try {
          expect(checkUrl(s.trim()).protocol).toBe("https:");
        } catch (e) {
          expect((e as { code?: string }).code, `${JSON.stringify(s)}: ${String(e)}`).toBe("blocked_address");
        }
      }),
      { numRuns: 2000 },
    );
    for (const u of ["http://hooks.example.co.uk/x", "hooks.example.co.uk/x", "not a url"]) expect([u, WEBHOOK_URL_PATTERN.test(u)]).toEqual([u, false]);
  });

  it("every address EMAIL_PATTERN matches is one sign-up takes; quoted local parts and IP literals (format email allows them) are outside it", async () => {
    const { EMAIL_PATTERN } = await import("../src/platform/schemas");
    const { normaliseEmail } = await import("../src/services/account/contact");
    fc.assert(
      fc.property(fromPattern(EMAIL_PATTERN, 254), (s) => {
        expect(normaliseEmail(s), JSON.stringify(s)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
    // fast-check's own RFC addresses: those the pattern takes, sign-up takes.
    fc.assert(
      fc.property(fc.emailAddress(), (s) => void (EMAIL_PATTERN.test(s) && s.length <= 254 && expect(normaliseEmail(s), s).not.toBeNull())),
      { numRuns: 2000 },
    );
    for (const e of ["dev@example.co.uk", "First.Last+tag@sub.example.com", "o'brien@example.ie"]) expect([e, EMAIL_PATTERN.test(e)]).toEqual([e, true]);
    // The description says both: format email, and the pattern that keeps a fuzzer's addresses to those sign-up takes.
    const described = (await emittedDoc()) as unknown as { paths: Record<string, any>; components: { schemas: Record<string, any> } };
    let body = described.paths["/api/v1/signup"].post.requestBody.content["application/json"].schema;
    if (body.$ref) body = described.components.schemas[body.$ref.split("/").pop()];
    expect(body.properties.email).toMatchObject({ type: "string", format: "email", maxLength: 254, pattern: EMAIL_PATTERN.source });
    expect(body.properties.mobile).toMatchObject({ type: "string", maxLength: 20 });
    expect(typeof body.properties.mobile.pattern).toBe("string");
    for (const e of ['"a b"@example.com', "a@[192.0.2.1]", "a@example.xn--p1ai", "a@localhost", "a..b@example.com", "@example.com"])
      expect([e, EMAIL_PATTERN.test(e)]).toEqual([e, false]);
  });

  it("every number MOBILE_PATTERN matches is one normaliseMobile reads; the usual notations match it, within maxLength 20", async () => {
    const { MOBILE_PATTERN } = await import("../src/platform/schemas");
    const { normaliseMobile } = await import("../src/services/account/contact");
    for (const m of [
      "07700900123",
      "07700 900123",
      "07700 900 123",
      "0770-090-0123",
      "+447700900123",
      "+44 7700 900123",
      "(+44) 7700 900123",
      "00447700900123",
      "0044 7700 900123",
      "+33612345678",
      "+33 6 12 34 56 78",
      "+1 (415) 555-0100",
      "+4915112345678",
    ])
      expect([m, MOBILE_PATTERN.test(m), normaliseMobile(m) !== null]).toEqual([m, true, true]);
    for (const m of ["01632960000", "+441632960000", "+44 (0) 7700 900123", "0033612345678", "+0123456789", "7700900123", "0770090012", "+1234567", "#!?"])
      expect([m, MOBILE_PATTERN.test(m)]).toEqual([m, false]);
    let short = 0;
    fc.assert(
      fc.property(fc.stringMatching(new RegExp(MOBILE_PATTERN.source, "u")), (s) => {
        expect(normaliseMobile(s), JSON.stringify(s)).not.toBeNull();
        if (s.length <= 20) short++;
      }),
      { numRuns: 2000 },
    );
    // A fuzzer generating from the pattern and keeping what fits maxLength keeps most of what it makes.
    expect(short).toBeGreaterThan(1000);
  });

  it("the readers' text pattern is the rule validation had: at least 40 characters besides JavaScript's white space (counted by character)", async () => {
    const { nonSpacePattern } = await import("../src/platform/schemas");
    const re = nonSpacePattern(40);
    const spaces = fc.constantFrom(" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff");
    const text = fc.array(fc.oneof(spaces, fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 })), { maxLength: 80 }).map((a) => a.join(""));
    fc.assert(
      fc.property(text, (t) => {
        expect(re.test(t), JSON.stringify(t)).toBe([...t.replace(/\s+/gu, "")].length >= 40);
      }),
      { numRuns: 3000 },
    );
    // Python's `\s` counts \x1c–\x1f and \x85 as white space, and not \ufeff: the pattern lists its spaces instead.
    expect(re.test("\ufeff".repeat(40))).toBe(false);
    expect(re.test("\x1c".repeat(40))).toBe(true);
  });
});
