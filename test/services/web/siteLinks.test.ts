import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { classifyLink, legalPagesToFollow, pageLinks, readPage, visibleText } from "../../../src/services/web/siteLinks";

describe("visibleText", () => {
  it("drops script, style, noscript, template, svg and hidden elements; blocks become lines", () => {
    const html = `<html><head><title>T</title><style>p{}</style><script>var x = "secret";</script></head><body>
      <p>First <b>para</b>graph</p><div>Second<br>line</div><noscript>Enable JS</noscript><template><p>tpl</p></template>
      <svg><text>svg text</text></svg><div hidden>hidden</div><span style="display: none">gone</span><span aria-hidden="true">icon</span>
      <table><tr><td>Company No.</td><td>01234567</td></tr></table><ul><li>One</li><li>Two &amp; three</li></ul></body></html>`;
    expect(visibleText(html)).toBe("First paragraph\nSecond\nline\nCompany No. 01234567\nOne\nTwo & three");
  });
});

describe("readPage title", () => {
  it("reads the <title> inside <head> of a plain page", () => {
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>Calder Facilities Ltd</title></head><body><h1>Welcome</h1></body></html>`;
    const page = readPage(html, "https://www.calder.example/");
    expect(page.title).toBe("Calder Facilities Ltd");
    expect(page.text).toBe("Welcome"); // the title is not visible text
  });

  it("decodes entities and collapses whitespace in the title", () => {
    const html = `<html><head>
      <title>
        Smith &amp; Sons &#8211; Plumbing&nbsp;&amp;
        Heating &lt;Bristol&gt;
      </title></head><body><p>Hi</p></body></html>`;
    expect(readPage(html, "https://smith.example/").title).toBe("Smith & Sons – Plumbing & Heating <Bristol>");
  });

  it("takes the document's first title, never an SVG's or a hidden template's", () => {
    const html = `<html><head><title>Real Title</title><template><title>tpl</title></template></head><body>
      <svg><title>Icon</title></svg><title>Second</title><p>Body</p></body></html>`;
    expect(readPage(html, "https://x.example/").title).toBe("Real Title");
    expect(readPage(`<html><body><svg><title>Icon</title></svg><p>No title</p></body></html>`, "https://x.example/").title).toBe("");
  });
});

describe("pageLinks and classifyLink", () => {
  const html = `<html><head><base href="https://www.example.co.uk/en/"></head><body>
    <nav><a href="/">Home</a><a href="about-us">About us</a><a href="/contact">Get in touch</a><a href="/jobs">Work for us</a></nav>
    <main><a href="/blog/post">Learn more about our approach to privacy and data in this long article</a></main>
    <footer class="footer-legal">
      <a href="/legal/privacy-policy">Privacy Policy</a>
      <a href="/cookie-policy"><span>Cookies</span></a>
      <a href="/terms-and-conditions">T&amp;Cs</a>
      <a href="/accessibility" aria-label="Accessibility statement"><img src="a.svg" alt=""></a>
      <a href="https://cdn.example.co.uk/docs/msa-2025.pdf">Modern Slavery Act statement</a>
      <a href="/legal">Legal</a>
      <a href="https://twitter.com/example">Twitter</a>
      <a href="mailto:Info@Example.co.uk?subject=Hi">Email us</a>
      <a href="tel:+441174960000">Call</a>
      <a href="#top">Top</a>
    </footer></body></html>`;
  const links = pageLinks(html, "https://www.example.co.uk/en/home");

  it("resolves against <base>, classifies by words then address, marks the footer and the site", () => {
    const by = (path: string) => links.find((l) => l.url.endsWith(path))!;
    expect(by("/en/about-us")).toMatchObject({ kinds: ["about"], inFooter: false, sameSite: true });
    expect(by("/contact").kinds).toEqual(["contact"]);
    expect(by("/jobs").kinds).toEqual(["careers"]);
    expect(by("/blog/post").kinds).toEqual(["privacy"]); // a long text names a notice only outright
    expect(by("/legal/privacy-policy")).toMatchObject({ kinds: ["privacy"], inFooter: true });
    expect(by("/cookie-policy").kinds).toEqual(["cookies"]);
    expect(by("/terms-and-conditions").kinds).toEqual(["terms"]);
    expect(by("/accessibility")).toMatchObject({ text: "Accessibility statement", kinds: ["accessibility"] });
    expect(by("/docs/msa-2025.pdf")).toMatchObject({ kinds: ["modernSlavery"], sameSite: true });
    expect(by("/legal").kinds).toEqual(["legal"]);
    expect(by("twitter.com/example")).toMatchObject({ sameSite: false, kinds: [] });
    expect(links.some((l) => /^(?:mailto|tel):|#top/.test(l.url))).toBe(false);
    expect(readPage(html, "https://www.example.co.uk/en/home").mailto).toEqual(["info@example.co.uk"]);
  });

  it("classifies by address when the words say nothing", () => {
    expect(classifyLink("Read more", "https://x.co.uk/privacy-notice")).toEqual(["privacy"]);
    expect(classifyLink("", "https://x.co.uk/modern-slavery-statement-2025/")).toEqual(["modernSlavery"]);
    expect(classifyLink("Privacy & cookies", "https://x.co.uk/privacy")).toEqual(["privacy", "cookies"]);
    expect(classifyLink("Careers", "https://x.co.uk/about/careers")).toEqual(["careers"]);
    expect(classifyLink("Shop", "https://x.co.uk/shop")).toEqual([]);
  });

  it("follows at most 5 same-site legal pages, one per kind, footer links first, never files or the page itself", () => {
    const follow = legalPagesToFollow(links, "https://www.example.co.uk/en/home");
    expect(follow).toEqual([
      { url: "https://www.example.co.uk/contact", kind: "contact" },
      { url: "https://www.example.co.uk/legal", kind: "legal" },
      { url: "https://www.example.co.uk/legal/privacy-policy", kind: "privacy" },
      { url: "https://www.example.co.uk/terms-and-conditions", kind: "terms" },
      { url: "https://www.example.co.uk/en/about-us", kind: "about" },
    ]);
    expect(legalPagesToFollow(links, "https://www.example.co.uk/en/home", 2)).toHaveLength(2);
  });

  it("same site by registrable domain, UK second-level suffixes included", () => {
    const l = pageLinks(
      `<a href="https://shop.example.org.uk/terms">Terms</a><a href="https://other.org.uk/terms">Terms</a><a href="https://www.bristol.gov.uk/privacy">Privacy</a>`,
      "https://www.example.org.uk/",
    );
    expect(l.map((x) => x.sameSite)).toEqual([true, false, false]);
  });

  it.skipIf(!SHARED_PRESENT)("reads real pages' footers (shared corpus)", async () => {
    const page = async (p: string) => readPage(await (await fetch(`http://shared.test/${p}`)).text(), "https://www.example.co.uk/statement");
    const cwiri = await page("corpora/modern-slavery/statements/cwiri-mss-2026.html");
    expect(cwiri.footerText).toContain("Registered in Scotland as Company Number SC859594");
    expect(cwiri.links.filter((l) => l.kinds.length).map((l) => l.kinds)).toEqual([["privacy", "cookies"], ["modernSlavery"]]);
    const wildfig = await page("corpora/modern-slavery/statements/wildfig-research-mss.html");
    expect(wildfig.footerText).toContain("Registered in England: 17350497");
    const kinds = wildfig.links.flatMap((l) => l.kinds);
    for (const k of ["about", "contact", "accessibility", "privacy", "cookies", "modernSlavery"]) expect(kinds).toContain(k);
    const planned = await page("corpora/modern-slavery/statements/planned-ltd-modern-slavery.html");
    expect(planned.links.find((l) => l.kinds.includes("terms"))?.text).toBe("Terms of Service");
    expect(planned.text).not.toMatch(/<script|function\s*\(/);
  });
});
