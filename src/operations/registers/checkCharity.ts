import { z } from "@hono/zod-openapi";
import { possibleMatchSentence } from "../../services/matching/certainty";
import { companyNotes, queriedAs } from "../../app/registers/lookup";
import { registerCheck } from "../../app/registers/registerCheck";
import { CheckReplyFields, Match, matchOut } from "../../app/registers/schemas";

const Money = z.object({ periodStart: z.string().nullable(), periodEnd: z.string().nullable(), income: z.number().nullable(), spend: z.number().nullable() });

const Charity = z.object({
  charityNumber: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  registrationStatus: z.string().describe("Registered or Removed."),
  registeredOn: z.string().nullable(),
  removedOn: z.string().nullable(),
  removalReason: z.string().nullable(),
  flags: z.object({ insolvent: z.boolean().nullable(), inAdministration: z.boolean().nullable(), interimManager: z.boolean().nullable() }),
  reportingStatus: z.string().nullable(),
  latestAccounts: Money.nullable(),
  financialHistory: z.array(Money).nullable().describe("Up to six years, newest first."),
  classification: z.object({ what: z.array(z.string()), how: z.array(z.string()), who: z.array(z.string()) }).nullable(),
  areasOfOperation: z.array(z.string()).nullable(),
  trusteeCount: z.number().int().nullable().describe("Trustees are counted, never named."),
  objects: z.string().nullable(),
  otherRegulators: z.array(z.string()).nullable(),
  companyNumber: z.string().nullable(),
  isCio: z.boolean().nullable(),
  linkedCharities: z.number().int(),
  website: z.string().nullable(),
  match: Match,
});

const Output = z
  .object({
    ...CheckReplyFields,
    matchedOn: z.array(z.string()),
    registered: z.boolean().describe("A charity found by a definite match (see the match rule) is registered now; false for a possible match."),
    summary: z.string(),
    charities: z.array(Charity),
  })
  .openapi("CharityCheck");

export const checkCharity = registerCheck({
  source: "charity",
  operationId: "checkCharity",
  path: "/api/v1/charity-check",
  title: "Charity register check",
  summary: "A charity's registration with the Charity Commission for England and Wales, its finances and governance signals.",
  description:
    "`company` is a charity number, a company number (a charitable company's) or a name. The reply gives the register status with dates and the removal reason, the charity type, flags (insolvent, in administration, interim manager appointed), reporting status, latest accounts, up to six years of income and spend, classification (what, how, who), areas of operation, the number of trustees (never their names), charitable objects and other regulators. Nothing found answers 404 with `query`.",
  output: Output,
  positive: "registered",
  example: { company: "1100001" },
  ownNumber: { field: "charityNumber", label: "charity number", pattern: /^\d{6,7}$/, first: true },
  async reply({ company, found, base: shared, services }) {
    const base = await shared();
    const charities = found.found.map((f) => {
      const { entry } = f;
      const d = entry.data;
      return {
        charityNumber: d.charityNumber,
        name: entry.name,
        type: d.type,
        registrationStatus: entry.removedOn ? "Removed" : entry.status,
        registeredOn: d.registeredOn,
        removedOn: d.removedOn ?? entry.removedOn,
        removalReason: d.removalReason,
        flags: { insolvent: d.flags.insolvent, inAdministration: d.flags.inAdministration, interimManager: d.flags.interimManager },
        reportingStatus: d.reportingStatus,
        latestAccounts: d.latestAccounts,
        financialHistory: d.financialHistory,
        classification: d.classification,
        areasOfOperation: d.areasOfOperation,
        trusteeCount: d.trusteeCount,
        objects: d.objects,
        otherRegulators: d.otherRegulators,
        companyNumber: entry.companyNumber,
        isCio: d.isCio,
        linkedCharities: d.linkedCharities,
        website: d.website,
        match: matchOut(f),
      };
    });
    const top = charities[0];
    // The positive answer comes from definite matches only (issue 28 §1).
    const registered = charities.some((c) => c.registrationStatus === "Registered" && c.match.definite);
    const warnings = [
      top.flags.insolvent && "insolvent",
      top.flags.inAdministration && "in administration",
      top.flags.interimManager && "an interim manager has been appointed",
    ].filter(Boolean);
    const summary = found.possibleMatch
      ? possibleMatchSentence(
          `${top.name} (charity ${top.charityNumber}, ${top.registrationStatus === "Registered" ? "listed as registered" : "removed"})`,
          queriedAs(found, company),
          found.certainty,
        )
      : top.registrationStatus === "Registered"
        ? `${top.name} (charity ${top.charityNumber}) is registered with the Charity Commission${top.latestAccounts?.income != null ? `; latest income £${top.latestAccounts.income.toLocaleString("en-GB")}` : ""}${warnings.length ? `; flagged: ${warnings.join(", ")}` : ""}.${top.reportingStatus && /overdue/i.test(top.reportingStatus) ? ` Its annual return or accounts are overdue at the Charity Commission (${top.reportingStatus}).` : ""}`
        : `${top.name} (charity ${top.charityNumber}) was removed from the register${top.removedOn ? ` on ${top.removedOn}` : ""}${top.removalReason ? ` (${top.removalReason})` : ""}.`;
    return {
      ...base,
      matchedOn: found.matchedOn,
      registered,
      summary: summary + companyNotes(found),
      charities,
    };
  },
});
