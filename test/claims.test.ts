import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { operations } from "../src/operations";
import type { AnyOperation } from "../src/platform/registry";
import { type Json, REGISTERS, checkClaims, describeDisagreement } from "./support/claims";
import { callOperation, loadSampleRegisters, titleOf } from "./support/everyOperation";

/**
 * Say it once, check it always (issue 28 §4; SPEC §1 rules 2 and 6, §2.5, §2.6, §4.5, §4.8): every operation of the
 * registry is called over HTTP with its own `example`, on the sample registers and the fixture hosts (the contract
 * test's set-up, test/support/everyOperation.ts), and every sentence of its reply's prose that asserts a positive must
 * agree with the structured fields of the same reply (the table in test/support/claims.ts). A new operation is in
 * this test by being in `operations`.
 *
 * Then the register checks, and the operations that read a register for a company, are called with inputs that reach
 * the register only through a name that is not the company's own (a former name, an alternative name, a similar
 * name): the reply must say "possible match" (`possibleMatch: true`), never the positive (issue 28 §1).
 */

beforeAll(loadSampleRegisters);
afterEach(() => vi.restoreAllMocks());

const parse = (text: string): Json | undefined => {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
};

/** The positive fields a reply's root may hold: the register checks' own, and `meets…`. */
const rootPositives = (body: Json | undefined): string[] =>
  body && typeof body === "object" && !Array.isArray(body)
    ? Object.entries(body)
        .filter(([k, v]) => v === true && (Object.values(REGISTERS).some((r) => r.field === k) || /^meets[A-Z]/.test(k)))
        .map(([k]) => k)
    : [];

describe("SPEC §1 rule 2, §4.5, §4.8: every positive sentence of every operation's example reply agrees with its fields", () => {
  it.each(operations.map((op) => [titleOf(op), op] as const))("%s", async (_title, op: AnyOperation) => {
    const { input, status, text } = await callOperation(op, { ...op.example });
    const body = parse(text);
    if (body === undefined) return; // not JSON (none today): nothing to read; the contract test judges the status
    const { claims, disagreements } = checkClaims(body);
    expect(disagreements.map(describeDisagreement), `${op.operationId} ${JSON.stringify(input).slice(0, 200)} answered ${status}`).toEqual([]);
    // A reply whose root says a positive field is true says so in words the table recognises (else a reworded
    // sentence would slip past the table unchecked: add its wording to test/support/claims.ts).
    const positives = rootPositives(body);
    if (positives.length)
      expect(
        claims.filter((c) => !c.path.includes(".") && !c.path.includes("[")).map((c) => c.rule),
        `${op.operationId}: ${positives.join(", ")} true, and no sentence of its root prose recognised`,
      ).not.toEqual([]);
  });
});

/** A company on the Companies House fixture host for this test only: its former name is only on the CQC register. */
const FORMER_CQC_NAME = {
  company_name: "RIVERSIDE HEALTH PARTNERSHIP LIMITED",
  company_number: "15550123",
  company_status: "active",
  type: "ltd",
  date_of_creation: "2015-04-01",
  jurisdiction: "england-wales",
  previous_company_names: [{ name: "RIVERSIDE UNIVERSITY HOSPITALS NHS FOUNDATION TRUST", effective_from: "2015-04-01", ceased_on: "2024-03-31" }],
  registered_office_address: { address_line_1: "Riverside Road", locality: "London", postal_code: "SE1 7EH", country: "England" },
  sic_codes: ["86101"],
  accounts: { overdue: false, next_due: "2026-12-31" },
  confirmation_statement: { overdue: false, next_due: "2027-03-15" },
  links: { self: "/company/15550123" },
};

function companiesHouseHas(profile: { company_number: string }): void {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === "ch.test" && url.pathname === `/company/${profile.company_number}`) return Response.json(profile);
    if (url.hostname === "ch.test" && url.pathname.startsWith(`/company/${profile.company_number}/`))
      return Response.json({ errors: [{ error: "not-found" }] }, { status: 404 });
    return real(input, init);
  });
}

interface NotDefinite {
  operationId: string;
  input: Record<string, string>;
  /** Why the match is not definite, from the sample data. */
  why: string;
  /** The register check's positive field. */
  positive: string;
  setup?: () => void;
}

/** Register checks reached only through a name that is not the company's current one (the sample registers' rows). */
const NOT_DEFINITE: NotDefinite[] = [
  {
    operationId: "checkSponsorLicence",
    input: { company: "07654321" },
    why: "BAYSIDE HOSPITALITY LIMITED: the sponsors register names only its former name Bayside Hotel Group Ltd (used until 2025-01-09)",
    positive: "licensed",
  },
  {
    operationId: "checkAmlRegister",
    input: { company: "09876543" },
    why: "OAKHILL PROPERTY GROUP LIMITED: HMRC's register names only its former name OAKHILL HOMES LIMITED (used until 2026-08-14)",
    positive: "supervisedByHmrc",
  },
  {
    operationId: "checkCharity",
    input: { company: "Riverside Trust" },
    why: "the name asked is only similar (0.70) to an alternative name, RIVERSIDE CENTRE, of RIVERSIDE COMMUNITY TRUST",
    positive: "registered",
  },
  {
    operationId: "checkCqcProvider",
    input: { company: "15550123" },
    why: "RIVERSIDE HEALTH PARTNERSHIP LIMITED (a Companies House profile stood in for here): CQC names only its former name, the provider RIVERSIDE UNIVERSITY HOSPITALS NHS FOUNDATION TRUST",
    positive: "registered",
    setup: () => companiesHouseHas(FORMER_CQC_NAME),
  },
];

const opOf = (id: string) => {
  const op = operations.find((o) => o.operationId === id);
  if (!op) throw new Error(`${id} is not in the registry`);
  return op;
};

describe("issue 28 §1, SPEC §4.5, §4.8: a match that is not definite is a possible match, never the positive, in fields and in words", () => {
  it.each(NOT_DEFINITE.map((c) => [`${c.operationId} ${JSON.stringify(c.input)}: ${c.why}`, c] as const))("%s", async (_title, c) => {
    c.setup?.();
    const { status, text } = await callOperation(opOf(c.operationId), { ...c.input });
    expect(status, text.slice(0, 600)).toBe(200);
    const body = parse(text) as Record<string, Json>;
    const { disagreements } = checkClaims(body);
    const fields = `${c.positive}: ${JSON.stringify(body[c.positive])}, possibleMatch: ${JSON.stringify(body.possibleMatch)}, summary: ${JSON.stringify(body.summary)}`;
    expect(disagreements.map(describeDisagreement), fields).toEqual([]);
    expect(body[c.positive], fields).toBe(false);
    expect(body.possibleMatch, fields).toBe(true);
  });
});

/** Operations that read a register for a company, asked about the same companies: their words must agree with their fields. */
const READERS: [string, Record<string, string>][] = [
  ["getLicencesAndRegisters", { company: "07654321" }],
  ["getLicencesAndRegisters", { company: "09876543" }],
  ["getPublicRecord", { company: "07654321" }],
  ["checkDistressSignals", { company: "07654321,09876543" }],
  ["estimateCustomerPayment", { company: "07654321", invoice: "12000", terms: "30" }],
];

describe("issue 28 §1, SPEC §4.8: operations that read registers for a company say nothing their fields do not", () => {
  it.each(READERS.map(([id, input]) => [`${id} ${JSON.stringify(input)}`, id, input] as const))("%s", async (_title, id, input) => {
    const { status, text } = await callOperation(opOf(id), { ...input });
    expect(status, text.slice(0, 600)).toBe(200);
    expect(checkClaims(parse(text)).disagreements.map(describeDisagreement)).toEqual([]);
  });
});
