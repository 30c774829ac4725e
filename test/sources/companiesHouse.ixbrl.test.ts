import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/shared/errors";
import {
  type AccountsDocument,
  deriveNetAssets,
  type Figures,
  FIGURE_NAMES,
  parseDate,
  parseNumber,
  readAccounts,
  readFacts,
} from "../../src/sources/companies-house/ixbrl";

/**
 * The iXBRL accounts reader (src/sources/companies-house/ixbrl.ts), behind GET /api/v1/accounts (SPEC §4.8).
 *
 * Real files first: ../shared/data/ch-ixbrl-accounts/kanedata-ixbrl-parse (served at http://shared.test), the test
 * accounts of the MIT-licensed ixbrlparse library: real Companies House filings with identifying numbers replaced.
 * Every expected value below was read by hand from the file (the tag, its contextRef, the context's dates and
 * dimensions, the displayed text and its sign/format attributes). Quirks of the real files, kept as they are:
 * - account_1: the balance sheet shows net current liabilities in brackets, but tags them without sign="-"
 *   (3,810 = 2,909 − 6,719 in absolute terms): the figure is the tagged 3810, with a warning.
 * - account_4: the context "cfwd_31_03_2018" (the current balance sheet date) has lost its id attribute, so the 15
 *   facts that refer to it cannot be placed: the current balance sheet totals are null, with a warning.
 * - account_5: the current "total assets less current liabilities" is tagged sign="-" (−51) while net current assets
 *   is +51; the prior figures are negative (sign="-") except total assets less current liabilities (371).
 * - account_1.xml: a plain XBRL instance in the 2004 names whose facts sit in the xbrli namespace, whose contexts name
 *   the entity as "DEMO XML LIMITED", and which gives ShareholderFunds for 2019-12-31 twice: sign="-" 1000 and 1000.
 *   Its ShareholderFunds (1000, −1000) are not its NetAssetsLiabilitiesIncludingPensionAssetLiability (1, 1): a
 *   parser's test file whose figures were edited, not a balance sheet that adds up (account_errors.xml is a copy).
 */

const SAMPLES = "http://shared.test/data/ch-ixbrl-accounts/kanedata-ixbrl-parse";
const real = async (file: string) => {
  const r = await fetch(`${SAMPLES}/${file}`);
  if (!r.ok) throw new Error(`missing sample ${file}`);
  return readAccounts(await r.text());
};
const ownFixture = async (file: string) => (await fetch(`http://files.test/companies-house/ixbrl/${file}`)).text();

/** The figures that are not null, for compact exact checks. */
const tagged = (p: AccountsDocument["current"] | null) => Object.fromEntries(Object.entries(p?.figures ?? {}).filter(([, v]) => v !== null));
/** `concept@contextRef=text` of a figure's evidence. */
const where = (p: AccountsDocument["current"] | null, field: keyof AccountsDocument["current"]["figures"]) => {
  const e = p?.evidence[field];
  return e ? `${e.concept}@${e.contextRef}=${e.text}${e.sign ? " sign=-" : ""}` : null;
};

describe.skipIf(!SHARED_PRESENT)("SPEC §4.8 the iXBRL reader on real Companies House accounts (../shared, ixbrlparse samples)", () => {
  it("SPEC §4.8 account_1 (FRC 2014 micro-entity, uk-core): creditors split by the maturity dimension, zero shown as a dash, report metadata", async () => {
    const a = await real("account_1.html");
    expect(a).toMatchObject({
      format: "ixbrl",
      parsedAs: "xml",
      companyNumber: "02345678",
      companyName: "GREEN BARKINGSHIRE LIMITED",
      periodStart: "2016-11-01",
      periodEnd: "2017-10-31",
      balanceSheetDate: "2017-10-31",
      accountingStandard: "Micro-entities",
      accountsType: "FullAccounts",
      accountsStatus: "AuditExempt-NoAccountantsReport",
      dormant: false,
      currency: "GBP",
    });
    expect(a.taxonomies).toContain("http://xbrl.frc.org.uk/fr/2014-09-01/core");
    expect(tagged(a.current)).toEqual({
      fixedAssets: 0,
      currentAssets: 2909,
      creditorsWithinOneYear: 6719,
      creditorsAfterOneYear: 0,
      netCurrentAssets: 3810,
      totalAssetsLessCurrentLiabilities: 3810,
      provisions: 0,
      accrualsDeferredIncome: 0,
      netAssets: 3810,
      equity: 3810,
    });
    expect(a.prior).toMatchObject({ startDate: null, endDate: "2016-10-31" });
    expect(tagged(a.prior)).toEqual({
      fixedAssets: 0,
      currentAssets: 4585,
      creditorsWithinOneYear: 5879,
      creditorsAfterOneYear: 0,
      netCurrentAssets: 1294,
      totalAssetsLessCurrentLiabilities: 1294,
      provisions: 0,
      accrualsDeferredIncome: 0,
      netAssets: 1294,
      equity: 1294,
    });
    expect(a.current.evidence.creditorsWithinOneYear).toEqual({
      concept: "uk-core:Creditors",
      contextRef: "icur9",
      text: "6,719",
      sign: null,
      scale: 0,
      unit: "iso4217:GBP",
      dimensions: { MaturitiesOrExpirationPeriodsDimension: "WithinOneYear" },
    });
    expect(where(a.current, "creditorsAfterOneYear")).toBe("uk-core:Creditors@icur11=0");
    expect(where(a.prior, "fixedAssets")).toBe("uk-core:FixedAssets@iprev8=-");
    expect(a.warnings).toEqual([
      "netCurrentAssets, current period: tagged 3810, but currentAssets − creditorsWithinOneYear is -3810; the document seems to show a negative figure without tagging its sign",
      "netCurrentAssets, prior period: tagged 1294, but currentAssets − creditorsWithinOneYear is -1294; the document seems to show a negative figure without tagging its sign",
    ]);
  });

  it("SPEC §4.8 account_2 (UK GAAP 2009, uk-gaap-pt): 2009 names, default-namespace contexts, current and previous by date", async () => {
    const a = await real("account_2.html");
    expect(a).toMatchObject({
      companyNumber: "12345678",
      companyName: "COMMA NAME, TESTAREA AND DISTRICT COMMUNITY ASSOCIATION LIMITED",
      periodStart: "2016-04-01",
      periodEnd: "2017-03-31",
      dormant: false,
      accountingStandard: null,
    });
    expect(a.taxonomies).toContain("http://www.xbrl.org/uk/gaap/core/2009-09-01");
    expect(tagged(a.current)).toEqual({
      currentAssets: 4373,
      creditorsWithinOneYear: 1154,
      netCurrentAssets: 3219,
      totalAssetsLessCurrentLiabilities: 3219,
      netAssets: 3219,
      equity: 3219,
    });
    expect(tagged(a.prior)).toEqual({
      currentAssets: 4928,
      creditorsWithinOneYear: 495,
      netCurrentAssets: 4433,
      totalAssetsLessCurrentLiabilities: 4433,
      netAssets: 4433,
      equity: 4433,
    });
    expect(a.prior!.endDate).toBe("2016-03-31");
    expect(where(a.current, "creditorsWithinOneYear")).toBe("uk-gaap-pt:CreditorsDueWithinOneYear@current-mud=1,154");
    expect(where(a.current, "netAssets")).toBe("uk-gaap-pt:NetAssetsLiabilitiesIncludingPensionAssetLiability@current-mud=3,219");
    expect(where(a.prior, "equity")).toBe("uk-gaap-pt:ShareholderFunds@previous-mud=4,433");
    expect(a.warnings).toEqual([]);
  });

  it("SPEC §4.8 account_3 (UK GAAP 2009): zerodash and fixed-zero are 0; called-up share capital not paid is not share capital", async () => {
    const a = await real("account_3.html");
    expect(a).toMatchObject({
      companyNumber: "03456789",
      companyName: "FAKETEST TECHNOLOGIES LIMITED",
      periodStart: "2015-10-01",
      periodEnd: "2016-09-30",
      balanceSheetDate: "2016-09-30",
    });
    const both = {
      fixedAssets: 0,
      currentAssets: 0,
      creditorsWithinOneYear: 0,
      netCurrentAssets: 0,
      totalAssetsLessCurrentLiabilities: 1000,
      netAssets: 1000,
      equity: 1000,
    };
    expect(tagged(a.current)).toEqual(both);
    expect(tagged(a.prior)).toEqual(both);
    expect(where(a.current, "creditorsWithinOneYear")).toBe("uk-gaap-pt:CreditorsDueWithinOneYear@current-mud=0");
    expect(where(a.current, "currentAssets")).toBe("uk-gaap-pt:CurrentAssets@current-mud=-");
    expect(a.prior!.endDate).toBe("2015-09-30");
  });

  it('SPEC §4.8 account_4 (FRS 102 2014, prefixes ns0..ns27): metadata dates 1.4.17 / 31.3.18, creditors by the current/non-current dimension, sign="-", a context that lost its id', async () => {
    const a = await real("account_4.html");
    expect(a).toMatchObject({
      companyNumber: "10023456",
      companyName: "Fake Company Limited",
      periodStart: "2017-04-01",
      periodEnd: "2018-03-31",
      balanceSheetDate: "2018-03-31",
      accountingStandard: "SmallEntities",
      accountsType: "AbridgedAccounts",
      accountsStatus: "AuditExemptWithAccountantsReport",
      dormant: false,
    });
    expect(a.taxonomies).toContain("http://xbrl.frc.org.uk/fr/2014-09-01/core");
    // cfwd_31_03_2018 is referred to but never defined (its <xbrli:context> has no id): its facts cannot be placed.
    expect(a.warnings).toEqual([
      "a context without an id cannot be referred to; it is left out",
      '15 facts refer to context "cfwd_31_03_2018", which the document does not define; left out of the figures',
    ]);
    expect(tagged(a.current)).toEqual({ creditorsWithinOneYear: 42352, creditorsAfterOneYear: 39300, shareCapital: 2, reserves: 32246, averageEmployees: 5 });
    expect(where(a.current, "creditorsWithinOneYear")).toBe("ns5:Creditors@Creditors-SegmentsHypercube_cfwd_31_03_2018_Set1=42,352");
    expect(a.current.evidence.creditorsAfterOneYear!.dimensions).toEqual({
      "FinancialInstrumentCurrentNon-currentDimension": "Non-currentFinancialInstruments",
    });
    expect(a.prior).toMatchObject({ startDate: "2016-03-29", endDate: "2017-03-31" });
    expect(tagged(a.prior)).toEqual({
      fixedAssets: 63450,
      cash: 14768,
      creditorsWithinOneYear: 32725,
      creditorsAfterOneYear: 19294,
      netCurrentAssets: -17957,
      totalAssetsLessCurrentLiabilities: 45493,
      provisions: 0,
      netAssets: 26199,
      shareCapital: 2,
      reserves: 26197,
      equity: 26199,
      averageEmployees: 4,
    });
    expect(where(a.prior, "fixedAssets")).toBe("ns5:PropertyPlantEquipment@cfwd_31_03_2017=63,450");
    expect(where(a.prior, "netCurrentAssets")).toBe("ns5:NetCurrentAssetsLiabilities@cfwd_31_03_2017=17,957 sign=-");
    expect(where(a.prior, "equity")).toBe("ns5:Equity@cfwd_31_03_2017=26,199");
  });

  it('SPEC §4.8 account_5 (FRC 2014, un-prefixed ix elements): sign="-" negatives, a dimensioned debtors note is not the total, profit and employees', async () => {
    const a = await real("account_5.html");
    expect(a).toMatchObject({
      companyNumber: "01234567",
      companyName: "TEST COMPANY5 LIMITED",
      periodStart: "2018-04-01",
      periodEnd: "2019-03-31",
      balanceSheetDate: "2019-03-31",
      accountingStandard: "SmallEntities",
      accountsType: "FullAccounts",
      accountsStatus: "AuditExempt-NoAccountantsReport",
    });
    expect(tagged(a.current)).toEqual({
      fixedAssets: 0,
      currentAssets: 9590,
      cash: 9486,
      debtors: 104,
      creditorsWithinOneYear: 9539,
      creditorsAfterOneYear: 0,
      netCurrentAssets: 51,
      totalAssetsLessCurrentLiabilities: -51,
      netAssets: 51,
      shareCapital: 2,
      reserves: 49,
      equity: 51,
      profitAfterTax: 40670,
      averageEmployees: 1,
    });
    expect(a.prior).toMatchObject({ startDate: "2017-04-01", endDate: "2018-03-31" });
    expect(tagged(a.prior)).toEqual({
      fixedAssets: 0,
      currentAssets: 15116,
      cash: 15108,
      debtors: 8,
      creditorsWithinOneYear: 15487,
      creditorsAfterOneYear: 0,
      netCurrentAssets: -371,
      totalAssetsLessCurrentLiabilities: 371,
      netAssets: -371,
      shareCapital: 2,
      reserves: -373,
      equity: -371,
    });
    // The debtors note repeats 104 with sign="-" under two dimensions: not the balance sheet total.
    expect(where(a.current, "debtors")).toBe("core:Debtors@cfwd_CY_END=104");
    expect(where(a.current, "totalAssetsLessCurrentLiabilities")).toBe("core:TotalAssetsLessCurrentLiabilities@cfwd_CY_END=51 sign=-");
    expect(where(a.prior, "reserves")).toBe("core:Equity@EquitySOCIHypercube_cfwd_PY_Retained=373 sign=-");
    expect(where(a.current, "profitAfterTax")).toBe("core:ProfitLoss@FY_CY_END=40,670");
    expect(a.warnings).toEqual([]);
  });

  it("SPEC §4.8 account_6 (FRC 2021 micro-entity, FRS 105): turnover, profit and employees for both years; a date with ix:exclude text", async () => {
    const a = await real("account_6.xhtml");
    expect(a).toMatchObject({
      companyNumber: "12345671",
      companyName: "Test Exclude LIMITED",
      periodStart: "2021-08-01",
      periodEnd: "2022-07-31",
      balanceSheetDate: "2022-07-31",
      accountingStandard: "Micro-entities",
      accountsType: "FullAccounts",
      accountsStatus: "AuditExemptWithAccountantsReport",
      dormant: false,
    });
    expect(a.taxonomies).toContain("http://xbrl.frc.org.uk/fr/2021-01-01/core");
    expect(tagged(a.current)).toEqual({
      currentAssets: 1040,
      creditorsWithinOneYear: 786,
      netCurrentAssets: 254,
      netAssets: 254,
      equity: 254,
      turnover: 3456,
      profitAfterTax: 456,
      averageEmployees: 0,
    });
    expect(tagged(a.prior)).toEqual({
      currentAssets: 810,
      creditorsWithinOneYear: 805,
      netCurrentAssets: 5,
      netAssets: 5,
      equity: 5,
      turnover: 5678,
      profitAfterTax: 2847,
      averageEmployees: 0,
    });
    expect(a.prior).toMatchObject({ startDate: "2020-08-01", endDate: "2021-07-31" });
    expect(where(a.current, "turnover")).toBe("core:TurnoverRevenue@C=3,456");
    expect(a.current.evidence.creditorsWithinOneYear!.dimensions).toEqual({
      "FinancialInstrumentCurrentNon-currentDimension": "CurrentFinancialInstruments",
      MaturitiesOrExpirationPeriodsDimension: "WithinOneYear",
    });
    expect(a.current.evidence.averageEmployees!.unit).toBe("xbrli:pure");
    expect(a.warnings).toEqual([]);
  });

  it("SPEC §7 the error samples give warnings, never a throw: an unknown number format, a context never defined, a nameless fact, an impossible period date", async () => {
    const errors = await real("account_errors.html");
    expect(errors.current.figures.currentAssets).toBeNull();
    expect(errors.prior!.figures.currentAssets).toBe(4585);
    expect(errors.current.figures.creditorsWithinOneYear).toBe(6719);
    expect(errors.warnings).toContain("uk-core:CurrentAssets in context icur1: format ixt2:numdotdecimalblahblah is not one this reader knows; left out");
    expect(errors.warnings).toContain('1 fact refers to context "dcur4gjksdjds", which the document does not define; left out of the figures');

    const nonNumeric = await real("account_errors_nonnumeric.html");
    expect(nonNumeric.warnings).toContain('a fact without a name or a contextRef ("GREEN BARKINGSHIRE LIMITED") is left out');
    expect(nonNumeric.companyName).toBeNull();
    expect(nonNumeric.companyNumber).toBe("02345678");
    expect(nonNumeric.current.figures.equity).toBe(3810);

    const date = await real("account_errors_date.html");
    expect(date.warnings).toContain('context dcur4 has a period date that is not a plausible date ("0001-01-01"); that date is left out');
    expect(date).toMatchObject({ periodStart: "2016-11-01", periodEnd: "2017-10-31", balanceSheetDate: "2017-10-31", dormant: false });
    expect(date.current.figures.netAssets).toBe(3810);
  });

  it("SPEC §4.8 plain XBRL instances (account_1.xml, 2004 names): dormant, cash, net assets, shareholders' funds; disagreeing duplicates keep the first with a warning", async () => {
    const a = await real("account_1.xml");
    expect(a).toMatchObject({
      format: "xbrl",
      parsedAs: "xml",
      companyNumber: "01234567",
      companyName: "DEMO XML LIMITED",
      periodStart: "2020-01-01",
      periodEnd: "2020-12-31",
      balanceSheetDate: "2020-12-31",
      dormant: true,
      currency: "GBP",
    });
    expect(tagged(a.current)).toEqual({ cash: 1, netAssets: 1, equity: 1000 });
    expect(tagged(a.prior)).toEqual({ cash: 1, netAssets: 1, equity: -1000 });
    expect(a.prior).toMatchObject({ startDate: "2019-01-01", endDate: "2019-12-31" });
    expect(where(a.current, "cash")).toBe("CashBankInHand@e1=1");
    // The net assets line is the answer (rule 1); its disagreement with total equity is said, for each period.
    expect(a.warnings).toEqual([
      "netAssets, current period: NetAssetsLiabilitiesIncludingPensionAssetLiability is 1 but total equity (ShareholderFunds) is 1000; they should be equal; net assets are the tagged NetAssetsLiabilitiesIncludingPensionAssetLiability",
      'ShareholderFunds, prior period: facts disagree, -1000 (context e2, shown "1000", sign="-") and 1000 (context e2, shown "1000"); the first is used',
      "netAssets, prior period: NetAssetsLiabilitiesIncludingPensionAssetLiability is 1 but total equity (ShareholderFunds) is -1000; they should be equal; net assets are the tagged NetAssetsLiabilitiesIncludingPensionAssetLiability",
    ]);

    const bad = await real("account_errors.xml");
    expect(bad.balanceSheetDate).toBeNull();
    expect(bad.warnings).toContain("BalanceSheetDate: date format ixt2:numdotdecimalblahblah is not one this reader knows; left out");
    expect(bad.warnings).toContain("ValueOrdinarySharesAllotted in context e2: format ixt2:numdotdecimalblahblah is not one this reader knows; left out");
  });
});

describe("SPEC §4.8 the iXBRL reader on our fixture in the real shape (test/fixtures/companies-house/ixbrl/harbourside-2025.xhtml)", () => {
  it('SPEC §4.8 figures in thousands (scale="3"), sign="-" losses, dimensions, zerodash, nil, prior-year comparatives: every figure exact', async () => {
    const a = readAccounts(await ownFixture("harbourside-2025.xhtml"));
    expect(a).toMatchObject({
      format: "ixbrl",
      parsedAs: "xml",
      companyNumber: "01234567",
      companyName: "HARBOURSIDE LEGAL LIMITED",
      periodStart: "2024-04-01",
      periodEnd: "2025-03-31",
      balanceSheetDate: "2025-03-31",
      accountingStandard: "SmallEntities",
      accountsType: "FullAccounts",
      accountsStatus: "AuditExempt-NoAccountantsReport",
      dormant: false,
      currency: "GBP",
      taxonomies: ["http://xbrl.frc.org.uk/cd/2023-01-01/business", "http://xbrl.frc.org.uk/fr/2023-01-01/core"],
      factCount: 55,
    });
    expect(a.current.figures).toEqual({
      fixedAssets: 214_000,
      currentAssets: 283_000,
      cash: 96_000,
      debtors: 187_000,
      creditorsWithinOneYear: 139_000,
      creditorsAfterOneYear: 40_000,
      netCurrentAssets: 144_000,
      totalAssetsLessCurrentLiabilities: 358_000,
      provisions: null,
      accrualsDeferredIncome: null,
      netAssets: 318_000,
      shareCapital: 100,
      reserves: 317_900,
      equity: 318_000,
      turnover: 1_482_500,
      grossProfit: 612_000,
      operatingProfit: 48_000,
      profitBeforeTax: 45_000,
      profitAfterTax: 36_000,
      averageEmployees: 23,
    });
    expect(a.prior).toMatchObject({ startDate: "2023-04-01", endDate: "2024-03-31" });
    expect(a.prior!.figures).toEqual({
      fixedAssets: 231_000,
      currentAssets: 235_000,
      cash: 71_000,
      debtors: 164_000,
      creditorsWithinOneYear: 152_000,
      creditorsAfterOneYear: 0,
      netCurrentAssets: 83_000,
      totalAssetsLessCurrentLiabilities: 314_000,
      provisions: null,
      accrualsDeferredIncome: null,
      netAssets: 314_000,
      shareCapital: 100,
      reserves: 313_900,
      equity: 314_000,
      turnover: 1_296_000,
      grossProfit: null, // xsi:nil
      operatingProfit: -12_000,
      profitBeforeTax: -15_000,
      profitAfterTax: -15_000,
      averageEmployees: 21,
    });
    // The displayed text spans a nested <span>; scale 3 with a decimal.
    expect(a.current.evidence.turnover).toEqual({
      concept: "core:TurnoverRevenue",
      contextRef: "ctx3",
      text: "1,482.5",
      sign: null,
      scale: 3,
      unit: "iso4217:GBP",
      dimensions: {},
    });
    expect(a.current.evidence.shareCapital).toEqual({
      concept: "core:Equity",
      contextRef: "ctx10",
      text: "0.1",
      sign: null,
      scale: 3,
      unit: "iso4217:GBP",
      dimensions: { EquityClassesDimension: "ShareCapital" },
    });
    expect(a.prior!.evidence.operatingProfit).toMatchObject({ contextRef: "ctx2", text: "12", sign: "-" });
    expect(a.prior!.evidence.creditorsAfterOneYear).toMatchObject({
      contextRef: "ctx7",
      text: "-",
      dimensions: { MaturitiesOrExpirationPeriodsDimension: "AfterOneYear" },
    });
    expect(a.current.evidence.averageEmployees).toMatchObject({ text: "23", scale: 0, unit: "xbrli:pure" });
    expect(a.prior!.evidence.grossProfit).toBeUndefined();
    expect(a.current.netAssetsFrom).toEqual({ rule: 1, concept: "NetAssetsLiabilities", deducted: [], notTagged: [] });
    // Equal duplicates (total equity twice, creditors within one year again in the note) are fine; the debtors note disagrees.
    expect(a.warnings).toEqual([
      'core:Debtors, current period: facts disagree, 187000 (context ctx4, shown "187") and 178000 (context ctx4, shown "178"); the first is used',
    ]);
  });

  it("SPEC §4.8 current and prior are told apart by dates, never by context ids", () => {
    const doc = (ids: { now: string; before: string }) => `<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:c="http://xbrl.frc.org.uk/fr/2022-01-01/core"><body>
<ix:header><ix:resources>
<xbrli:context id="${ids.now}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">NI612345</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2023-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="${ids.before}"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">NI612345</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2022-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="u"><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unit>
</ix:resources></ix:header>
<p><ix:nonFraction name="c:NetAssetsLiabilities" contextRef="${ids.before}" unitRef="u" format="ixt2:numcommadecimal">1.234,5</ix:nonFraction>
<ix:nonFraction name="c:NetAssetsLiabilities" contextRef="${ids.now}" unitRef="u" format="ixt2:numcommadecimal">2.000</ix:nonFraction></p>
</body></html>`;
    for (const ids of [
      { now: "current", before: "prior" },
      { now: "prior", before: "current" },
    ]) {
      const a = readAccounts(doc(ids));
      expect(a).toMatchObject({ companyNumber: "NI612345", periodEnd: "2023-12-31", currency: "EUR" });
      expect(a.current.figures.netAssets).toBe(2000);
      expect(a.prior).toMatchObject({ endDate: "2022-12-31" });
      expect(a.prior!.figures.netAssets).toBe(1234.5);
      expect(a.current.evidence.netAssets!.contextRef).toBe(ids.now);
    }
  });

  it("SPEC §4.8 a document that is not well-formed XML is read with the tolerant HTML parser, with the same figures", () => {
    const soup = `<!DOCTYPE html><html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:uk-core="http://xbrl.frc.org.uk/fr/2014-09-01/core">
<body><div style="display:none"><ix:header><ix:resources>
<xbrli:context id="i1"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">7654321</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2024-06-30</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="i1w"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">7654321</xbrli:identifier><xbrli:segment><xbrldi:explicitMember dimension="uk-core:MaturitiesOrExpirationPeriodsDimension">uk-core:WithinOneYear</xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:instant>2024-06-30</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<P>Cash &mdash; &undeclared; <ix:nonFraction contextRef="i1" name="uk-core:CashBankOnHand" unitRef="GBP" format="ixt2:numdotdecimal" scale="0">1,234<br></ix:nonFraction>
<p>Creditors (<ix:nonFraction contextRef="i1w" name="uk-core:Creditors" unitRef="GBP" format="ixt2:numdotdecimal">5,678</ix:nonFraction>)
<p>Dormant: <ix:nonNumeric contextRef="i1" name="bus:EntityDormantTruefalse"/> (an empty self-closing fact must not swallow what follows)
<p>Net assets <ix:nonFraction contextRef="i1" name="uk-core:NetAssetsLiabilities" unitRef="GBP" format="ixt2:numdotdecimal" sign="-">90</ix:nonFraction>
</body></html>`;
    const a = readAccounts(soup);
    expect(a).toMatchObject({ parsedAs: "html", companyNumber: "07654321", periodEnd: "2024-06-30", currency: "GBP", prior: null });
    expect(tagged(a.current)).toEqual({ cash: 1234, creditorsWithinOneYear: 5678, netAssets: -90 });
    expect(a.current.evidence.creditorsWithinOneYear).toMatchObject({
      concept: "uk-core:Creditors",
      contextRef: "i1w",
      text: "5,678",
      dimensions: { MaturitiesOrExpirationPeriodsDimension: "WithinOneYear" },
    });
    expect(a.current.evidence.netAssets).toMatchObject({ text: "90" });
    expect(readFacts(soup).facts.find((f) => f.localName === "EntityDormantTruefalse")).toMatchObject({ text: "" });
    expect(a.warnings[0]).toBe("the document is not well-formed XML; it was read with a tolerant HTML parser");
  });

  it("SPEC §7 a document with no facts at all is unreadable (InputError unreadable_input, 422)", () => {
    for (const doc of ["<html><body><p>Abridged accounts</p></body></html>", "%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj", ""]) {
      const e = (() => {
        try {
          readAccounts(doc);
          return null;
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(InputError);
      expect(e).toMatchObject({ code: "unreadable_input" });
    }
  });
});

describe("SPEC §4.8 iXBRL transformations", () => {
  it("SPEC §4.8 numbers: ixt/ixt2/ixt4 formats, dashes, brackets, scale, and unknown formats as errors", () => {
    const v = (text: string, format: string | null, scale = 0) => {
      const r = parseNumber(text, format, scale);
      return "value" in r ? r.value : r.error;
    };
    expect(v("6,719", "ixt2:numdotdecimal")).toBe(6719);
    expect(v("1,234,567.89", "ixt:numcommadot")).toBe(1234567.89);
    expect(v("1 234.5", "ixt4:num-dot-decimal")).toBe(1234.5);
    expect(v("1.234,56", "ixt:numdotcomma")).toBe(1234.56);
    expect(v("1 234,5", "ixt2:numcommadecimal")).toBe(1234.5);
    expect(v("-", "ixt2:zerodash")).toBe(0);
    expect(v("nil", "ixt:fixed-zero")).toBe(0);
    expect(v("–", "ixt2:numdotdecimal")).toBe(0);
    expect(v("(1,250)", "ixt2:numdotdecimal")).toBe(1250);
    expect(v("394", null)).toBe(394);
    expect(v("1,482.5", "ixt2:numdotdecimal", 3)).toBe(1_482_500);
    expect(v("0.1", "ixt2:numdotdecimal", 3)).toBe(100);
    expect(v("2.5", "ixt2:numdotdecimal", 6)).toBe(2_500_000);
    expect(v("12", "ixt2:numdotdecimal", -2)).toBe(0.12);
    expect(v("2,909", "ixt2:numdotdecimalblahblah")).toBe("format ixt2:numdotdecimalblahblah is not one this reader knows");
    expect(v("twelve", "ixt2:numdotdecimal")).toBe('"twelve" is not a number in format ixt2:numdotdecimal');
    expect(v("", "ixt2:numdotdecimal")).toBe('"" is not a number in format ixt2:numdotdecimal');
  });

  it("SPEC §2.1 dates: the ixt date formats to YYYY-MM-DD; impossible dates are errors", () => {
    const d = (text: string, format: string | null) => {
      const r = parseDate(text, format);
      return "value" in r ? r.value : r.error;
    };
    expect(d("31 October 2017", "ixt2:datedaymonthyearen")).toBe("2017-10-31");
    expect(d("10th September 2018", "ixt2:datedaymonthyearen")).toBe("2018-09-10");
    expect(d("31 July 2022", "ixt:datelonguk")).toBe("2022-07-31");
    expect(d("1 Sept 21", "ixt:dateshortuk")).toBe("2021-09-01");
    expect(d("31.3.18", "ixt2:datedaymonthyear")).toBe("2018-03-31");
    expect(d("31/03/2018", "ixt:dateslasheu")).toBe("2018-03-31");
    expect(d("31.03.2018", "ixt:datedoteu")).toBe("2018-03-31");
    expect(d("03/31/2018", "ixt:dateslashus")).toBe("2018-03-31");
    expect(d("March 31, 2018", "ixt:datelongus")).toBe("2018-03-31");
    expect(d("31 March 2025", "ixt4:date-day-monthname-year-en")).toBe("2025-03-31");
    expect(d("2018-03-31", "ixt4:date-year-month-day")).toBe("2018-03-31");
    expect(d("2016-11-01", null)).toBe("2016-11-01");
    expect(d("30 February 2018", "ixt2:datedaymonthyearen")).toBe('"30 February 2018" is not a date in format ixt2:datedaymonthyearen');
    expect(d("0001-01-01", null)).toBe('"0001-01-01" is not a date');
    expect(d("March 2018", "ixt2:datemonthyearen")).toBe("date format ixt2:datemonthyearen is not one this reader knows");
  });
});

/** Every real filing in ../shared/data/ch-ixbrl-accounts (its format note lists them). */
const REAL_FILES = [
  "account_1.html",
  "account_2.html",
  "account_3.html",
  "account_4.html",
  "account_5.html",
  "account_6.xhtml",
  "account_errors.html",
  "account_errors_date.html",
  "account_errors_nonnumeric.html",
  "account_1.xml",
  "account_errors.xml",
];

/** The net assets line as the document tags it for a date (no dimension), read from the raw facts, not the record. */
const taggedNetAssets = (doc: string, date: string | null) => {
  const set = readFacts(doc);
  const f = set.facts.find((x) => {
    const c = x.contextRef ? set.contexts.get(x.contextRef) : undefined;
    return (
      /^NetAssetsLiabilities(IncludingPensionAssetLiability)?$/.test(x.localName) &&
      x.value !== null &&
      c?.instant === date &&
      Object.keys(c.dimensions).length === 0
    );
  });
  return (f?.value as number | undefined) ?? null;
};

describe.skipIf(!SHARED_PRESENT)("SPEC §4.8 net assets in a documented order, checked on every real filing in ../shared", () => {
  it("SPEC §4.8 every period that tags its net assets line answers it (rule 1); held out, total equity (rule 2) gives the same but for the edited demo XBRL, and TALCL less the lines below (rule 3) but for account_5's signs", async () => {
    const rows: string[] = [];
    for (const file of REAL_FILES) {
      const text = await (await fetch(`${SAMPLES}/${file}`)).text();
      const a = readAccounts(text);
      for (const [label, p] of [
        ["current", a.current],
        ["prior", a.prior],
      ] as const) {
        if (!p) continue;
        const tagged = taggedNetAssets(text, p.endDate);
        // The reply: the tagged line wherever there is one, named.
        if (tagged !== null) {
          expect(p.figures.netAssets, `${file} ${label}`).toBe(tagged);
          expect(p.netAssetsFrom, `${file} ${label}`).toMatchObject({ rule: 1, concept: expect.stringMatching(/^NetAssetsLiabilities/) });
        }
        // What the order would have answered had the filing not tagged the line (and then not total equity either).
        const withoutLine = deriveNetAssets({ figures: { ...p.figures, netAssets: null }, evidence: p.evidence });
        const withoutEquity = deriveNetAssets({ figures: { ...p.figures, netAssets: null, equity: null }, evidence: p.evidence });
        rows.push(`${file} ${label} ${tagged} ${withoutLine?.from.rule === 2 ? withoutLine.value : "-"} ${withoutEquity?.value ?? "-"}`);
      }
    }
    // file, period, tagged net assets, rule 2 held out, rule 3 held out.
    expect(rows).toEqual([
      "account_1.html current 3810 3810 3810",
      "account_1.html prior 1294 1294 1294",
      "account_2.html current 3219 3219 3219",
      "account_2.html prior 4433 4433 4433",
      "account_3.html current 1000 1000 1000",
      "account_3.html prior 1000 1000 1000",
      // The current balance sheet's context lost its id (see above): nothing can be placed, so nothing is answered.
      "account_4.html current null - -",
      "account_4.html prior 26199 26199 26199", // 45,493 − 19,294 − 0
      // TALCL tagged −51 (sign="-") beside net current assets of +51, and +371 beside −371: rule 3 inherits the wrong signs.
      "account_5.html current 51 51 -51",
      "account_5.html prior -371 -371 371",
      "account_6.xhtml current 254 254 -",
      "account_6.xhtml prior 5 5 -",
      "account_errors.html current 3810 3810 3810",
      "account_errors.html prior 1294 1294 1294",
      "account_errors_date.html current 3810 3810 3810",
      "account_errors_date.html prior 1294 1294 1294",
      "account_errors_nonnumeric.html current 3810 3810 3810",
      "account_errors_nonnumeric.html prior 1294 1294 1294",
      "account_1.xml current 1 1000 -",
      "account_1.xml prior 1 -1000 -",
      "account_errors.xml current 1 1000 -",
      "account_errors.xml prior 1 -1000 -",
    ]);
  });

  it("SPEC §4.8 rule 3 on account_4's prior year names what it took away and what the filing does not tag; the tagged line and total equity disagreeing is a warning", async () => {
    const a = await real("account_4.html");
    const held = deriveNetAssets({ figures: { ...a.prior!.figures, netAssets: null, equity: null }, evidence: a.prior!.evidence });
    expect(held).toEqual({
      value: 26199,
      from: { rule: 3, concept: "TotalAssetsLessCurrentLiabilities", deducted: ["creditorsAfterOneYear", "provisions"], notTagged: ["accrualsDeferredIncome"] },
    });
    expect(a.prior!.figures).toMatchObject({ totalAssetsLessCurrentLiabilities: 45493, creditorsAfterOneYear: 19294, provisions: 0 });

    const demo = await real("account_1.xml");
    expect(demo.warnings).toContain(
      "netAssets, current period: NetAssetsLiabilitiesIncludingPensionAssetLiability is 1 but total equity (ShareholderFunds) is 1000; they should be equal; net assets are the tagged NetAssetsLiabilitiesIncludingPensionAssetLiability",
    );
    expect(demo.current.netAssetsFrom).toEqual({ rule: 1, concept: "NetAssetsLiabilitiesIncludingPensionAssetLiability", deducted: [], notTagged: [] });
  });
});

describe("SPEC §4.8 an IRIS-shaped micro-entity filing that tags Equity and TotalAssetsLessCurrentLiabilities but no NetAssetsLiabilities (test/fixtures/companies-house/ixbrl/ashgrove-micro-iris-2024.xhtml)", () => {
  const expectedCurrent: Figures = {
    ...(Object.fromEntries(FIGURE_NAMES.map((n) => [n, null])) as Figures),
    fixedAssets: 12_400,
    currentAssets: 18_250,
    creditorsWithinOneYear: 21_730,
    creditorsAfterOneYear: 9_800,
    netCurrentAssets: -3_480,
    totalAssetsLessCurrentLiabilities: 8_920,
    provisions: 1_150,
    netAssets: -2_030,
    shareCapital: 100,
    reserves: -2_130,
    equity: -2_030,
    averageEmployees: 4,
  };
  const expectedPrior: Figures = {
    ...expectedCurrent,
    fixedAssets: 14_050,
    currentAssets: 15_900,
    creditorsWithinOneYear: 13_620,
    creditorsAfterOneYear: 12_600,
    netCurrentAssets: 2_280,
    totalAssetsLessCurrentLiabilities: 16_330,
    provisions: 0,
    netAssets: 3_730,
    reserves: 3_630,
    equity: 3_730,
  };

  it('SPEC §4.8 net assets are the total equity (rule 2, concept Equity), never a dimensioned component; ns1/ns2/ns3/ns5/ns10 prefixes resolved by namespace; sign="-" and scale="0" read', async () => {
    const a = readAccounts(await ownFixture("ashgrove-micro-iris-2024.xhtml"));
    expect(a).toMatchObject({
      format: "ixbrl",
      parsedAs: "xml",
      companyNumber: "11482930",
      companyName: "ASHGROVE JOINERY LTD",
      periodStart: "2023-04-01",
      periodEnd: "2024-03-31",
      balanceSheetDate: "2024-03-31",
      accountingStandard: "Micro-entities",
      accountsType: "FullAccounts",
      accountsStatus: "AuditExempt-NoAccountantsReport",
      dormant: false,
      currency: "GBP", // the unit's measure is ns3:GBP, ns3 bound to the ISO 4217 namespace
      warnings: [],
    });
    expect(a.current.figures).toEqual(expectedCurrent);
    expect(a.prior!.figures).toEqual(expectedPrior);
    expect(a.current.netAssetsFrom).toEqual({ rule: 2, concept: "Equity", deducted: [], notTagged: [] });
    expect(a.prior!.netAssetsFrom).toEqual({ rule: 2, concept: "Equity", deducted: [], notTagged: [] });
    expect(a.current.evidence.netAssets).toEqual({
      concept: "ns5:Equity",
      contextRef: "cfwd_31_03_2024",
      text: "2,030",
      sign: "-",
      scale: 0,
      unit: "ns3:GBP",
      dimensions: {},
    });
    expect(a.current.evidence.reserves).toMatchObject({
      contextRef: "EquitySOCI-SegmentsHypercube_cfwd_31_03_2024_Set7",
      sign: "-",
      dimensions: { EquityClassesDimension: "RetainedEarningsAccumulatedLosses" },
    });
    expect(a.prior!.evidence.provisions).toMatchObject({ text: "-", scale: 0 });
  });

  it("SPEC §4.8 rule 3 on the same balance sheet, total equity held out, gives the same net assets: 8,920 − 9,800 − 1,150", async () => {
    const a = readAccounts(await ownFixture("ashgrove-micro-iris-2024.xhtml"));
    for (const [p, want] of [
      [a.current, -2_030],
      [a.prior!, 3_730],
    ] as const) {
      const held = deriveNetAssets({ figures: { ...p.figures, netAssets: null, equity: null }, evidence: p.evidence });
      expect(held).toEqual({
        value: want,
        from: {
          rule: 3,
          concept: "TotalAssetsLessCurrentLiabilities",
          deducted: ["creditorsAfterOneYear", "provisions"],
          notTagged: ["accrualsDeferredIncome"],
        },
      });
    }
  });

  it("SPEC §4.8 the same filing as tag soup (read with the HTML parser) gives the same figures, net assets and currency", async () => {
    const soup = (await ownFixture("ashgrove-micro-iris-2024.xhtml")).replace("<body>", "<body>&undeclared;<br>");
    const a = readAccounts(soup);
    expect(a.parsedAs).toBe("html");
    expect(a.currency).toBe("GBP");
    expect(a.current.figures).toEqual(expectedCurrent);
    expect(a.prior!.figures).toEqual(expectedPrior);
    expect(a.current.netAssetsFrom).toMatchObject({ rule: 2, concept: "Equity" });
  });
});

describe("SPEC §4.8 concepts and units by namespace URI, never by prefix; the net assets order", () => {
  const doc = (facts: string) => `<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:core="http://www.iris.co.uk/ixbrl" xmlns:uk="http://xbrl.frc.org.uk/fr/2021-01-01/core" xmlns:money="http://www.xbrl.org/2003/iso4217" xmlns:iso4217="http://www.iris.co.uk/ixbrl"><body>
<ix:header><ix:resources>
<xbrli:context id="i"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">08123456</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:unit id="u"><xbrli:measure>money:GBP</xbrli:measure></xbrli:unit>
<xbrli:unit id="v"><xbrli:measure>iso4217:EUR</xbrli:measure></xbrli:unit>
</ix:resources></ix:header>
<p>${facts}</p></body></html>`;

  it("SPEC §4.8 a NetAssetsLiabilities in a namespace that is not an accounts taxonomy (bound to the prefix core:) is not net assets; the FRC core bound to uk: is read; money:GBP is GBP, and iso4217: bound elsewhere is no currency", () => {
    const a = readAccounts(
      doc(`<ix:nonFraction name="core:NetAssetsLiabilities" contextRef="i" unitRef="v">999</ix:nonFraction>
<ix:nonFraction name="uk:Equity" contextRef="i" unitRef="u">500</ix:nonFraction>`),
    );
    expect(a.current.figures.netAssets).toBe(500);
    expect(a.current.netAssetsFrom).toMatchObject({ rule: 2, concept: "Equity" });
    expect(a.current.evidence.netAssets).toMatchObject({ concept: "uk:Equity", text: "500" });
    expect(a.currency).toBe("GBP");
    expect(a.warnings).toEqual([]);
  });

  it("SPEC §4.8 the order: the tagged line before total equity, total equity before TALCL, components never summed, nothing when none applies", () => {
    const blank = Object.fromEntries(FIGURE_NAMES.map((n) => [n, null])) as Figures;
    const net = (figures: Partial<Figures>) => deriveNetAssets({ figures: { ...blank, ...figures }, evidence: {} });
    expect(net({ netAssets: 10, equity: 12, totalAssetsLessCurrentLiabilities: 40, creditorsAfterOneYear: 30 })).toMatchObject({
      value: 10,
      from: { rule: 1 },
    });
    expect(net({ equity: 12, totalAssetsLessCurrentLiabilities: 40, creditorsAfterOneYear: 30 })).toMatchObject({ value: 12, from: { rule: 2 } });
    expect(net({ totalAssetsLessCurrentLiabilities: 40, creditorsAfterOneYear: 30, accrualsDeferredIncome: 2.5 })).toEqual({
      value: 7.5,
      from: { rule: 3, concept: "TotalAssetsLessCurrentLiabilities", deducted: ["creditorsAfterOneYear", "accrualsDeferredIncome"], notTagged: ["provisions"] },
    });
    expect(net({ shareCapital: 100, reserves: 900 })).toBeNull();
    expect(net({})).toBeNull();
  });
});
