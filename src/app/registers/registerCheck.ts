import { z } from "@hono/zod-openapi";
import { type AnyOperation, defineOperation } from "../../platform/registry";
import type { Services } from "../../platform/services";
import type { RegisterSource } from "../../services/registers/types";
import { NotFoundError } from "../../shared/errors";
import { citeCompaniesHouse, citeEditions } from "./evidence";
import { AsOfParam, asOfReply, registerAt, summaryAsOf } from "./asOf";
import { type LookupOptions, type LookupResult, checkReply, lookup } from "./lookup";
import { CompanyQuery, MATCH_RULE_DOC } from "./schemas";

/** The part of the reply every check shares (query, company, companyLookup, matchedBy, history, dates, provenance). */
export type CheckBase = Awaited<ReturnType<typeof checkReply>>;

export interface RegisterCheckSpec<O extends z.ZodObject, S extends RegisterSource = RegisterSource> {
  source: S;
  operationId: string;
  path: string;
  title: string;
  summary: string;
  description: string;
  output: O;
  example: { company: string };
  /**
   * The reply's positive field (`licensed`, `supervisedByHmrc`, `authorised`, `registered`): true only for a definite
   * match (the match rule, MATCH_RULE_DOC). Named so the rule's property test covers every check.
   */
  positive: keyof z.infer<O> & string;
  /** The reply to `example`, for the docs: computed when the docs first ask for it. */
  exampleReply?: () => unknown;
  /** The register's own number (e.g. SRA number, MLR number, CQC id): where it is stored and how a query looks when it is one. */
  ownNumber?: LookupOptions<S>["ownNumber"];
  /**
   * The reply, from what the lookup found. `base()` gives the shared part, with the history of the entries found;
   * pass other entities for theirs (CQC adds a provider's locations).
   */
  reply(a: { company: string; found: LookupResult<S>; base: (entities?: string[]) => Promise<CheckBase>; services: Services }): Promise<z.infer<O>>;
}

/**
 * The register checks (SPEC §2.1, §2.5, §2.6, §4.5): one descriptor, one price and one lookup for all of them;
 * each check's file says only what is its own (its reply and how its register numbers look).
 */
/** Every register check built here, by operationId: the match rule's property test walks them. */
export const registerCheckSpecs = new Map<string, RegisterCheckSpec<z.ZodObject>>();

export function registerCheck<O extends z.ZodObject, S extends RegisterSource>(spec: RegisterCheckSpec<O, S>): AnyOperation {
  registerCheckSpecs.set(spec.operationId, spec as unknown as RegisterCheckSpec<z.ZodObject>);
  return defineOperation({
    operationId: spec.operationId,
    method: "get",
    path: spec.path,
    family: "registers",
    title: spec.title,
    summary: spec.summary,
    description: `${spec.description}\n\n${MATCH_RULE_DOC}`,
    input: z.object({ company: CompanyQuery, asOf: AsOfParam.optional() }),
    output: spec.output,
    price: 1,
    auth: "key",
    errors: ["not_found", "upstream_unavailable", "date_out_of_range"],
    readOnly: true,
    receipt: true,
    example: spec.example,
    ...(spec.exampleReply === undefined ? {} : { exampleReply: spec.exampleReply }),
    async handler({ company, asOf }, ctx) {
      // As of a date (issue 33 §1): every read of the register is of its edition on that date; the rest is today's.
      const at = asOf ? await registerAt(ctx, spec.source, asOf) : null;
      const services = at ? { ...ctx.services, registers: at } : ctx.services;
      let found: LookupResult<S>;
      try {
        found = await lookup(services, spec.source, company, { ownNumber: spec.ownNumber });
      } catch (e) {
        // Not found on the date asked: the message says which edition was searched.
        if (!(at && asOf && e instanceof NotFoundError)) throw e;
        const editions = [...new Set((await at.editionsSeen(spec.source)).map((x) => x.editionDate ?? "unknown date"))].join(" and ");
        throw new NotFoundError(`As the register stood on ${asOf} (edition of ${editions}): ${e.message}`, e.query);
      }
      const reply = await spec.reply({ company, found, base: (entities) => checkReply(services, spec.source, found, entities), services });
      // The receipt's evidence: the editions read (of the parts the entries come from) and Companies House when read.
      await citeEditions(ctx, services.registers, spec.source, [...new Set(found.found.map((f) => f.entry.scope))]);
      if (found.company) citeCompaniesHouse(ctx);
      if (!at || !asOf) return reply;
      const block = await asOfReply(ctx, spec.source, asOf, at, found);
      const r = reply as { summary?: string };
      return { ...reply, asOf: block, ...(typeof r.summary === "string" ? { summary: summaryAsOf(r.summary, block) } : {}) };
    },
  }) as unknown as AnyOperation;
}
