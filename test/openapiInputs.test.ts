import fc from "fast-check";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { operations } from "../src/operations";
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
}

/** "Give this or that" rules, from the operations' descriptions: a generated input carries exactly one of each pair. */
const ONE_OF: Record<string, [string, string]> = {
  checkAiVisibility: ["domain", "url"],
  getBrandKit: ["domain", "url"],
  scoreModernSlaveryStatement: ["text", "url"],
  structureOfstedReport: ["text", "url"],
  structureCqcReport: ["text", "url"],
  structureCharityReport: ["text", "url"],
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
 * the entry must go. Issue 29 §4 leaves these to the helpers that own the inputs, or to a next step.
 */
const KNOWN_DISAGREEMENTS: Record<string, string> = {
  auditAccessibility: "url: URL rules (web/common/page.ts, another helper's)",
  checkWebsiteLegal: "url: URL rules (web/common/page.ts, another helper's)",
  checkAiVisibility: "domain/url: domain and URL rules (web, another helper's)",
  getBrandKit: "domain/url: domain and URL rules (web, another helper's)",
  companyLogo: "domain: domain rule (web, another helper's)",
  scoreModernSlaveryStatementByUrl: "url: the documents' url input (another helper's)",
  structureOfstedReportByUrl: "url: the documents' url input (another helper's)",
  structureCqcReportByUrl: "url: the documents' url input (another helper's)",
  structureCharityReportByUrl: "url: the documents' url input (another helper's)",
  checkCarbonReductionPlan: "url: the documents' url input (another helper's)",
  scoreModernSlaveryStatement: "text: at least 40 characters besides spaces; url (documents, another helper's)",
  structureOfstedReport: "text: at least 40 characters besides spaces; url (documents, another helper's)",
  structureCqcReport: "text: at least 40 characters besides spaces; url (documents, another helper's)",
  structureCharityReport: "text: at least 40 characters besides spaces; url (documents, another helper's)",
  setWatchWebhook: "url: an https URL of a public host (not yet a pattern)",
  startSignup: "email and mobile: the address and number rules (not yet a pattern or format)",
};

/** Valid runs per operation (inputs are random; a few each keep the file under a minute). */
const RUNS = 4;

let doc: Awaited<ReturnType<typeof emittedDoc>>;
beforeAll(async () => {
  await loadSampleRegisters();
  doc = await emittedDoc();
}, 120_000);
afterEach(() => vi.restoreAllMocks());

const resolve = (s: Schema): Schema => (typeof s?.$ref === "string" ? resolve(s.$ref.split("/").slice(1).reduce((o: Schema, k: string) => o?.[k], doc as Schema)) : s);

/** An operation's inputs as the description gives them: query parameters, or the JSON body's properties. */
function paramsOf(op: AnyOperation): Param[] {
  const d = (doc.paths as Record<string, Record<string, Schema>>)[op.path][op.method];
  if (op.method === "get" || op.method === "delete") return (d.parameters ?? []).map((p: Schema) => ({ name: p.name, required: !!p.required, schema: resolve(p.schema) }));
  const body = resolve(d.requestBody.content["application/json"].schema);
  return Object.entries((body.properties ?? {}) as Record<string, Schema>).map(([name, s]) => ({ name, required: (body.required ?? []).includes(name), schema: resolve(s) }));
}

const typesOf = (s: Schema): string[] => [s.type].flat().filter((t): t is string => typeof t === "string");

/** A value valid by the schema (text for a query, JSON for a body). */
function valueOf(s: Schema, inQuery: boolean): fc.Arbitrary<unknown> {
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
  if (types.includes("array")) return fc.array(valueOf(resolve(s.items ?? {}), inQuery), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
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
  for (const p of params.filter((q) => !GIVEN_OUT.has(q.name))) fields[p.name] = p.required ? valueOf(p.schema, inQuery) : fc.option(valueOf(p.schema, inQuery), { nil: undefined });
  return fc.record(fields).chain((input) =>
    fc.constantFrom(0, 1).map((which) => {
      const out = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (pair) {
        const keep = pair[which];
        delete out[pair[1 - which]];
        if (out[keep] === undefined) out[keep] = fc.sample(valueOf(params.find((p) => p.name === keep)!.schema, inQuery), 1)[0];
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
    if (p.required) {
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
      if (s.maxItems !== undefined) put(`over maxItems ${s.maxItems}`, Array.from({ length: s.maxItems + 1 }, () => "x"));
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
  it.each(agreeing.map((op) => [op.operationId, op] as const))("%s: valid inputs are never refused as invalid and never a 5xx; invalid ones are 400 naming the field, uncharged", (_id, op) => generatedInputs(op), 120_000);
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
      if (r.status !== 400 || body?.code !== "bad_request" || !fieldOk || r.headers.has("x-credits-remaining"))
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
    for (const n of ["1", "01234567", "12345678", " 1234567 ", "SC123456", "sc 12345", "oc300123", "R0000123", "AB123456", "ab 123456"]) expect(COMPANY_NUMBER_PATTERN.test(n), n).toBe(true);
    for (const n of ["0", "00000000", "123456789", "SC000000", "AB12345", "A1123456", "SC1234567", "", "S C123456", "valueOf"]) expect(COMPANY_NUMBER_PATTERN.test(n), n).toBe(false);
    const shaped = fc.oneof(
      fc.stringMatching(/^\s?[0-9]{1,9}\s?$/),
      fc.tuple(fc.constantFrom("SC", "sc", "NI", "OC", "R0", "AB", "zz", "A1", "1A"), fc.constantFrom("", " "), fc.stringMatching(/^[0-9]{1,7}$/)).map(([p, s, d]) => `${p}${s}${d}`),
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
