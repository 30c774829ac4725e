import { z } from "@hono/zod-openapi";
import { defineOperation } from "../../platform/registry";
import { industryLabel, sicHierarchy, tidyDescription } from "../../services/enrich/sic";
import { type SicClassification, checkRegisteredCodes, classifyText } from "../../services/enrich/sicClassifier";
import type { SiteFacts } from "../../services/enrich/types";
import { enrich } from "../../app/enrichment/enrich";
import { Q } from "../../app/enrichment/schemas";
import { MATCHING_RULES } from "../../app/enrichment/rules";

/**
 * industry-classifier (SPEC §4.2, issue 18 §2): an industry label in plain English, official SIC 2007 codes, what
 * the business does and a confidence. The business is identified as enrich identifies it; a confirmed company's
 * registered SIC codes are the answer, checked against its website's text; without one, the website's text is
 * classified against the SIC 2007 lists loaded (services/enrich/sicClassifier.ts: deterministic, with the phrases
 * that matched as evidence).
 */

/** SPEC §4.8 prices: industry-classifier 2 credits; nothing identified costs nothing. */
export const CLASSIFY_PRICE = 2;

const Code = z
  .object({
    code: z.string().describe("SIC 2007 five-digit code."),
    description: z.string().nullable().describe("Its official description (the condensed list Companies House uses)."),
    label: z.string().nullable().describe("In plain English."),
    section: z.object({ letter: z.string(), name: z.string() }).nullable(),
    source: z.enum(["register", "website"]).describe("`register`: a code the company registered at Companies House; `website`: read from its website's text."),
  })
  .openapi("IndustryCode");

const Candidate = z.object({
  code: z.string(),
  label: z.string(),
  description: z.string(),
  score: z.number(),
  matched: z.array(z.string()).describe("The SIC index phrases the website's text matched: the evidence."),
});

const Output = z
  .object({
    query: z.object({ q: z.string() }),
    ms: z.number().int(),
    found: z.boolean().describe("A business was identified (its website read, or its register entry confirmed). False costs nothing."),
    business: z.object({
      name: z.string().optional(),
      website: z.string().optional(),
      companyNumber: z.string().optional().describe("Absent when the business's website does not confirm a registered company (SPEC §2.2)."),
    }),
    industry: z
      .object({
        label: z.string().describe("The industry in plain English."),
        section: z.object({ letter: z.string(), name: z.string() }).describe("The SIC 2007 section."),
        codes: z
          .array(Code)
          .describe("Official SIC 2007 codes: the registered ones when the company is confirmed, else the website's best reading (at most three)."),
      })
      .nullable()
      .describe("Null when neither a registered code nor the website's text gives one (see `note`)."),
    description: z.string().nullable().describe("What the business does: its website's own description, else its registered activities."),
    confidence: z
      .enum(["high", "medium", "low"])
      .describe(
        "Registered codes: high when the website's text agrees with one at division level or finer, medium when there is no website text to check them against or it agrees at section level only, low when it disagrees. Website only: the classifier's own confidence (by its margin and coverage).",
      ),
    basis: z
      .enum(["register", "register-checked", "website", "none"])
      .describe(
        "register: the registered codes, no website text to check them; register-checked: the registered codes, checked against the website; website: the website's text alone; none: nothing to go on.",
      ),
    websiteReading: z
      .object({
        candidates: z.array(Candidate).describe("The website's text read against the SIC 2007 index, best first."),
        confidence: z.enum(["high", "medium", "low"]),
        reason: z.string().nullable().describe("Why there are no candidates, or why confidence is not high."),
        agreement: z
          .array(z.object({ code: z.string(), agreement: z.enum(["code", "class", "group", "division", "section", "none"]), words: z.string() }))
          .describe("For each registered code: the deepest level at which the website's reading agrees with it."),
      })
      .nullable()
      .describe("The deterministic text classifier's reading of the website; null when no website was read."),
    lists: z.string().describe("Which SIC 2007 lists the classifier used (the published lists, our sample, or none loaded)."),
    note: z.string(),
    attribution: z.string(),
  })
  .openapi("IndustryClassification");

/** The website's text as the classifier reads it: title, description, headings, offerings, then the visible text. */
const siteText = (s: SiteFacts) => [s.title, s.description ?? "", ...s.headings, ...s.offerings, s.text].filter(Boolean).join("\n");

export const classifyIndustry = defineOperation({
  operationId: "classifyIndustry",
  method: "get",
  path: "/api/v1/industry-classifier",
  family: "enrichment",
  title: "Classify industry",
  summary: "An industry label in plain English, official SIC 2007 codes, what the business does and a confidence rating, for a company name, domain or number.",
  description: [
    "Identifies the business as enrich does, then answers its industry (SPEC §4.2):",
    "- **A confirmed company:** its registered SIC codes (Companies House), labelled in plain English, checked against its website's text: `websiteReading.agreement` says, for each registered code, whether the website reads as the same code, class, group, division or section.",
    "- **No confirmed company:** the website's text classified against the SIC 2007 hierarchy by a deterministic text classifier over the official condensed list and the ONS alphabetical index of activities (about 16,000 phrases): each candidate quotes the index phrases its text matched. Same text, same answer; no language model.",
    "- **Neither:** `found` false, nothing charged.",
    "",
    `**Price.** ${CLASSIFY_PRICE} credits (SPEC §4.8); nothing identified costs nothing. The SIC lists are loaded with \`npm run ingest -- sic\`; where none are loaded the website cannot be read against them and \`lists\` says so.`,
    "",
    MATCHING_RULES,
  ].join("\n"),
  input: z.object({ q: Q.openapi({ example: "harbourside-legal.co.uk" }) }),
  output: Output,
  price: CLASSIFY_PRICE,
  auth: "key",
  errors: ["upstream_unavailable"],
  readOnly: true,
  timeoutMs: 45_000,
  example: { q: "harbourside-legal.co.uk" },
  async handler({ q }, ctx) {
    const started = Date.now();
    const [e, loaded] = await Promise.all([enrich(ctx, q, undefined), ctx.services.companiesRegister.sicModel()]);
    const p = e.profile;
    if (!p.found) ctx.refund(CLASSIFY_PRICE);
    const model = loaded?.model ?? null;
    const reading: SicClassification | null = e.site ? classifyText(siteText(e.site), model, { limit: 5 }) : null;
    const registered = e.register ? e.register.sicCodes.filter((c) => sicHierarchy(c)) : [];
    const descriptions = new Map<string, string>([...Object.entries(e.register?.sicDescriptions ?? {}), ...(model ? [...model.descriptions] : [])]);
    const realCodes = registered.filter((c) => !sicHierarchy(c)!.noActivity);
    const agreement = reading && registered.length ? checkRegisteredCodes(registered, reading.candidates, 5) : [];
    const codeOf = (code: string, source: "register" | "website") => {
      const h = sicHierarchy(code);
      const d = descriptions.get(code) ?? null;
      return {
        code,
        description: d ? tidyDescription(d) : null,
        label: industryLabel([code], descriptions)?.label ?? null,
        section: h ? h.section : null,
        source,
      };
    };

    let industry: z.infer<typeof Output>["industry"] = null;
    let confidence: "high" | "medium" | "low" = "low";
    let basis: z.infer<typeof Output>["basis"] = "none";
    let note: string;
    if (realCodes.length) {
      const label = industryLabel(registered, descriptions)!;
      industry = { label: label.label, section: label.section, codes: registered.map((c) => codeOf(c, "register")) };
      const best = agreement.filter((a) => realCodes.includes(a.code)).map((a) => a.agreement);
      const checked = reading !== null && reading.candidates.length > 0;
      basis = checked ? "register-checked" : "register";
      confidence = !checked
        ? "medium"
        : best.some((l) => ["code", "class", "group", "division"].includes(l))
          ? "high"
          : best.includes("section")
            ? "medium"
            : "low";
      note = checked
        ? confidence === "low"
          ? "The registered SIC codes are given, but the website's text reads as another industry: the codes may be out of date, or the business may trade in more than it registered."
          : "The registered SIC codes, checked against the website's text."
        : `The registered SIC codes; the website's text could not check them (${reading?.reason ?? "no website was read"}).`;
    } else if (reading?.candidates.length) {
      const top = reading.candidates.slice(0, 3);
      const label = industryLabel([top[0].code], descriptions);
      industry = { label: label?.label ?? top[0].label, section: sicHierarchy(top[0].code)!.section, codes: top.map((c) => codeOf(c.code, "website")) };
      confidence = reading.confidence;
      basis = "website";
      note = registered.length
        ? "The company's registered codes say it has no activity (dormant or non-trading); the industry is the website's reading."
        : "No registered company is confirmed, so the industry is the website's text read against the SIC 2007 index (deterministic; the phrases matched are the evidence).";
    } else {
      note = !p.found
        ? "Nothing identified: no website could be read and no registered company was confirmed."
        : registered.length
          ? "The company's registered codes say it has no activity, and its website's text gives no industry."
          : `No registered company is confirmed and the website's text gives no industry (${reading?.reason ?? "no website was read"}).`;
    }
    const lists = !loaded
      ? "No SIC 2007 lists are loaded here, so a website's text is not classified (npm run ingest -- sic)."
      : loaded.state.sample
        ? `Our sample of the SIC 2007 lists (${loaded.state.listRows} codes, ${loaded.state.indexRows} index phrases), not the published lists: load them with npm run ingest -- sic.`
        : `The published SIC 2007 lists: the condensed list (${loaded.state.listRows} codes) and the ONS alphabetical index (${loaded.state.indexRows} phrases), loaded ${loaded.state.loadedAt.slice(0, 10)}.`;
    return {
      query: { q },
      ms: Date.now() - started,
      found: p.found,
      business: {
        ...(p.name ? { name: p.name } : {}),
        ...(p.website ? { website: p.website } : {}),
        ...(p.companyNumber ? { companyNumber: p.companyNumber } : {}),
      },
      industry,
      description: p.whatTheyDo ?? null,
      confidence,
      basis,
      websiteReading: reading
        ? {
            candidates: reading.candidates.map((c) => ({
              code: c.code,
              label: c.label,
              description: c.description,
              score: Math.round(c.score * 1000) / 1000,
              matched: c.matched.map((m) => m.phrase),
            })),
            confidence: reading.confidence,
            reason: reading.reason,
            agreement: agreement.map((a) => ({ code: a.code, agreement: a.agreement, words: a.words })),
          }
        : null,
      lists,
      note,
      attribution: `${p.attribution} SIC 2007: Office for National Statistics and Companies House (Open Government Licence v3.0).`,
    };
  },
});
