import { z } from "@hono/zod-openapi";
import { shapeCharges } from "../../services/companies/charges";
import { companyReport } from "../../app/companies/companyReport";

const Charge = z.object({
  chargeCode: z.string().nullable(),
  chargeNumber: z.number().int().nullable(),
  status: z.enum(["outstanding", "part-satisfied", "satisfied"]),
  registerStatus: z.string().describe("Companies House's own status word (e.g. fully-satisfied)."),
  classification: z.string().nullable(),
  createdOn: z.string().nullable(),
  deliveredOn: z.string().nullable(),
  satisfiedOn: z.string().nullable(),
  fixedCharge: z.boolean().nullable(),
  floatingCharge: z.boolean().nullable(),
  floatingChargeCoversAll: z.boolean().nullable(),
  negativePledge: z.boolean().nullable(),
  lenders: z.array(z.string()).describe("Persons entitled that are organisations, by name."),
  individualsEntitled: z.number().int().describe("Persons entitled who are (or may be) individuals: counted, never named (SPEC §1 rule 7)."),
});

const fields = {
  summary: z.object({
    total: z.number().int(),
    outstanding: z.number().int(),
    partSatisfied: z.number().int(),
    satisfied: z.number().int(),
    withIndividualLenders: z.number().int(),
  }),
  charges: z.array(Charge).describe("Newest first."),
};

export const listCharges = companyReport({
  operationId: "listCharges",
  path: "/api/v1/charges",
  title: "Registered charges",
  summary: "A company's registered charges (mortgages and debentures): who holds them and whether they are satisfied.",
  description:
    "The charges registered against the company at Companies House (SPEC §4.8): status (outstanding, part-satisfied, satisfied), created, delivered and satisfied dates, classification, and whether each is a fixed or floating charge (covering all the company's property or not) with a negative pledge. Lenders are named when they are organisations. A person entitled is taken for an organisation only when the name plainly is one (a legal form such as Ltd or PLC, or a word such as bank, finance or trustees); anyone else is counted in `individualsEntitled` and never named, for every caller. A company with no charges answers an empty list. Companies House answers are cached for up to 12 hours.",
  fields,
  schemaName: "Charges",
  price: 1,
  reply: async (profile, ctx) => shapeCharges(await ctx.services.companiesHouse.getCharges(profile.number)),
});
