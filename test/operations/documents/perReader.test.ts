import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkCarbonReductionPlan } from "../../../src/operations/documents/checkCarbonReductionPlan";
import { execute } from "../../../src/platform/gateway";
import { buildServices } from "../../../src/platform/services";
import { UpstreamError } from "../../../src/shared/errors";
import { balanceOf, call, createTestKey, json } from "../../helpers";
import { load } from "../registers/registerData";

/**
 * Issue 17 §3–4 over HTTP: each reader on a real document first (../shared/corpora, skipped without it), then on the
 * fixtures that stand for formats with no real sample here; the charity register's trustee count; crp-check from a
 * plan, from a homepage, and with no plan to find.
 */
const get = (path: string, url: string, key: string) => call(`/api/v1/${path}?${new URLSearchParams({ url })}`, { key });
const post = (path: string, body: unknown, key: string) =>
  call(`/api/v1/${path}`, { method: "POST", key, body: JSON.stringify(body), headers: { "content-type": "application/json" } });
const shared = (p: string) => `http://shared.test/corpora/${p}`;
afterEach(() => vi.restoreAllMocks());

describe.skipIf(!env.SHARED_PRESENT)("the readers on real documents (../shared/corpora)", () => {
  it("modern-slavery, EDAN's 2024 statement (PDF): signed by a UK General Manager, who is not a director: sign-off does not meet s.54(6); the signer's name is never given", async () => {
    const { key, keyId } = await createTestKey();
    const r = await get("modern-slavery", shared("modern-slavery/statements/edan-uk-mss-2024.pdf"), key);
    const text = await r.text();
    expect(r.status, text.slice(0, 300)).toBe(200);
    const body = JSON.parse(text);
    expect(body.signature.value).toMatchObject({ role: "UK General Manager", qualifies: false });
    expect(body.signature.evidence.page).toBe(2);
    expect(body.signOff.verdict).toBe("does_not_meet");
    expect(body.read).toMatchObject({ format: "pdf", pages: 2, cut: false });
    expect(text).not.toMatch(/Juby/i);
    expect(await balanceOf(keyId)).toBe(97);
  });

  it("modern-slavery, Cwiri's statement (HTML): approved by the board and signed by a director: meets", async () => {
    const { key } = await createTestKey();
    const body = await json(await get("modern-slavery", shared("modern-slavery/statements/cwiri-mss-2026.html"), key));
    expect(body.approval.value).toMatchObject({ by: "board_of_directors" });
    expect(body.signature.value).toMatchObject({ qualifies: true });
    expect(body.signOff.verdict).toBe("meets");
    expect(body.document.title).toBe("Cwiri | Modern Slavery Statement 2026");
  });

  it("ofsted-report, Farnham Heath End 2016 (PDF, graded table): Requires improvement overall, on page 1, with the inspection dates", async () => {
    const { key } = await createTestKey();
    const body = await json(await get("ofsted-report", shared("ofsted/farnham-heath-end-school-2016-s5.pdf"), key));
    expect(body.format.value).toBe("graded-table-to-2019");
    expect(body.overallEffectiveness.value).toMatchObject({ grade: "Requires improvement", gradeNumber: 3 });
    expect(body.overallEffectiveness.evidence.page).toBe(1);
    expect(body.inspectionDates.value).toEqual({ from: "2016-02-09", to: "2016-02-10" });
    expect(body.gradedAreas.length).toBeGreaterThanOrEqual(4);
    expect(body.read).toMatchObject({ format: "pdf", pages: 10 });
  });

  it("charity-report, the UK Python Association's CC16a accounts (PDF): receipts and payments, the year, the number; a number not on our register says so", async () => {
    const { key } = await createTestKey();
    const body = await json(await get("charity-report", shared("charity/ukpa-cc16a-receipts-payments-latest.pdf"), key));
    expect(body.charity.financialYear.value).toEqual({ start: "2024-04-01", end: "2025-03-31" });
    expect(body.finances.basis.value ?? body.finances.basis).toBeTruthy();
    expect(body.finances.expenditure.value.amount).toBe(2454);
    expect(body.document).toMatchObject({ title: null, url: shared("charity/ukpa-cc16a-receipts-payments-latest.pdf") });
    expect(body.register.charityNumber).toBe("173471");
    expect(body.register.found === false || body.register.found === null).toBe(true);
  });

  it("crp-check, Apexiar's plan (PDF): seven of eight parts; Scope 3 categories 4 and 9 missing; form only", async () => {
    const { key, keyId } = await createTestKey({ plan: "starter", credits: 100 });
    const r = await get("crp-check", shared("carbon-reduction-plans/apexiar-crp.pdf"), key);
    const body = await json(r);
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ found: true, foundFrom: null, company: "Apexiar Limited", partsMet: 7, partsTotal: 8, meetsTemplate: false });
    expect(body.parts.scope3Categories).toMatchObject({ found: false, status: "not_found" });
    expect(body.scope3Found).toEqual(["1", "5", "6", "7", "8"]);
    expect(body.gaps.length).toBe(1);
    expect(body.notice).toMatch(/never judges whether the figures are right/);
    expect(await balanceOf(keyId, { plan: "starter", credits: 100 })).toBe(96);
  });
});

describe("the CQC reader on the regulator's own pages (fixtures: no real CQC report is in ../shared)", () => {
  it("a location page on the CQC's site (HTML): overall and the five key questions, the provider; the registered manager's name never given", async () => {
    const { key } = await createTestKey();
    const r = await get("cqc-report", "https://www.cqc.test/location/1-123456789", key);
    const text = await r.text();
    expect(r.status, text.slice(0, 300)).toBe(200);
    const body = JSON.parse(text);
    expect(body.overallRating.value.rating).toBe("Requires improvement");
    expect(Object.keys(body.keyQuestions)).toEqual(["safe", "effective", "caring", "responsive", "wellLed"]);
    expect(body.keyQuestions.safe.value.rating).toBe("Inadequate");
    expect(body.provider.name.value).toBe("Sunrise Living Care Limited");
    expect(body.read).toMatchObject({ format: "html" });
    expect(text).not.toMatch(/Gail Hartley|Helen Carver/);
  });

  it("the report the page links to (PDF), by POST {url}: the same ratings, dates and enforcement, each quoted with its page", async () => {
    const { key } = await createTestKey();
    const body = await json(await post("cqc-report", { url: "https://www.cqc.test/sites/default/files/new_reports/AAAH1234.pdf" }, key));
    expect(body.read).toMatchObject({ from: "url", format: "pdf" });
    expect(body.overallRating.value.rating).toBe("Requires improvement");
    expect(body.overallRating.evidence.page).toBeGreaterThanOrEqual(1);
    expect(body.enforcement.length).toBeGreaterThan(0);
    expect(body.publicationDate.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("charity-report: the trustee count our charity register lists (SPEC §4.3)", () => {
  beforeAll(() => load("charity"));

  it("a report giving a registered number: the register's trustee count, counted, never named", async () => {
    const { key } = await createTestKey();
    const text = `Riverside Community Trust\nTrustees' Annual Report for the year ended 31 March 2025\nRegistered charity number 1100001\n\nObjectives and activities\nThe charity runs a food bank and advice sessions for families in the town. We helped 1,240 people this year.\n\nFinancial review\nTotal income for the year was £84,500 and total expenditure was £79,200.\n`;
    const r = await post("charity-report", { text }, key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.charity.charityNumber.value).toBe("1100001");
    expect(body.register).toMatchObject({ charityNumber: "1100001", found: true, trusteeCount: 3 });
    expect(body.register.note).toMatch(/counted, never named/);
  });

  it("a Scottish number is not looked up on the Charity Commission's register, and says why", async () => {
    const { key } = await createTestKey();
    const text = `Glen Trust\nTrustees' report and accounts for the year ended 31 March 2025\nScottish Charity Number SC041877\n\nTotal income was £12,000 and total expenditure £11,000.\n`;
    const body = await json(await post("charity-report", { text }, key));
    expect(body.register).toMatchObject({ charityNumber: "SC041877", found: null, trusteeCount: null });
    expect(body.register.note).toMatch(/not an England and Wales charity number/);
  });
});

describe("issue 28 §3, charity-report (SPEC §4.3): the real forms of a trustees' report are read and charged; what is not a report is refused with 422, uncharged", () => {
  beforeAll(() => load("charity"));
  const forms = async (name: string) => (await fetch(`http://files.test/documents/charity-forms/${name}`)).text();

  it("the issue's plain-prose report (\"Annual Report and Financial Statements … Registered charity number 1100001 … Trustees … Financial review\"): read as a trustees' report, its number found and looked up, 3 credits", async () => {
    const { key, keyId } = await createTestKey();
    const r = await post("charity-report", { text: await forms("riverside-plain-2025.txt") }, key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    expect(body.recognition).toMatchObject({ recognised: true, parts: ["a trustees' report", "accounts"] });
    expect(body.charity.charityNumber.value).toBe("1100001");
    expect(body.register).toMatchObject({ charityNumber: "1100001", found: true });
    expect(body.finances.income.value.amount).toBe(84_500);
    expect(body.summary).not.toMatch(/not a trustees' report|no charity number/i);
    expect(await balanceOf(keyId)).toBe(97);
  });

  it('the Charity Commission\'s CC17a form, as text: the number after "Registered charity number (if any)", looked up on the register', async () => {
    const { key } = await createTestKey();
    const body = await json(await post("charity-report", { text: (await forms("hilltop-cc17a-2025.pages.txt")).replace(/\f/g, "\n") }, key));
    expect(body.charity.charityNumber.value).toBe("1150002");
    expect(body.register).toMatchObject({ charityNumber: "1150002", found: true, name: "Hilltop Youth Music CIO" });
  });

  it("a charity's modern slavery statement (POST text) and its 'About us' page (GET url) name the charity but are not reports: 422 unreadable_input saying why, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    const a = await post("charity-report", { text: await forms("not-a-report-ms-statement.txt") }, key);
    const ab = await json(a);
    expect(a.status, JSON.stringify(ab).slice(0, 300)).toBe(422);
    expect(ab).toMatchObject({
      code: "unreadable_input",
      message: expect.stringMatching(/^The document does not read as a charity's trustees' report or accounts: it has none of the parts of one/),
    });
    const b = await get("charity-report", "http://files.test/documents/charity-forms/not-a-report-about-page.html", key);
    expect(b.status).toBe(422);
    expect((await json(b)).code).toBe("unreadable_input");
    expect(await balanceOf(keyId)).toBe(100);
  });

  it.skipIf(!env.SHARED_PRESENT)("real documents of other kinds (an Ofsted report, a carbon reduction plan): 422, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    for (const p of ["ofsted/farnham-heath-end-school-2016-s5.pdf", "carbon-reduction-plans/apexiar-crp.pdf"]) {
      const r = await get("charity-report", shared(p), key);
      const body = await json(r);
      expect(r.status, p).toBe(422);
      expect(body.message, p).toMatch(/does not read as a charity's trustees' report or accounts/);
    }
    expect(await balanceOf(keyId)).toBe(100);
  });
});

describe("crp-check (SPEC §4.4): from a plan or a homepage, at most three pages followed", () => {
  it("issue 28 §3: Calder Facilities Ltd's homepage leads to a plan naming Northwold Facilities Services Ltd: not the supplier's plan (found and meetsTemplate false), said in a field and in the reading; every page read listed; 4 credits (paid plan)", async () => {
    const { key, keyId } = await createTestKey({ plan: "starter", credits: 100 });
    const r = await get("crp-check", "https://supplier.test/", key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    // The plan names another organisation than the site's (Calder Facilities Ltd, company number 05123987): it is not
    // presented as the supplier's, and its eight parts are not counted for it.
    expect(body).toMatchObject({ found: false, url: null, foundFrom: null, company: null, meetsTemplate: false, partsMet: 0, organisation: null, read: null });
    expect(body.otherOrganisationPlans).toEqual([
      {
        url: "https://supplier.test/docs/carbon-reduction-plan.pdf",
        company: "Northwold Facilities Services Ltd",
        companyNumber: null,
        note: expect.stringMatching(/Northwold Facilities Services Ltd.*Calder Facilities Ltd \(company number 05123987\).*another organisation/),
      },
    ]);
    expect(body.reading).toMatch(
      /^No carbon reduction plan of Calder Facilities Ltd \(company number 05123987\) was found\. The plan the site links to names another organisation: Northwold Facilities Services Ltd/,
    );
    expect(body.reading).not.toMatch(/meets the template|8 of the 8/);
    expect(body.gaps).toEqual([expect.stringMatching(/^No carbon reduction plan of Calder Facilities Ltd .*Publish Calder Facilities Ltd's own plan/)]);
    // The footer's off-site copy is ranked first (its words name the plan) and cannot be fetched: listed with its
    // reason; the sustainability page is not the plan but links it; three pages followed in all.
    expect(body.pagesRead.map((p: { url: string; role: string; plan: boolean }) => [p.url, p.role, p.plan])).toEqual([
      ["https://supplier.test/", "asked", false],
      ["https://cdn.calder-fm.test/docs/Calder-Carbon-Reduction-Plan.pdf", "candidate", false],
      ["https://supplier.test/sustainability", "candidate", false],
      ["https://supplier.test/docs/carbon-reduction-plan.pdf", "candidate", false],
    ]);
    expect(body.pagesRead[1].reason).toBeTruthy();
    expect(body.pagesRead[3].reason).toMatch(
      /^It is a carbon reduction plan of another organisation, not the supplier's: the plan names Northwold Facilities Services Ltd/,
    );
    expect(await balanceOf(keyId, { plan: "starter", credits: 100 })).toBe(96);
  });

  it("issue 28 §3: a site linking a buying group's plan (another company number) first and its own plan second: its own plan is the one checked, the group's listed apart", async () => {
    const { key } = await createTestKey({ plan: "starter", credits: 100 });
    const r = await get("crp-check", "https://supplier2.test/wharfedale.html", key);
    const body = await json(r);
    expect(r.status, JSON.stringify(body).slice(0, 400)).toBe(200);
    expect(body).toMatchObject({
      found: true,
      url: "https://supplier2.test/wharfedale/carbon-reduction-plan",
      foundFrom: "https://supplier2.test/wharfedale.html",
      company: "Wharfedale Office Cleaning Ltd",
      meetsTemplate: true,
      partsMet: 8,
    });
    expect(body.organisation).toMatchObject({
      match: "same",
      plan: { name: "Wharfedale Office Cleaning Ltd" },
      site: { url: "https://supplier2.test/wharfedale.html", names: ["Wharfedale Office Cleaning Ltd"], companyNumbers: ["11223344"] },
    });
    expect(body.otherOrganisationPlans).toEqual([
      {
        url: "https://supplier2.test/wharfedale/group-carbon-reduction-plan",
        company: "Aire Valley Purchasing Group Ltd",
        companyNumber: "02468101",
        note: expect.stringMatching(/company number 02468101.*11223344.*another organisation/),
      },
    ]);
    expect(body.pagesRead.map((p: { url: string; plan: boolean }) => [p.url, p.plan])).toEqual([
      ["https://supplier2.test/wharfedale.html", false],
      ["https://supplier2.test/wharfedale/group-carbon-reduction-plan", false],
      ["https://supplier2.test/wharfedale/carbon-reduction-plan", true],
    ]);
    expect(body.reading).toMatch(/^Wharfedale Office Cleaning Ltd's carbon reduction plan \(dated 1 October 2026\) has 8 of the 8 parts/);
  });

  it("a plan asked for by its own address: the organisation is not compared (not_checked), and says why", async () => {
    const { key } = await createTestKey({ plan: "starter", credits: 100 });
    const body = await json(await get("crp-check", "https://supplier.test/docs/carbon-reduction-plan.pdf", key));
    expect(body).toMatchObject({
      found: true,
      company: "Northwold Facilities Services Ltd",
      meetsTemplate: true,
      organisation: { match: "not_checked", site: null },
      otherOrganisationPlans: [],
    });
    expect(body.organisation.note).toMatch(/address given is the plan itself/);
  });

  it('an upstream failing while a candidate is fetched (the DNS resolver): 503 with the credits given back, never "no plan found"', async () => {
    const real = buildServices(env as never).web;
    const web = {
      fetch: async (url: string, opts?: Parameters<typeof real.fetch>[1]) => {
        if (url.includes("cdn.calder-fm.test")) throw new UpstreamError("dns", "unreachable", "The DNS resolver could not be reached.");
        return real.fetch(url, opts);
      },
    };
    const { key, keyId } = await createTestKey();
    const out = await execute(
      env,
      checkCarbonReductionPlan as never,
      { url: "https://supplier.test/" },
      { requestId: "req_crp503", headers: new Headers(), ip: "192.0.2.10", apiKey: key, waitUntil: () => {}, services: { web } },
    );
    expect(out.status, JSON.stringify(out.body).slice(0, 300)).toBe(503);
    expect(out.body).toMatchObject({ code: "upstream_unavailable" });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("a homepage with no plan and no candidate link: found false with the gap said, charged (an answer); 8 credits on the free plan", async () => {
    const { key, keyId } = await createTestKey();
    const r = await get("crp-check", "https://supplier2.test/", key);
    const body = await json(r);
    expect(r.status).toBe(200);
    expect(body).toMatchObject({ found: false, url: null, partsMet: 0, meetsTemplate: false, read: null });
    expect(body.gaps[0]).toMatch(/No carbon reduction plan was found/);
    expect(Object.values(body.parts).every((p) => (p as { found: boolean }).found === false)).toBe(true);
    expect(await balanceOf(keyId)).toBe(92);
  });

  it("a page that cannot be fetched: 422; a private address: 400 in validation (issue 29 §3); naming url, nothing charged", async () => {
    const { key, keyId } = await createTestKey();
    for (const [url, status] of [
      ["https://supplier.test/missing", 422],
      ["http://10.0.0.1/crp.pdf", 400],
    ] as const) {
      const r = await get("crp-check", url, key);
      const body = await json(r);
      expect(r.status, url).toBe(status);
      expect(body.message).toBeTruthy();
    }
    expect(await balanceOf(keyId)).toBe(100);
  });
});
