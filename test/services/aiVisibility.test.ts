import { SHARED_PRESENT } from "../support/shared";
import { describe, expect, it } from "vitest";
import {
  type AiVisibilityInput,
  type FileAnswer,
  type RegisterAnswer,
  type RenderAnswer,
  assessAiVisibility,
  childSitemaps,
  companyNumberToCheck,
  readLlmsTxt,
  readPage,
  robotsDirectives,
  robotsSection,
  sitemapFileOf,
  sitemapsToRead,
} from "../../src/services/web/aiVisibility";
import { readJsonLd } from "../../src/services/web/jsonLd";
import { comparableUrl, readSitemap, sitemapText } from "../../src/services/web/sitemap";
import { parseCompanyProfile } from "../../src/sources/companies-house/parse";

/**
 * ai-visibility's reading (SPEC §4.8), pure: the fixture sites' files (test/fixtures/hosts/aiv*.test) and real UK
 * company pages (../shared corpora, skipped without them) are fetched here by the test and handed to the service.
 */

/** A file of a fixture host, as the operation would hand it over (any status). */
async function file(url: string, answer?: Partial<FileAnswer>): Promise<FileAnswer> {
  const r = await fetch(url);
  const body = new Uint8Array(await r.arrayBuffer());
  return {
    url,
    status: r.status,
    contentType: r.headers.get("content-type") ?? "",
    text: new TextDecoder().decode(body),
    body,
    bytes: body.byteLength,
    tooLarge: false,
    error: null,
    ...answer,
  };
}

const profileOf = async (number: string) => parseCompanyProfile(await (await fetch(`https://ch.test/company/${number}`)).text());

/** Every input for one fixture site, read the way the operation reads it. */
async function inputsFor(
  host: string,
  opts: { path?: string; rendered?: RenderAnswer; xRobotsTag?: string; robots?: FileAnswer; register?: "lookup" | null } = {},
): Promise<AiVisibilityInput> {
  const origin = `https://${host}`;
  const url = `${origin}${opts.path ?? "/"}`;
  const html = (await file(url)).text!;
  const reading = readPage(html, url);
  const robots = opts.robots ?? (await file(`${origin}/robots.txt`));
  const plan = sitemapsToRead(robotsSection(robots, url), origin);
  const files = await Promise.all(plan.urls.map(async (u) => sitemapFileOf(await file(u))));
  const kids = await Promise.all(childSitemaps(files, origin).map(async (u) => sitemapFileOf(await file(u))));
  const toCheck = companyNumberToCheck(reading);
  const register: RegisterAnswer | null = toCheck && opts.register !== null ? { ...toCheck, profile: await profileOf(toCheck.number) } : null;
  return {
    page: { requestedUrl: url, url, status: 200, redirects: [], html, xRobotsTag: opts.xRobotsTag ?? null },
    reading,
    robots,
    llmsTxt: await file(`${origin}/llms.txt`),
    llmsFullTxt: await file(`${origin}/llms-full.txt`),
    sitemaps: { from: plan.from, listed: plan.urls, files: [...files, ...kids] },
    rendered: opts.rendered ?? { ok: false, reason: "no browser is configured on this server" },
    register,
  };
}

const ids = (r: ReturnType<typeof assessAiVisibility>) => r.findings.map((f) => f.id);
const byId = (r: ReturnType<typeof assessAiVisibility>, id: string) => r.findings.find((f) => f.id === id);
const crawler = (r: ReturnType<typeof assessAiVisibility>, token: string) => r.robots.crawlers.find((c) => c.token === token)!;

/** Every finding quotes evidence and says where; findings are ordered high, medium, low, info. */
function wellFormed(r: ReturnType<typeof assessAiVisibility>) {
  for (const f of r.findings) {
    expect(f.evidence.quote.trim(), f.id).not.toBe("");
    expect(f.evidence.where.trim(), f.id).not.toBe("");
    expect(f.fix.trim(), f.id).not.toBe("");
  }
  const rank = { high: 0, medium: 1, low: 2, info: 3 } as const;
  const ranks = r.findings.map((f) => rank[f.severity]);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  expect(r.score).toBeGreaterThanOrEqual(0);
  expect(r.score).toBeLessThanOrEqual(100);
  const judged = r.scoring.checks.filter((c) => c.judged);
  expect(r.score).toBe(Math.round((100 * judged.reduce((s, c) => s + c.points, 0)) / judged.reduce((s, c) => s + c.max, 0)));
}

describe("SPEC §4.8 ai-visibility: the fixture sites, one per finding", () => {
  it("a good site: robots allows everyone, llms.txt, Organization JSON-LD agreeing with the register, sitemap listing the page, good meta", async () => {
    const rendered: RenderAnswer = { ok: true, text: readPage((await file("https://aiv.test/")).text!, "https://aiv.test/").text };
    const r = assessAiVisibility(await inputsFor("aiv.test", { rendered }));
    wellFormed(r);
    expect(r.findings.filter((f) => f.severity === "high" || f.severity === "medium" || f.severity === "low")).toEqual([]);
    expect(r.score).toBe(100);
    expect(r.robots).toMatchObject({ file: "found", status: 200, sitemaps: ["https://aiv.test/sitemap.xml"] });
    expect(r.robots.crawlers).toHaveLength(12);
    expect(r.robots.crawlers.every((c) => c.page.allowed && c.home.allowed && c.group === "*")).toBe(true);
    expect(crawler(r, "GPTBot").page.decidedBy).toEqual({ line: 4, text: "Allow: /" });
    expect(r.llmsTxt).toMatchObject({
      present: true,
      title: "Hartwell Joinery",
      summary: expect.stringMatching(/^Hartwell Joinery Limited \(company number 14725836\) designs/),
      links: 5,
      sections: 2,
      full: { present: true },
    });
    expect(r.structuredData.organisations).toEqual([
      expect.objectContaining({
        block: 1,
        types: ["Organization", "HomeAndConstructionBusiness"],
        name: "Hartwell Joinery",
        legalName: "Hartwell Joinery Limited",
        logo: "https://aiv.test/images/hartwell-logo.svg",
        companyNumber: "14725836",
        companyNumberQuote: '"identifier": {"name": "Company Number", "value": "14725836"}',
        address: expect.objectContaining({ postcode: "LS11 9YJ", locality: "Leeds" }),
      }),
    ]);
    expect(r.structuredData.types).toEqual(["HomeAndConstructionBusiness", "ImageObject", "Organization", "PostalAddress", "PropertyValue", "WebSite"]);
    expect(r.business).toMatchObject({
      companyNumber: "14725836",
      foundIn: "json-ld",
      onRegister: true,
      registeredName: "HARTWELL JOINERY LIMITED",
      registeredPostcode: "LS11 9YJ",
      nameAgrees: true,
      postcodeAgrees: true,
    });
    expect(r.sitemap).toMatchObject({ from: "robots.txt", found: true, urls: 4, pageListed: true, lastmod: { earliest: "2025-06-30", latest: "2026-10-02" } });
    expect(r.indexing).toMatchObject({ noindex: false, nosnippet: false, canonical: { href: "https://aiv.test/", pointsHere: true }, canonicalLinks: 1 });
    expect(r.rendering).toMatchObject({ judged: true, ratio: 1, clientRendered: false });
    expect(r.meta).toMatchObject({ title: { verdict: "ok", length: 43 }, description: { verdict: "ok" }, lang: "en-GB", h1Count: 1 });
  });

  it("a site blocking GPTBot, ClaudeBot and CCBot by name, with noindex, googlebot nosnippet, CCBot noai, a canonical elsewhere and the X-Robots-Tag header", async () => {
    const r = assessAiVisibility(await inputsFor("aiv2.test", { xRobotsTag: "noindex, googlebot: noarchive, max-snippet: 0" }));
    wellFormed(r);
    for (const t of ["GPTBot", "ClaudeBot", "CCBot"])
      expect(crawler(r, t)).toMatchObject({ group: "own", page: { allowed: false, decidedBy: { text: "Disallow: /" } } });
    expect(crawler(r, "Googlebot")).toMatchObject({ group: "*", page: { allowed: true } });
    const training = byId(r, "robots-blocks-training")!;
    expect(training).toMatchObject({
      severity: "low",
      check: "robots",
      evidence: { quote: 'GPTBot: line 3 "Disallow: /"; ClaudeBot: line 6 "Disallow: /"; CCBot: line 9 "Disallow: /"', where: "https://aiv2.test/robots.txt" },
    });
    expect(training.message).toContain("each by a group naming it");
    expect(ids(r)).not.toContain("robots-blocks-search");
    const noindex = byId(r, "noindex")!;
    expect(noindex.severity).toBe("high");
    expect(noindex.evidence.quote).toBe('<meta name="robots" content="noindex, nofollow">; X-Robots-Tag: noindex, googlebot: noarchive, max-snippet: 0');
    expect(noindex.evidence.where).toBe("<head> of https://aiv2.test/; HTTP header of https://aiv2.test/");
    expect(r.indexing.directives).toContainEqual({
      directive: "noarchive",
      value: null,
      appliesTo: "googlebot",
      source: "header",
      quote: "X-Robots-Tag: noindex, googlebot: noarchive, max-snippet: 0",
    });
    expect(r.indexing).toMatchObject({
      noindex: true,
      nosnippet: true,
      noai: true,
      noimageai: true,
      xRobotsTag: "noindex, googlebot: noarchive, max-snippet: 0",
    });
    expect(byId(r, "nosnippet")!.message).toContain("googlebot");
    expect(byId(r, "noai")!.evidence.quote).toBe('<meta name="CCBot" content="noai, noimageai">');
    expect(byId(r, "canonical-elsewhere")!.evidence.quote).toBe('<link rel="canonical" href="https://www.aiv2.test/home">');
    expect(r.scoring.checks.find((c) => c.check === "indexing")!.points).toBe(0);
    // Title too long, description too short, two h1s; no sitemap, no llms.txt.
    expect(ids(r)).toEqual(
      expect.arrayContaining(["title-too-long", "description-length", "h1-multiple", "sitemap-missing", "llms-txt-missing", "jsonld-no-organisation"]),
    );
    expect(byId(r, "sitemap-missing")!.evidence.quote).toBe("GET https://aiv2.test/sitemap.xml → HTTP 404");
    expect(byId(r, "jsonld-no-organisation")!.evidence.quote).toBe("0 <script> elements, none of type application/ld+json");
    // The footer's number is not on the register.
    expect(r.business).toMatchObject({ companyNumber: "09990001", foundIn: "page-text", onRegister: false, nameAgrees: null });
    expect(byId(r, "company-number-not-registered")).toMatchObject({
      severity: "high",
      evidence: { quote: expect.stringContaining("Registered in England and Wales No. 09990001") },
    });
    // robots 30 less GPTBot, ClaudeBot and CCBot (1 each).
    expect(r.scoring.checks.find((c) => c.check === "robots")).toEqual({ check: "robots", points: 27, max: 30, judged: true });
  });

  it("a client-rendered site: an empty shell whose script writes the text; the rendered text shows most of it needs JavaScript", async () => {
    const rendered: RenderAnswer = {
      ok: true,
      text: "Northgate Dental Studio\nTreatments Fees Book online\nWelcome to Northgate Dental Studio, a family and cosmetic dental practice in the heart of Chester. We have looked after local families for over twenty years.\nTreatments\nCheck-ups and hygiene appointments for adults and children\nTooth whitening, composite bonding and veneers\nInvisalign clear aligners\nDental implants and bridges\nNew patients\nWe are welcoming new private patients.",
    };
    const r = assessAiVisibility(await inputsFor("aiv3.test", { rendered }));
    wellFormed(r);
    expect(r.rendering.htmlTextLength).toBe(0); // the noscript note and the script are not visible text
    expect(r.rendering).toMatchObject({ judged: true, ratio: 0, clientRendered: true });
    const f = r.findings[0];
    expect(f).toMatchObject({ id: "client-rendered", severity: "high", check: "rendering" });
    expect(f.evidence.quote).toMatch(/^without JavaScript: 0 characters \(no text\); rendered: \d+ characters \("Northgate Dental Studio Treatments/);
    expect(r.scoring.checks.find((c) => c.check === "rendering")).toEqual({ check: "rendering", points: 0, max: 15, judged: true });
    // No robots.txt (404): everything allowed, said as info.
    expect(r.robots.file).toBe("absent");
    expect(byId(r, "robots-absent")!.severity).toBe("info");
    expect(ids(r)).toContain("h1-missing");
  });

  it('without a browser the rendering is "couldn\'t tell", left out of the score, and the rest answers', async () => {
    const r = assessAiVisibility(await inputsFor("aiv3.test"));
    wellFormed(r);
    expect(r.rendering).toMatchObject({ judged: false, ratio: null, clientRendered: null, reason: "no browser is configured on this server" });
    expect(byId(r, "rendering-unknown")).toMatchObject({ severity: "info", evidence: { quote: "no browser is configured on this server" } });
    expect(r.scoring.checks.find((c) => c.check === "rendering")!.judged).toBe(false);
    expect(r.summary).toContain("Rendering could not be judged");
  });

  it("JSON-LD whose company number is registered to another name and postcode: both disagreements quoted, the register's side too", async () => {
    const r = assessAiVisibility(await inputsFor("aiv4.test"));
    wellFormed(r);
    // An array of objects; the Hotel's identifier (propertyID "Companies House", unpadded) and the Organization's companyRegistrationNumber.
    expect(r.structuredData.organisations.map((o) => [o.types, o.companyNumber])).toEqual([
      [["Hotel"], "07654321"],
      [["Organization"], "07654321"],
    ]);
    expect(r.business).toMatchObject({
      companyNumber: "07654321",
      foundIn: "json-ld",
      registeredName: "BAYSIDE HOSPITALITY LIMITED",
      jsonLdName: "Seaview Hotels",
      jsonLdPostcode: "BN3 2LR",
      registeredPostcode: "BN1 2FY",
      nameAgrees: false,
      postcodeAgrees: false,
    });
    expect(byId(r, "company-name-disagrees")).toMatchObject({
      severity: "medium",
      evidence: {
        quote: 'JSON-LD name "Seaview Hotels"; Companies House name "BAYSIDE HOSPITALITY LIMITED"',
        where: "JSON-LD block 1 (line 8) of https://aiv4.test/; Companies House company 07654321",
      },
    });
    expect(byId(r, "company-postcode-differs")).toMatchObject({
      severity: "low",
      evidence: { quote: 'JSON-LD address "2 Kingsway, Hove BN3 2LR"; Companies House registered office postcode "BN1 2FY"' },
    });
    expect(ids(r)).not.toContain("company-number-conflict"); // the footer states the same number
    expect(r.scoring.checks.find((c) => c.check === "structuredData")!.points).toBe(11); // 8 + name/url 2 + telephone/address 1; no logo, no sameAs, no agreement
  });

  it("broken JSON-LD is a finding, not a failure; a comment-wrapped block still reads; robots.txt answering 500 is unreachable: everything disallowed", async () => {
    const robots: FileAnswer = {
      url: "https://aiv5.test/robots.txt",
      status: 500,
      contentType: "text/html",
      text: "<h1>Internal Server Error</h1>",
      bytes: 30,
      tooLarge: false,
      error: null,
    };
    const r = assessAiVisibility(await inputsFor("aiv5.test", { robots }));
    wellFormed(r);
    expect(r.structuredData.blocks).toBe(2);
    expect(r.structuredData.invalidBlocks).toEqual([
      expect.objectContaining({ block: 1, line: 6, excerpt: expect.stringMatching(/^\{ "@context": "https:\/\/schema.org", "@type": "LocalBusiness"/) }),
    ]);
    expect(r.structuredData.types).toEqual(["BreadcrumbList"]);
    expect(byId(r, "jsonld-invalid")).toMatchObject({ severity: "medium", evidence: { where: "JSON-LD block 1 (line 6) of https://aiv5.test/" } });
    expect(byId(r, "jsonld-no-organisation")!.evidence.quote).toBe("JSON-LD @type: BreadcrumbList");
    expect(r.robots).toMatchObject({ file: "unreachable", status: 500 });
    expect(r.robots.meaning).toMatch(/RFC 9309 .*assume everything is disallowed/);
    expect(r.robots.crawlers.every((c) => !c.page.allowed && !c.home.allowed)).toBe(true);
    expect(r.findings[0]).toMatchObject({
      id: "robots-unreachable",
      severity: "high",
      evidence: { quote: "GET https://aiv5.test/robots.txt → HTTP 500 (text/html)" },
    });
    expect(ids(r)).not.toContain("robots-blocks-search"); // said once, as unreachable
    expect(r.scoring.checks.find((c) => c.check === "robots")!.points).toBe(0);
    // The default /sitemap.xml is an index; its children (one gzip) are read and the page is listed in CDATA without its slash.
    expect(r.sitemap).toMatchObject({ from: "default", found: true, urls: 5, pageListed: true, lastmod: { earliest: "2026-03-02", latest: "2026-08-01" } });
    expect(r.sitemap.files.map((f) => [f.url.replace("https://aiv5.test", ""), f.kind, f.entries])).toEqual([
      ["/sitemap.xml", "sitemapindex", 2],
      ["/sitemap-pages.xml", "urlset", 2],
      ["/sitemap-posts.xml.gz", "urlset", 3],
    ]);
    expect(ids(r)).toEqual(
      expect.arrayContaining(["title-too-short", "description-missing", "lang-missing", "h1-missing", "og-missing", "company-number-not-stated"]),
    );
    expect(byId(r, "company-number-not-stated")!.evidence.quote).toContain("© 2026 Fenwick Garden Services. All rights reserved.");
  });

  it("deterministic: the same inputs give the same reading", async () => {
    const a = assessAiVisibility(await inputsFor("aiv4.test"));
    const b = assessAiVisibility(await inputsFor("aiv4.test"));
    expect(b).toEqual(a);
  });
});

describe("SPEC §4.8 ai-visibility: the parts", () => {
  it("llms.txt: title, blockquote summary, links and sections; an HTML catch-all page is not an llms.txt", async () => {
    expect(
      readLlmsTxt("# Acme\n\n> Makes widgets.\n> In Leeds.\n\n## Docs\n- [A](https://a.test/a)\n- [B](/b): b\n\n## Optional\n- [C](https://a.test/c)\n"),
    ).toEqual({ title: "Acme", summary: "Makes widgets. In Leeds.", links: 3, sections: 2 });
    const input = await inputsFor("aiv.test");
    const html: FileAnswer = {
      url: "https://aiv.test/llms.txt",
      status: 200,
      contentType: "text/html; charset=utf-8",
      text: "<!DOCTYPE html><html><body>Page</body></html>",
      bytes: 45,
      tooLarge: false,
      error: null,
    };
    const r = assessAiVisibility({ ...input, llmsTxt: html });
    expect(r.llmsTxt.present).toBe(false);
    expect(byId(r, "llms-txt-missing")).toMatchObject({
      severity: "low",
      evidence: { quote: "GET https://aiv.test/llms.txt → HTTP 200 (text/html): <!DOCTYPE html><html><body>Page</body></html>" },
    });
    expect(byId(r, "llms-txt-missing")!.message).toContain("emerging convention");
    // Too large to read still means present.
    const big = assessAiVisibility({
      ...input,
      llmsFullTxt: { url: "https://aiv.test/llms-full.txt", status: null, contentType: "", text: null, bytes: null, tooLarge: true, error: "larger" },
    });
    expect(big.llmsTxt.full).toMatchObject({ present: true, tooLarge: true });
  });

  it("robots meta and X-Robots-Tag directives: agents, values with colons, none", () => {
    expect(robotsDirectives("googlebot: noindex, nofollow", "all")).toEqual([
      { agent: "googlebot", directive: "noindex", value: null },
      { agent: "googlebot", directive: "nofollow", value: null },
    ]);
    expect(robotsDirectives("max-snippet: 0, unavailable_after: 2026-12-01", "all")).toEqual([
      { agent: "all", directive: "max-snippet", value: "0" },
      { agent: "all", directive: "unavailable_after", value: "2026-12-01" },
    ]);
    expect(robotsDirectives("NONE", "bingbot")).toEqual([{ agent: "bingbot", directive: "none", value: null }]);
  });

  it("JSON-LD: @graph, arrays, nested nodes, @id references merged, CDATA wrappers, and numbers that are not company numbers", () => {
    const html = `<script type='application/ld+json; charset=utf-8'>//<![CDATA[
      {"@context":"https://schema.org","@type":"WebPage","publisher":{"@type":"schema:Corporation","@id":"#org","name":"Acme Widgets Ltd","identifier":"GB123456789"}}
    //]]></script>
    <script type="application/ld+json">{"@graph":[{"@id":"#org","@type":"Corporation","logo":{"@id":"#logo"},"taxID":"01234567","leiCode":"213800ABCDEF12345678"},{"@id":"#logo","@type":"ImageObject","contentUrl":"https://a.test/l.png"}]}</script>
    <script type="text/javascript">var x = {"@type":"Organization"};</script>`;
    const j = readJsonLd(html);
    expect(j.blocks.map((b) => [b.index, b.line])).toEqual([
      [1, 1],
      [2, 4],
    ]);
    expect(j.invalid).toEqual([]);
    expect(j.organisations).toHaveLength(1);
    expect(j.organisations[0]).toMatchObject({
      types: ["Corporation"],
      name: "Acme Widgets Ltd",
      logo: "https://a.test/l.png",
      companyNumber: "01234567",
      companyNumberQuote: '"taxID": "01234567"',
    });
    expect(j.organisations[0].identifiers.map((i) => i.property)).toEqual(["identifier", "leiCode", "taxID"]);
    // A VAT-like identifier alone is no company number.
    expect(
      readJsonLd(`<script type="application/ld+json">{"@type":"Organization","name":"X","identifier":"GB123456789","vatID":"GB123456789"}</script>`)
        .organisations[0].companyNumber,
    ).toBeNull();
  });

  it("sitemaps: urlset, sitemapindex, prefixed names, entities and CDATA, gzip, and pages that are not sitemaps", () => {
    expect(
      readSitemap(
        `<?xml version="1.0"?><ns:urlset xmlns:ns="http://www.sitemaps.org/schemas/sitemap/0.9"><ns:url><ns:loc>https://a.test/?a=1&amp;b=2</ns:loc><ns:lastmod>2026-01-02T00:00:00Z</ns:lastmod></ns:url></ns:urlset>`,
      ),
    ).toEqual({
      kind: "urlset",
      root: "ns:urlset",
      entries: [{ loc: "https://a.test/?a=1&b=2", lastmod: "2026-01-02" }],
    });
    expect(readSitemap("<!DOCTYPE html><html><body>Not found</body></html>")).toEqual({ kind: "not-a-sitemap", root: "html", entries: [] });
    expect(comparableUrl("HTTPS://A.test/x/#top")).toBe(comparableUrl("http://a.test/x"));
    const gz = Uint8Array.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0]); // an empty gzip member
    expect(sitemapText(gz, "")).toEqual({ text: "" });
    const bomb = Uint8Array.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f]); // states 2 GiB inflated
    expect(sitemapText(bomb, "")).toEqual({ tooLarge: true });
  });
});

describe("SPEC §4.8 ai-visibility on real UK company pages (../shared corpora)", () => {
  const real = async (path: string) => {
    const r = await fetch(`http://shared.test/corpora/${path}`);
    expect(r.status).toBe(200);
    return readPage(await r.text(), `https://example.co.uk/${path.split("/").pop()}`);
  };

  it.skipIf(!SHARED_PRESENT)("a modern slavery statement page: its stated company number (SC), title, description, lang and h1, and no JSON-LD", async () => {
    const p = await real("modern-slavery/statements/cwiri-mss-2026.html");
    expect(p.statedNumbers.map((s) => s.number)).toEqual(["SC859594"]);
    expect(p.statedNumbers[0].quote).toContain("Company Number SC859594");
    expect(p.title.text).toBe("Cwiri | Modern Slavery Statement 2026");
    expect(p.description.text).toBe("Cwiri Ltd Modern Slavery Statement for the financial year 1 September 2025 to 31 August 2026.");
    expect(p).toMatchObject({ lang: "en", h1: [expect.any(String)] });
    expect(p.jsonLd.blocks).toEqual([]);
    expect(p.text).not.toMatch(/createElement|function\s*\(/); // script bodies are not visible text
    expect(p.textLength).toBeGreaterThan(2000);
  });

  it.skipIf(!SHARED_PRESENT)(
    "a carbon reduction plan and a statement from one company: canonical, OpenGraph, robots meta index,follow and the company number",
    async () => {
      for (const path of ["carbon-reduction-plans/planned-ltd-crp.html", "modern-slavery/statements/planned-ltd-modern-slavery.html"]) {
        const p = await real(path);
        expect(
          p.statedNumbers.map((s) => s.number),
          path,
        ).toContain("08881845");
        expect(p.canonicals).toHaveLength(1);
        expect(p.canonicals[0].href).toMatch(/^https:\/\/plannedltd\.co\.uk\/(carbon-reduction-plan|modern-slavery)$/);
        expect(p.ogTitle.text).toMatch(/Planned Limited$/);
        expect(p.metaRobots).toEqual([{ name: "robots", content: "index, follow", tag: '<meta name="robots" content="index, follow">' }]);
        expect(p.lang).toBe("en");
      }
    },
  );

  it.skipIf(!SHARED_PRESENT)(
    "a research firm's statement page: the number after \"Registered in England:\" is the one to check, from the page's text",
    async () => {
      const p = await real("modern-slavery/statements/wildfig-research-mss.html");
      expect(companyNumberToCheck(p)).toEqual({ number: "17350497", foundIn: "page-text", quote: "Registered in England: 17350497" });
      expect(p.title.text).toBe("Modern slavery statement | Wild Fig Research");
      expect(p.jsonLd.organisations).toEqual([]);
      expect(p.scripts).toBeGreaterThan(0);
      expect(p.text).not.toContain("gtag(");
    },
  );
});
