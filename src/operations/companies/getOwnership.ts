import { z } from "@hono/zod-openapi";
import { MAX_OWNERSHIP_DEPTH, traceOwnership } from "../../services/companies/ownership";
import { companyReport } from "../../app/companies/companyReport";

const Controller = z.object({
  name: z.string().nullable(),
  kind: z.enum(["corporate", "legal-person"]),
  naturesOfControl: z.array(z.string()).describe("Companies House codes, e.g. ownership-of-shares-75-to-100-percent."),
  registrationNumber: z.string().nullable().describe("As the register gives it (free text)."),
  registeredIn: z.string().nullable(),
  ukCompanyNumber: z.string().nullable(),
  next: z
    .enum(["followed", "foreign", "legal-person", "unidentified", "cycle", "depth-limit"])
    .describe("followed: read at the next level; otherwise why the chain stops at this controller."),
});

const Level = z.object({
  depth: z.number().int().describe("0 is the company asked about."),
  company: z.object({ name: z.string(), number: z.string(), status: z.string() }),
  corporateControllers: z.array(Controller),
  individuals: z
    .object({
      count: z.number().int(),
      byNatureOfControl: z.record(z.string(), z.number().int()),
      names: z
        .array(z.object({ name: z.string(), naturesOfControl: z.array(z.string()) }))
        .optional()
        .describe("Only for accounts with a verified email and mobile (SPEC §1 rule 7)."),
    })
    .describe("Individuals with significant control, counted by nature of control."),
  protectedPersons: z.number().int().describe("Super-secure persons with significant control: the register withholds their details."),
  statements: z.array(z.string()).describe("Active PSC statements, as Companies House codes them."),
  notes: z.array(z.string()),
});

const End = z.object({
  depth: z.number().int(),
  company: z.object({ name: z.string(), number: z.string() }).describe("The company at which the branch ends."),
  reason: z
    .enum([
      "individuals",
      "legal-person",
      "overseas-entity",
      "cycle",
      "protected-person",
      "no-psc-registered",
      "psc-not-identified",
      "unidentified",
      "not-on-register",
      "depth-limit",
    ])
    .describe(
      "individuals: individuals with significant control (counted). legal-person: a legal person such as a government body. overseas-entity: a corporate controller registered outside the UK, not followed. cycle: a controller already in the chain. protected-person: super-secure persons whose details the register withholds (counted). no-psc-registered: the company has no active person with significant control on the register (with its statement, if any). psc-not-identified: the company states a registrable person it has not identified or confirmed. unidentified: a corporate controller with no registration details. not-on-register: a UK company number the register does not have. depth-limit: not followed further.",
    ),
  controller: z
    .string()
    .nullable()
    .describe("The corporate controller or legal person the branch ends at; null for individuals, protected persons and statements."),
  registeredIn: z.string().nullable().describe("Where an overseas entity is registered, as the register gives it; null otherwise."),
  count: z.number().int().describe("Individuals or protected persons the end stands for; 1 for a controller; 0 when none is registered."),
  controllerReached: z.boolean().describe("True only for individuals and a legal person: an ultimate controller. False where the chain ends short of one."),
});

const fields = {
  levels: z.array(Level),
  ends: z.array(End).describe("Every place the chain ends and why, in the order met."),
  ultimateControllerReached: z.boolean().describe("True only when every end is an ultimate controller (individuals or a legal person)."),
  conclusion: z
    .string()
    .describe("Where the chain ends and why, from `ends`: the ultimate controllers only where they were reached, and each place it ends short of one."),
  maxDepth: z.number().int(),
};

export const getOwnership = companyReport({
  operationId: "getOwnership",
  path: "/api/v1/ownership",
  title: "Ownership",
  summary: "Who controls a company, followed up the chain while the controller is a UK company.",
  description: `Reads the company's persons with significant control (PSCs) and PSC statements at Companies House, and follows each corporate controller registered in the UK to its own PSCs, up to ${MAX_OWNERSHIP_DEPTH} levels (SPEC §4.8). A corporate PSC is followed when the register it is on is the UK's (its country, place or authority of registration), not by the look of its number: its registration number is free text and often unpadded, and is normalised to a company number. Each level gives the company, its corporate controllers with their natures of control, and its individuals counted by nature of control; their names only for accounts with a verified email and mobile (SPEC §1 rule 7). A controller registered abroad, a legal person, a protected (super-secure) PSC or a "no registrable person" statement ends that branch with a plain sentence; a company met twice is a cycle. \`ends\` lists every place the chain ends and why (issue 28 §3): only individuals with significant control and a legal person are ultimate controllers reached (\`controllerReached\`); an overseas entity, a cycle, a protected person, no PSC registered, a PSC the company has not identified, a controller without registration details or not on the register, and the depth limit are places the chain ends short of one. \`ultimateControllerReached\` is true only when every end is a controller reached. \`conclusion\` is written from \`ends\` alone: it never says the ultimate controller was reached at a company whose controllers go on beyond what was read, and names each place the chain stops and why. Each company read costs up to three Companies House requests, cached for hours.`,
  fields,
  schemaName: "Ownership",
  price: 2,
  async reply(start, ctx) {
    const ch = ctx.services.companiesHouse;
    const partsOf = (n: string) => Promise.all([ch.getPscs(n), ch.getPscStatements(n)]);
    const [pscs, statements] = await partsOf(start.number);
    return traceOwnership(
      start,
      async (n) => {
        const [profile, [p, s]] = await Promise.all([ch.getProfile(n), partsOf(n)]);
        return { profile, pscs: p, statements: s };
      },
      { canSeeNames: ctx.caller?.canSeeNames ?? false, first: { profile: start, pscs, statements } },
    );
  },
});
