import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { deepHtml, deepXml, wideHtml } from "../../../scripts/hostile/html.mjs";
import { htmlBlocks } from "../../../src/services/documents/blocks";
import { checkCarbonPlan } from "../../../src/services/documents/carbonPlan";
import { readCharityReport } from "../../../src/services/documents/charityReport";
import { readCqcReport } from "../../../src/services/documents/cqc";
import { docFromHtml } from "../../../src/services/documents/document";
import { Reading } from "../../../src/services/documents/evidence";
import { readModernSlavery } from "../../../src/services/documents/modernSlavery";
import { readOfstedReport } from "../../../src/services/documents/ofsted";
import { rankedPlanLinks, siteIdentity } from "../../../src/services/documents/planLinks";
import { offeringsOf } from "../../../src/services/enrich/site";
import { HTML_LIMITS_TEXT, MAX_HTML_CHARS, MAX_HTML_DEPTH, MAX_HTML_ELEMENTS, MAX_HTML_PARTS, checkHtml, walkNodes } from "../../../src/services/html/parse";
import { extractLogos } from "../../../src/services/logo/extractLogos";
import { readLlmsTxt, readPage as readAiPage } from "../../../src/services/web/aiVisibility";
import { readBrandPage } from "../../../src/services/web/brandKit";
import { fontFaces, fontStacks, importsOf } from "../../../src/services/web/css";
import { statedAddresses, statedCompanyNumbers } from "../../../src/services/web/disclosures";
import { visibleText } from "../../../src/services/web/domText";
import { jsonLdBlocks, readJsonLd } from "../../../src/services/web/jsonLd";
import { readPage } from "../../../src/services/web/siteLinks";
import { readSitemap } from "../../../src/services/web/sitemap";
import { InputError } from "../../../src/shared/errors";
import { cpuNow } from "../../support/cpuClock";

/**
 * Issue 29 §1: no page a caller can give holds the isolate. Before: a page of 200,000 nested <div>s answered 500 after
 * 76 s (the page walk recursed once per level), 1,000,000 levels held the server for 8 minutes (htmlparser2's Parser
 * adds each open element at the front of an array: its time grows with the square of the depth), and patterns that
 * backtrack (an unclosed `<script`, `<!--`, `@font-face{`, `[`) took minutes on a few hundred kilobytes. Now every
 * reader of a caller's HTML parses within counted limits (services/html/parse.ts) and refuses beyond them with 422
 * `unreadable_input` naming the limit, walks iteratively, and scans forward.
 */
const U = "https://www.example.co.uk/";
const TODAY = "2026-11-25";

/** How long `f` takes, in ms. */
function timed(f: () => unknown): number {
  const t0 = cpuNow();
  f();
  return cpuNow() - t0;
}

/** `f` throws 422 `unreadable_input` whose message matches `message`, within `ms`. */
function refuses(f: () => unknown, message: RegExp, ms = 3_000) {
  let thrown: unknown = null;
  const took = timed(() => {
    try {
      f();
    } catch (e) {
      thrown = e;
    }
  });
  expect(thrown, "expected a refusal").toBeInstanceOf(InputError);
  expect((thrown as InputError).code).toBe("unreadable_input");
  expect((thrown as InputError).message).toMatch(message);
  expect(took).toBeLessThan(ms);
}

/** Every reader of a caller's HTML, as the operations call it. */
const HTML_READERS: [string, (html: string) => unknown][] = [
  ["htmlBlocks (the document readers)", htmlBlocks],
  ["readPage (website-legal, enrichment, crp-check)", (h) => readPage(h, U)],
  ["aiVisibility readPage", (h) => readAiPage(h, U)],
  ["readBrandPage (brand-kit)", (h) => readBrandPage(h, U)],
  ["extractLogos (company-logo)", (h) => extractLogos(h, U)],
  ["rankedPlanLinks (crp-check)", (h) => rankedPlanLinks(h, U)],
  ["siteIdentity (crp-check)", (h) => siteIdentity(h, U)],
  ["offeringsOf (enrichment)", offeringsOf],
];

/** The document readers, each from its document. */
const DOCUMENT_READERS: [string, (html: string) => unknown][] = [
  ["modern-slavery", (h) => readModernSlavery(new Reading(docFromHtml(h)), { today: TODAY })],
  ["ofsted-report", (h) => readOfstedReport(new Reading(docFromHtml(h)), { today: TODAY })],
  ["cqc-report", (h) => readCqcReport(new Reading(docFromHtml(h)), { today: TODAY })],
  ["charity-report", (h) => readCharityReport(new Reading(docFromHtml(h)), { today: TODAY })],
  ["crp-check", (h) => checkCarbonPlan(new Reading(docFromHtml(h)), { today: TODAY })],
];

describe("the HTML limits (services/html/parse.ts)", () => {
  it("200,000 nested <div>s: refused at the depth limit, saying so, in well under a second, by every reader of a page", () => {
    const html = deepHtml(200_000);
    expect(html.length).toBeLessThan(MAX_HTML_CHARS);
    for (const [name, read] of [...HTML_READERS, ...DOCUMENT_READERS]) {
      const took = timed(() => expect(() => read(html), name).toThrow(/nests elements deeper than 1,000 levels/));
      expect(took, name).toBeLessThan(2_000);
    }
    refuses(() => checkHtml(html), /^The page nests elements deeper than 1,000 levels, the limit for a web page; it was not read\.$/);
  });

  it("1,000,000 nested <div>s (11 MB, under the readers' 15 MiB fetch cap): refused at once by its length", () => {
    const html = deepHtml(1_000_000);
    for (const [, read] of [...HTML_READERS, ...DOCUMENT_READERS]) refuses(() => read(html), /longer than 5,000,000 characters/, 500);
  });

  it("the same depth left open (no end tags): refused by depth too", () => {
    refuses(() => htmlBlocks(deepHtml(100_000, { close: false })), /deeper than 1,000 levels/);
  });

  it("too many elements, or too many parts (attributes, runs of text, end tags, entities): refused by the DOM readers, naming which", () => {
    refuses(() => readPage(`<body>${"<br>".repeat(MAX_HTML_ELEMENTS + 1)}</body>`, U), /more than 50,000 elements/);
    refuses(() => readPage(wideHtml(40_000), U), /more than 100,000 parts/);
    refuses(() => readPage(`<p ${Array.from({ length: MAX_HTML_PARTS }, (_, i) => `a${i}`).join(" ")}>x</p>`, U), /more than 100,000 parts/);
    refuses(() => readPage(`<body>${"<div>".repeat(900)}${"</x>x".repeat(MAX_HTML_PARTS)}`, U), /more than 100,000 parts/);
    refuses(() => readPage(`<p>${"&amp;".repeat(MAX_HTML_PARTS + 1)}</p>`, U), /more than 100,000 parts/);
    // The document readers build no DOM: the elements and parts limits are not theirs (a page of 40,000 paragraphs reads).
    expect(htmlBlocks(wideHtml(40_000)).blocks).toHaveLength(40_000);
    refuses(() => readPage(`<p>${"x".repeat(MAX_HTML_CHARS)}</p>`, U), /longer than 5,000,000 characters/);
  });

  it("a page just inside the limits reads whole: 990 levels deep, and 30,000 paragraphs", () => {
    const deep = htmlBlocks(deepHtml(MAX_HTML_DEPTH - 10));
    expect(deep.blocks.map((b) => b.text)).toEqual(["Modern slavery statement. We assess our supply chain for risks of forced labour every year."]);
    let wide: ReturnType<typeof htmlBlocks> = { title: "", blocks: [] };
    const took = timed(() => (wide = htmlBlocks(wideHtml(30_000))));
    expect(wide.blocks).toHaveLength(30_000);
    expect(took).toBeLessThan(10_000);
    // Text nested beyond the old 400-level cut of visibleText is read too.
    expect(readPage(deepHtml(900), U).text).toContain("forced labour");
    const { document } = parseHTML(deepHtml(900));
    expect(visibleText(document.body as never)).toContain("forced labour");
  });

  it("the limits are described once, for the operations' descriptions", () => {
    expect(HTML_LIMITS_TEXT).toContain("5,000,000 characters");
    expect(HTML_LIMITS_TEXT).toContain("50,000 elements");
    expect(HTML_LIMITS_TEXT).toContain("1,000 deep");
    expect(HTML_LIMITS_TEXT).toContain("100,000 parts");
  });
});

describe("real pages read as before", () => {
  // The streaming walk equals the DOM walk on every page of ../shared, every fixture and generated tag soup: test/services/documents/htmlBlocksStream.test.ts.
  it("chrome outside the main content is dropped and kept inside it, as before", () => {
    const html = `<html><head><title>T</title></head><body><header>Site menu</header><main><article><header>Statement 2026</header><p>We train staff.</p><footer>Signed by the board.</footer></article></main><footer role="contentinfo">Footer links</footer><div role="banner">Banner</div><p>Outside main.</p></body></html>`;
    expect(htmlBlocks(html).blocks.map((b) => b.text)).toEqual(["Statement 2026", "We train staff.", "Signed by the board."]);
  });

  it("walkNodes visits in document order with `leave` after the children, skipping what `enter` refuses", () => {
    const { document } = parseHTML("<div><p>a<b>b</b></p><i>c</i><p>d</p></div>");
    const seen: string[] = [];
    type N = { nodeType: number; tagName?: string; textContent: string | null; childNodes: ArrayLike<N> };
    walkNodes(
      document.querySelector("div") as unknown as N,
      (n) => {
        seen.push(n.nodeType === 3 ? n.textContent! : `<${n.tagName}>`);
        return n.tagName !== "I";
      },
      (n) => void seen.push(`</${n.tagName ?? "#text"}>`),
    );
    expect(seen).toEqual(["<P>", "a", "</#text>", "<B>", "b", "</#text>", "</B>", "</P>", "<I>", "<P>", "d", "</#text>", "</P>"]);
  });
});

describe("pages within the limits but shaped to make work per element (each was quadratic: a walk up, or a search, per element)", () => {
  /** A page `depth` levels deep with `unit` repeated `times` at the bottom. */
  const deepWide = (unit: string, times: number, depth = 950) =>
    `<html><body>${"<div>".repeat(depth)}${unit.repeat(times)}${"</div>".repeat(depth)}</body></html>`;
  const long = "A heading far longer than a tagline, ".repeat(5);
  const cases: [string, string, (h: string) => unknown][] = [
    [
      "logo images 950 deep (extractLogos walked up from each, matching a selector at every level)",
      deepWide('<img class="logo" src="/l.png">', 12_000),
      (h) => extractLogos(h, U),
    ],
    ["header chrome 950 deep (htmlBlocks: closest per element)", deepWide("<header>x</header>", 12_000), htmlBlocks],
    [
      "hero areas nested 950 deep (brand-kit's hero heading: every area's headings, each area walked up)",
      `<body>${'<div class="hero">'.repeat(950)}${`<h2>${long}</h2>`.repeat(10_000)}</body>`,
      (h) => readBrandPage(h, U),
    ],
    [
      "'Services' sections nested 950 deep (enrichment's offerings: each section's list items, each walked up)",
      `<body>${"<div><h2>Services</h2><ul><li>Home</li></ul>".repeat(950)}</body>`,
      offeringsOf,
    ],
    [
      "links nested 900 deep (crp-check's candidate links)",
      `<body>${'<a href="/carbon-reduction-plan">'.repeat(900)}carbon${"</a>".repeat(900)}${'<a href="/x">x</a>'.repeat(20_000)}</body>`,
      (h) => rankedPlanLinks(h, U),
    ],
    [
      "icon links (brand-kit's favicons and stylesheets: a search of the list per link)",
      `<head>${'<link rel="icon" href="/i.png"><link rel="stylesheet" href="/s.css"><script src="/s.js"></script>'.repeat(9_000)}</head>`,
      (h) => readBrandPage(h, U),
    ],
  ];
  for (const [title, html, read] of cases)
    it(title, () => {
      expect(() => checkHtml(html)).not.toThrow();
      const took = timed(() => read(html));
      expect(took).toBeLessThan(8_000);
    });
});

describe("patterns that backtracked, now forward scans (same answers, time in proportion to the text)", () => {
  const n = 600_000;
  const fill = (s: string) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
  const cases: [string, () => unknown][] = [
    ["JSON-LD blocks: unclosed <script", () => jsonLdBlocks(fill("<script"))],
    ["JSON-LD blocks: unclosed <script>", () => readJsonLd(fill("<script>"))],
    [
      "JSON-LD: a name nested 300,000 arrays deep",
      () => readJsonLd(`<script type="application/ld+json">{"@type":"Organization","name":${"[".repeat(300_000)}"x"${"]".repeat(300_000)}}</script>`),
    ],
    ["sitemap: unclosed <!--", () => readSitemap(fill("<!--"))],
    ["sitemap: unclosed <?", () => readSitemap(fill("<?"))],
    ["sitemap: unclosed <url><loc>", () => readSitemap(`<urlset>${fill("<url><loc>https://www.example.co.uk/page</loc>")}</urlset>`)],
    ["sitemap: nested 100,000 deep", () => readSitemap(deepXml(100_000))],
    ["CSS: unclosed @font-face{", () => [fontFaces(fill("@font-face{"), U), fontStacks(fill("@font-face{"))]],
    ["CSS: @import with no ;", () => importsOf(fill("@import a "), U)],
    ["llms.txt: unclosed [", () => readLlmsTxt(fill("["))],
    ["llms.txt: unclosed [a](b", () => readLlmsTxt(fill("[a](b"))],
    ["crp-check's site identity: <meta with no >", () => siteIdentity(`<html><body><p>x</p></body></html><!--${fill("<meta ").slice(0, 190_000)}-->`, U)],
    ["quotes around company numbers in a text with no line breaks", () => statedCompanyNumbers(fill("Company number 01234567 "))],
    ["addresses in a text with no line breaks", () => statedAddresses(fill("Registered office: 1 High St, London SW1A 1AA. "))],
  ];
  for (const [title, run] of cases)
    it(title, () => {
      const took = timed(run);
      expect(took).toBeLessThan(3_000);
    });

  it("the sitemap read is unchanged: prolog, comments, namespaces, an unclosed entry, an entry without <loc>", () => {
    const xml = `\uFEFF<?xml version="1.0"?><!-- a <url> in a comment --><!DOCTYPE urlset><ns:urlset xmlns:ns="x"><ns:url><ns:loc>https://a.test/1</ns:loc><ns:lastmod>2026-01-02T00:00:00Z</ns:lastmod></ns:url><url><lastmod>2026-01-01</lastmod></url><url ><loc> https://a.test/&amp;2 </loc></url><url><loc>https://a.test/3</loc>`;
    expect(readSitemap(xml)).toEqual({
      kind: "urlset",
      root: "ns:urlset",
      entries: [
        { loc: "https://a.test/1", lastmod: "2026-01-02" },
        { loc: "https://a.test/&2", lastmod: null },
      ],
    });
    expect(readSitemap(deepXml(50)).entries.map((e) => e.loc)).toEqual(["https://www.example.co.uk/deep", "https://www.example.co.uk/"]);
  });

  it("JSON-LD blocks keep their lines; llms.txt links are counted as before", () => {
    const html = `<html>\n<head>\n<script type="application/ld+json">{"@type":"Organization","name":"Acme Ltd"}</script>\n<script>var x = 1;</script>\n\n<script type='application/ld+json; charset=utf-8'>[]</script>\n<script type="application/ld+json">`;
    expect(jsonLdBlocks(html).map((b) => [b.index, b.line])).toEqual([
      [1, 3],
      [2, 6],
    ]);
    expect(readJsonLd(html).organisations.map((o) => o.name)).toEqual(["Acme Ltd"]);
    // The pattern it replaces, on a text small enough for it.
    const LINK = /\[[^\]\n]*\]\(\s*[^)\s]+[^)]*\)/g;
    for (const text of [
      "# Acme\n> Widgets\n- [Home](https://a.test/) and [x]( y z) [bad](\n) [no](  )\n## Docs\n- [A]\n(b)",
      "[[a](b)[c](d\ne) [f](g",
      "[a]( b\nc)",
      "](x) [y](z))",
    ])
      expect(readLlmsTxt(text).links, text).toBe([...text.matchAll(LINK)].length);
  });
});
