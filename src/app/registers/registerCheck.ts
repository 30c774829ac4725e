import { z } from "@hono/zod-openapi";
import { type AnyOperation, defineOperation } from "../../platform/registry";
import type { Services } from "../../platform/services";
import type { RegisterSource } from "../../services/registers/types";
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
    input: z.object({ company: CompanyQuery }),
    output: spec.output,
    price: 1,
    auth: "key",
    errors: ["not_found", "upstream_unavailable"],
    readOnly: true,
    example: spec.example,
    ...(spec.exampleReply === undefined ? {} : { exampleReply: spec.exampleReply }),
    async handler({ company }, ctx) {
      const found = await lookup(ctx.services, spec.source, company, { ownNumber: spec.ownNumber });
      return spec.reply({ company, found, base: (entities) => checkReply(ctx.services, spec.source, found, entities), services: ctx.services });
    },
  }) as unknown as AnyOperation;
}
