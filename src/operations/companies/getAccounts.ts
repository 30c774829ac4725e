import { z } from "@hono/zod-openapi";
import type { AnyOperation, OpContext } from "../../platform/registry";
import type { Filing } from "../../services/companies/records";
import { InputError } from "../../shared/errors";
import type { FigureName, NetAssetsSource, PeriodFigures } from "../../sources/companies-house/ixbrl";
import { companyReport } from "../../app/companies/companyReport";
import { latestAccountsOf, registerTypeOf } from "../../app/companies/latestAccounts";

const PRICE = 2;

const Evidence = z
  .object({
    concept: z.string().describe("The tag as the document writes it (prefix:localName), e.g. core:Creditors."),
    contextRef: z.string().describe("The document's context the figure is reported in."),
    text: z.string().describe("The text the document displays for it, e.g. 6,719 or - (zero)."),
    sign: z.enum(["-"]).nullable().describe('"-" when the document tags the figure as negative; brackets on the page are presentation only.'),
    scale: z.number().int().describe("Power of ten the displayed text is multiplied by (3: thousands)."),
    unit: z.string().nullable().describe("e.g. iso4217:GBP, xbrli:pure."),
    dimensions: z.record(z.string(), z.string()).describe("The context's dimensions, e.g. MaturitiesOrExpirationPeriodsDimension: WithinOneYear."),
  })
  .openapi("AccountsFigureEvidence");

/** Every figure the reader gives (the Record type makes this list exactly the reader's `FigureName`s). */
const figureDescriptions: Record<FigureName, string> = {
  fixedAssets: "Fixed assets (or, when only they are tagged, property, plant and equipment / tangible fixed assets).",
  currentAssets: "Current assets.",
  cash: "Cash at bank and in hand.",
  debtors: "Debtors (total).",
  creditorsWithinOneYear: "Creditors: amounts falling due within one year.",
  creditorsAfterOneYear: "Creditors: amounts falling due after more than one year.",
  netCurrentAssets: "Net current assets (liabilities).",
  totalAssetsLessCurrentLiabilities: "Total assets less current liabilities.",
  provisions: "Provisions for liabilities.",
  accrualsDeferredIncome: "Accruals and deferred income shown after provisions (not within creditors).",
  netAssets:
    "Net assets (liabilities): the net assets line as tagged, else total equity, else total assets less current liabilities less the lines below it; `netAssetsFrom` says which.",
  shareCapital: "Called up share capital.",
  reserves: "Profit and loss reserve (retained earnings).",
  equity: "Total equity (shareholders' funds).",
  turnover: "Turnover (revenue).",
  grossProfit: "Gross profit (loss).",
  operatingProfit: "Operating profit (loss).",
  profitBeforeTax: "Profit (loss) before tax.",
  profitAfterTax: "Profit (loss) for the period, after tax.",
  averageEmployees: "Average number of employees during the period.",
};
const FIGURE_NAMES = Object.keys(figureDescriptions) as FigureName[];

const Figures = z
  .object(
    Object.fromEntries(
      FIGURE_NAMES.map((n) => [n, z.number().nullable().describe(`${figureDescriptions[n]} Null when the accounts do not tag it.`)]),
    ) as Record<FigureName, z.ZodNullable<z.ZodNumber>>,
  )
  .openapi("AccountsFigures");

const EvidenceByFigure = z
  .object(Object.fromEntries(FIGURE_NAMES.map((n) => [n, Evidence.optional()])) as Record<FigureName, z.ZodOptional<typeof Evidence>>)
  .openapi("AccountsEvidence");

const FigureNameEnum = z.enum(FIGURE_NAMES as [FigureName, ...FigureName[]]);

const NetAssetsFrom = z
  .object({
    rule: z
      .number()
      .int()
      .min(1)
      .max(3)
      .describe("1: the net assets line as tagged; 2: total equity; 3: total assets less current liabilities less the lines below it."),
    concept: z
      .string()
      .describe(
        "The concept net assets came from, by local name (the prefix is each document's own): NetAssetsLiabilities or NetAssetsLiabilitiesIncludingPensionAssetLiability (rule 1), Equity or ShareholderFunds (rule 2), TotalAssetsLessCurrentLiabilities (rule 3).",
      ),
    deducted: z
      .array(FigureNameEnum)
      .describe(
        "Rule 3: the figures taken away from total assets less current liabilities (creditorsAfterOneYear, provisions, accrualsDeferredIncome), those tagged for the period.",
      ),
    notTagged: z
      .array(FigureNameEnum)
      .describe("Rule 3: the lines below total assets less current liabilities that the accounts do not tag for the period, counted as nil."),
  })
  .openapi("AccountsNetAssetsFrom");

const Period = z
  .object({
    startDate: z.string().nullable(),
    endDate: z.string().nullable().describe("The balance sheet date of the period (instants) and the end of its profit and loss account."),
    figures: Figures,
    evidence: EvidenceByFigure.describe(
      "For each figure read: where in the document it came from (for net assets under rule 3: see the figures it was worked out from).",
    ),
    netAssetsFrom: NetAssetsFrom.nullable().describe(
      "Where figures.netAssets came from (see the order in the description); null when the accounts give none of the concepts it can come from.",
    ),
  })
  .openapi("AccountsPeriod");

const fields = {
  readable: z
    .boolean()
    .describe("True when the latest accounts were read from their iXBRL; false when they exist only as a PDF (or not at all). A false answer is not charged."),
  message: z.string().describe("One sentence: what was read, or why nothing could be."),
  filing: z
    .object({
      transactionId: z.string().nullable(),
      filedOn: z.string().nullable().describe("The date Companies House received the filing."),
      madeUpTo: z.string().nullable().describe("The date the accounts are made up to, as the register records the filing."),
      description: z.string().nullable().describe("Companies House's description key, e.g. accounts-with-accounts-type-micro-entity."),
      formats: z.array(z.string()).describe("Content types the Document API holds the filing in, e.g. application/pdf, application/xhtml+xml."),
    })
    .nullable()
    .describe("The newest accounts filing on the register; null when the company has filed none."),
  accountsType: z.object({
    register: z.string().nullable().describe("The accounts type the register gives the filing, e.g. micro-entity, small, total-exemption-full, dormant."),
    document: z.string().nullable().describe("The type the document tags (AccountsTypeFullOrAbbreviated member, e.g. FullAccounts, AbridgedAccounts)."),
    accountingStandard: z.string().nullable().describe("AccountingStandardsApplied member, e.g. Micro-entities (FRS 105), SmallEntities (FRS 102 section 1A)."),
    auditStatus: z.string().nullable().describe("AccountsStatusAuditedOrUnaudited member, e.g. AuditExempt-NoAccountantsReport."),
    dormant: z.boolean().nullable(),
  }),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  balanceSheetDate: z.string().nullable(),
  currency: z.string().nullable().describe("ISO currency of the monetary figures, e.g. GBP."),
  current: Period.nullable().describe("The period the accounts are made up to."),
  prior: Period.nullable().describe("The comparatives the same accounts give for the previous period; null when they give none."),
  document: z
    .object({
      format: z.enum(["ixbrl", "xbrl"]),
      companyNumber: z.string().nullable().describe("The company number the document's contexts name."),
      companyName: z.string().nullable(),
      taxonomies: z.array(z.string()).describe("Namespaces of the tags the document uses, e.g. http://xbrl.frc.org.uk/fr/2023-01-01/core."),
      facts: z.number().int().describe("Tagged facts read."),
    })
    .nullable(),
  warnings: z
    .array(z.string())
    .describe(
      "What could not be read, or looked wrong (a value in an unknown format, facts that disagree, a context the document never defines), in plain words.",
    ),
};

type Reply = {
  readable: boolean;
  message: string;
  filing: { transactionId: string | null; filedOn: string | null; madeUpTo: string | null; description: string | null; formats: string[] } | null;
  accountsType: { register: string | null; document: string | null; accountingStandard: string | null; auditStatus: string | null; dormant: boolean | null };
  periodStart: string | null;
  periodEnd: string | null;
  balanceSheetDate: string | null;
  currency: string | null;
  current: PeriodFigures | null;
  prior: PeriodFigures | null;
  document: { format: "ixbrl" | "xbrl"; companyNumber: string | null; companyName: string | null; taxonomies: string[]; facts: number } | null;
  warnings: string[];
};

/** The lines below total assets less current liabilities, as the message names them. */
const LINE_NAMES: Partial<Record<FigureName, string>> = {
  creditorsAfterOneYear: "creditors due after more than one year",
  provisions: "provisions",
  accrualsDeferredIncome: "accruals and deferred income",
};

/** How the period's net assets were found, when they are not the tagged net assets line: a clause, or null. */
function netAssetsClause(p: PeriodFigures): string | null {
  const from: NetAssetsSource | null = p.netAssetsFrom;
  if (!from || from.rule === 1) return null;
  if (from.rule === 2) return `net assets are their total equity (${from.concept}), as they tag no net assets line`;
  const list = (names: FigureName[]) =>
    names
      .map((n) => LINE_NAMES[n] ?? n)
      .join(", ")
      .replace(/, ([^,]*)$/, " and $1");
  const less = from.deducted.length ? ` less ${list(from.deducted)}` : "";
  const nil = from.notTagged.length ? `; ${list(from.notTagged)} not tagged, counted as nil` : "";
  return `net assets are worked out as total assets less current liabilities${less}, as they tag neither a net assets line nor total equity${nil}`;
}

/** "The latest accounts (made up to …, filed …)". */
const whatOf = (filing: Filing | null, madeUpTo: string | null) => {
  const when = [madeUpTo && `made up to ${madeUpTo}`, filing?.date && `filed ${filing.date}`].filter(Boolean).join(", ");
  return `The latest accounts${when ? ` (${when})` : ""}`;
};

const unread = (filing: Filing | null, formats: string[], message: string, madeUpTo: string | null): Reply => ({
  readable: false,
  message,
  filing: filing ? { transactionId: filing.transactionId, filedOn: filing.date, madeUpTo, description: filing.description, formats } : null,
  accountsType: { register: registerTypeOf(filing), document: null, accountingStandard: null, auditStatus: null, dormant: null },
  periodStart: null,
  periodEnd: null,
  balanceSheetDate: null,
  currency: null,
  current: null,
  prior: null,
  document: null,
  warnings: [],
});

async function latestAccounts(number: string, ctx: OpContext): Promise<Reply> {
  const latest = await latestAccountsOf(ctx.services, number);
  if (latest.kind === "none") {
    ctx.refund(PRICE);
    return unread(null, [], "Companies House has no accounts filed for this company yet; nothing was charged.", null);
  }
  const { filing, madeUpTo } = latest;
  const what = whatOf(filing, madeUpTo);
  if (latest.kind === "no-document") {
    ctx.refund(PRICE);
    return unread(filing, [], `${what} have no document at the Companies House Document API, so they cannot be read; nothing was charged.`, madeUpTo);
  }
  const { meta } = latest;
  if (latest.kind === "pdf-only") {
    ctx.refund(PRICE);
    return unread(
      filing,
      meta.contentTypes,
      `${what} were filed as a PDF only, with no tagged (iXBRL) version, so their figures cannot be read; nothing was charged.`,
      madeUpTo,
    );
  }
  if (latest.kind === "unreadable") throw new InputError(latest.error.code, `${what} could not be read: ${latest.error.message}`, { query: number });
  const { doc } = latest;
  const warnings = [...doc.warnings];
  if (doc.companyNumber && doc.companyNumber !== number) warnings.unshift(`The document names company ${doc.companyNumber}, not ${number}.`);
  if (madeUpTo && doc.periodEnd && doc.periodEnd !== madeUpTo)
    warnings.unshift(`The document's period ends ${doc.periodEnd}; the register says the accounts are made up to ${madeUpTo}.`);
  // Net assets count as tagged only when the net assets line is (rule 1); otherwise the message says how they were found.
  const read = FIGURE_NAMES.filter((n) => doc.current.figures[n] !== null && (n !== "netAssets" || doc.current.netAssetsFrom?.rule === 1)).length;
  const how = netAssetsClause(doc.current);
  return {
    readable: true,
    message: `${what} were read from their ${doc.format === "xbrl" ? "XBRL" : "iXBRL"}: ${read} of ${FIGURE_NAMES.length} figures tagged for the period${doc.prior ? ", with the previous period's comparatives" : ""}${how ? `; ${how}` : ""}.`,
    filing: { transactionId: filing.transactionId, filedOn: filing.date, madeUpTo, description: filing.description, formats: meta.contentTypes },
    accountsType: {
      register: registerTypeOf(filing),
      document: doc.accountsType,
      accountingStandard: doc.accountingStandard,
      auditStatus: doc.accountsStatus,
      dormant: doc.dormant,
    },
    periodStart: doc.periodStart,
    periodEnd: doc.periodEnd,
    balanceSheetDate: doc.balanceSheetDate,
    currency: doc.currency,
    current: doc.current,
    prior: doc.prior,
    document: { format: doc.format, companyNumber: doc.companyNumber, companyName: doc.companyName, taxonomies: doc.taxonomies, facts: doc.factCount },
    warnings,
  };
}

const report = companyReport({
  operationId: "getAccounts",
  path: "/api/v1/accounts",
  title: "Latest accounts",
  summary:
    "A company's latest filed accounts, read from the tagged (iXBRL) filing: balance sheet and profit and loss figures with the prior year's comparatives.",
  description: [
    "The company's newest accounts filing at Companies House (its filing history, category accounts), read from the tagged iXBRL document the Companies House Document API holds for it (SPEC §4.8). The reply gives the period (start, end, balance sheet date), the accounts type as the register records the filing and as the document tags it (accounting standard, full or abridged, audited or exempt, dormant), and for the current period and the prior period (the comparatives in the same accounts) the balance sheet and profit and loss figures: fixed assets, current assets, cash, debtors, creditors within and after one year, net current assets, total assets less current liabilities, provisions, accruals and deferred income, net assets, share capital, reserves, equity, turnover, gross, operating, pre-tax and after-tax profit, and average employees. A figure the accounts do not tag is null; micro-entity and filleted accounts often carry no profit and loss figures.",
    "Net assets equal total equity on every balance sheet, but filings do not all tag the same line, so `figures.netAssets` is found in this order, the first that applies, and `netAssetsFrom` names the concept it came from (by local name: the prefix is each document's own) and the rule: (1) the net assets line as tagged, `NetAssetsLiabilities` (FRC) or `NetAssetsLiabilitiesIncludingPensionAssetLiability` (UK GAAP 2009 and 2004); (2) total equity, `Equity` with no dimension at the balance sheet date (with the equity-classes dimension it is share capital or a reserve, never the total) or `ShareholderFunds`: a single tagged total, equal to net assets by the balance sheet identity, that filings leaving their net assets line untagged (IRIS micro-entity accounts among them) still tag; (3) `TotalAssetsLessCurrentLiabilities` less creditors due after more than one year, provisions for liabilities, and accruals and deferred income shown after provisions, each where the accounts tag it for the period (`deducted`; a line not tagged is counted as nil and listed in `notTagged`): last, because it is right only when every line below that subtotal is tagged, with its sign. A sum of equity components is never used (a filing may tag only some reserves). When the accounts tag both net assets and total equity and the two differ, net assets are the tagged net assets line and `warnings` says so. `message` says when net assets came from rule 2 or 3.",
    'Every figure comes with its `evidence`: the tag as written, the context it is reported in and the text the document displays, so each number can be found in the filing. Figures are the tagged values: the displayed text read in its iXBRL format, times 10^scale, negative when tagged `sign="-"` (brackets on the page are presentation only). The current and the prior period are told apart by their dates, never by how the document names its contexts; a total is a figure with no dimension (creditors carry their maturity dimension, share capital and reserves their equity-class dimension). What could not be read, or looked wrong (a value in an unknown format, duplicate facts that disagree, a context the document never defines, a negative shown without its sign), is listed in `warnings` in plain words; the rest of the document is still read.',
    "Taxonomies read (tags matched by namespace URI and local name, whatever prefix the document binds: IRIS software writes ns5: for the FRC core, some software none at all; a tag of the same name in any other namespace is not a figure; currencies likewise by the ISO 4217 namespace of the unit): the FRC taxonomies for FRS 102 and FRS 105 from 2014-09-01 onwards (core, business), the UK GAAP 2009-09-01 taxonomy (uk-gaap-pt, uk-gaap-cd-bus), IFRS (ifrs-full) for the names it shares (Equity, CurrentAssets, ProfitLoss), and the 2004-12-01 names of plain XBRL instances (Companies House's dormant-company format). Both iXBRL (XHTML) and plain XBRL documents are read; a document that is not well-formed XML is read with a tolerant HTML parser.",
    `Charging: ${PRICE} credits when the accounts are read. Accounts filed only as a PDF (paper and some software filings) cannot be read: the answer is 200 with \`readable: false\`, a sentence saying so, no figures, and nothing charged (\`x-credits-refunded: ${PRICE}\`); the same for a company that has filed no accounts yet. A tagged document that holds no facts at all is 422 \`unreadable_input\`. When Companies House or its Document API cannot be read (an outage, a 429), the answer is 503 with the credits given back, never an empty answer. An unknown company is 404 with \`query\`. Filing history is cached for hours, document metadata for a day; the document itself is fetched each time.`,
  ].join("\n\n"),
  fields,
  schemaName: "Accounts",
  price: PRICE,
  reply: (profile, ctx) => latestAccounts(profile.number, ctx),
});

/** The report descriptor, plus the 422 a tagged document with no facts answers. */
export const getAccounts: AnyOperation = { ...report, errors: [...report.errors, "unreadable_input"] };
