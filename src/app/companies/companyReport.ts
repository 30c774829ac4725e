import { z } from "@hono/zod-openapi";
import { citeCompaniesHouse } from "../registers/evidence";
import { type AnyOperation, type OpContext, defineOperation } from "../../platform/registry";
import type { CompanyProfile } from "../../services/companies/profile";
import { CompanyNumberQuery, companiesHouseProvenance, companyFields, profileOf, registerCompany } from "./company";

export interface CompanyReportSpec<F extends z.ZodRawShape> {
  operationId: string;
  path: string;
  title: string;
  summary: string;
  description: string;
  /** The reply's own fields; `query`, `company` and `provenance` are added to every report. */
  fields: F;
  /** The output schema's name in the OpenAPI description. */
  schemaName: string;
  price: number;
  /** The reply's own fields, from the company's profile (read first: an unknown company is 404 before anything else). */
  reply(profile: CompanyProfile, ctx: OpContext): Promise<z.infer<z.ZodObject<F>>>;
}

/**
 * The Companies House reports (charges, ownership, deadlines, …): one descriptor for all of them — GET with
 * `company`, a key, 404 with `query` for an unknown company, 503 when the register cannot be read — and the
 * SPEC §2.1 company object and provenance on every reply. Each report's file says only what is its own.
 */
export function companyReport<F extends z.ZodRawShape>(spec: CompanyReportSpec<F>): AnyOperation {
  // The reply is checked against this schema by the contract test; the generic shape is erased here.
  const output: z.ZodObject = z.object({ ...companyFields, ...spec.fields }).openapi(spec.schemaName);
  return defineOperation({
    operationId: spec.operationId,
    method: "get",
    path: spec.path,
    family: "companies",
    title: spec.title,
    summary: spec.summary,
    description: spec.description,
    input: z.object({ company: CompanyNumberQuery }),
    output,
    price: spec.price,
    auth: "key",
    errors: ["not_found", "upstream_unavailable"],
    readOnly: true,
    // Company facts are a check too (issue 33 §2): a charged reply carries a signed receipt naming Companies House.
    receipt: true,
    example: { company: "01234567" },
    async handler({ company }, ctx) {
      const profile = await profileOf(ctx.services, company);
      const own = await spec.reply(profile, ctx);
      citeCompaniesHouse(ctx, `company profile and ${spec.title.toLowerCase()}`);
      return { query: { company }, company: registerCompany(profile), ...own, provenance: companiesHouseProvenance(ctx.now) };
    },
  }) as unknown as AnyOperation;
}
