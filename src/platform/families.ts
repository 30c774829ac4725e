/**
 * The families of operations, in the order people meet them: each with a short title (the landing page's tables) and
 * a sentence (the OpenAPI tag's description). Every operation's `family` is one of these
 * (test/platform/families.test.ts), so a new family is named here once and shows everywhere.
 */
export interface Family {
  title: string;
  description: string;
}

export const FAMILIES: Record<string, Family> = {
  registers: {
    title: "Registers and their daily changes",
    description: "Register checks and their change feeds: HMRC AML, SRA, licensed sponsors, CQC, charities.",
  },
  companies: {
    title: "Companies House",
    description: "The companies register (Companies House): search, ownership, accounts, charges, deadlines and their calendar feed.",
  },
  risk: {
    title: "Risk and compliance",
    description: "Risk and compliance: identity verification, distress signals, the public record, licences and registers, definite sanctions matches.",
  },
  money: {
    title: "Payments and public money",
    description: "Payments and public money: late-payment interest, payment practices, PPN 018, how a customer pays, the gender pay gap, contracts won.",
  },
  enrichment: {
    title: "Enrichment and sales research",
    description:
      "Enrichment: who a business is from its name or domain (its own website decides the company), the Business Score, batch enrichment, fit assessment, industry classification and tender match.",
  },
  documents: {
    title: "Documents read into facts",
    description:
      "Document readers: modern slavery statements, Ofsted and CQC reports, charity reports (GET by URL, POST with text), and the carbon reduction plan check.",
  },
  web: {
    title: "Web tools",
    description: "Web tools: the accessibility audit, website legal basics, brand kit, AI visibility and the keyless company logo.",
  },
  watch: {
    title: "Watch list, events and webhooks",
    description: "The watch list: companies read every day, an event feed of what changed, and signed webhooks.",
  },
  account: { title: "Your account", description: "Sign-up and the caller's account." },
};

/** The families in FAMILIES' order, each with its operations (a family without any is left out). */
export function byFamily<T extends { family: string }>(ops: readonly T[]): { id: string; family: Family; ops: T[] }[] {
  return Object.entries(FAMILIES)
    .map(([id, family]) => ({ id, family, ops: ops.filter((o) => o.family === id) }))
    .filter((f) => f.ops.length > 0);
}
