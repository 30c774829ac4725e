import { visibleText } from "../../src/services/web/domText";
import { SHARED_PRESENT } from "../support/shared";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { extractLogos } from "../../src/services/logo/extractLogos";
import {
  brandColours,
  brandFonts,
  brandFromTitle,
  companyEvidence,
  cssColourProperties,
  firstSentence,
  readBrandPage,
  readManifest,
  socialProfile,
} from "../../src/services/web/brandKit";
import { statedCompanyNumbers } from "../../src/services/web/disclosures";

const text = async (url: string) => (await fetch(url)).text();

describe("brand-kit: reading a brand site's HTML (fixture brand.test)", () => {
  it("name, tagline, description, Open Graph, logos in company-logo's order", async () => {
    const html = await text("http://brand.test/");
    const page = readBrandPage(html, "https://brand.test/");
    expect(page.name).toEqual({ value: "Bramblewick Studio", source: "og:site_name" });
    // The first sentence, even though a later one has "Ltd." in it.
    expect(page.tagline).toEqual({ value: "Brand and packaging design for independent food and drink makers.", source: "meta-description" });
    expect(page.description).toMatch(/^Brand and packaging design .* sole traders alike\.$/);
    expect(page.openGraph).toEqual({
      title: "Bramblewick Studio | Brand and packaging design",
      description: "Brand and packaging design for independent food and drink makers.",
      image: "https://brand.test/assets/og-share.png",
      type: "website",
      url: "https://brand.test/",
      siteName: "Bramblewick Studio",
      twitterCard: "summary_large_image",
      twitterSite: "@bramblewick",
    });
    expect(page.logos).toEqual(extractLogos(html, "https://brand.test/"));
    expect(page.logos.map((l) => l.source)).toEqual(["logo-image", "app-icon", "icon", "icon", "social-image"]);
  });

  it("icons: favicons incl. shortcut icon, apple-touch icon, mask icon with its colour, the manifest's address", async () => {
    const page = readBrandPage(await text("http://brand.test/"), "https://brand.test/");
    expect(page.favicons).toEqual([{ url: "https://brand.test/icons/favicon.svg", type: "image/svg+xml" }, { url: "https://brand.test/favicon.ico" }]);
    expect(page.appleTouchIcons).toEqual([{ url: "https://brand.test/icons/apple-touch-icon.png", sizes: "180x180" }]);
    expect(page.maskIcon).toEqual({ url: "https://brand.test/icons/safari-pinned-tab.svg", colour: "#0a3d62" });
    expect(page.manifestUrl).toBe("https://brand.test/site.webmanifest");
  });

  it("colours the head states: theme-color (upper case normalised, the dark variant kept with its media), tile and mask-icon colours", async () => {
    const page = readBrandPage(await text("http://brand.test/"), "https://brand.test/");
    expect(page.metaColours).toEqual([
      { hex: "#0a3d62", use: "theme", source: "theme-color" },
      { hex: "#061f33", use: "theme", source: "theme-color", media: "(prefers-color-scheme: dark)" },
      { hex: "#0a3d62", use: "tile", source: "msapplication-TileColor" },
      { hex: "#0a3d62", use: "mask-icon", source: "mask-icon" },
    ]);
  });

  it("stylesheets: only same-site ones are read; web-font links read from their URLs; preloaded font files", async () => {
    const page = readBrandPage(await text("http://brand.test/"), "https://brand.test/");
    expect(page.stylesheets).toEqual(["https://brand.test/css/brand.css"]);
    expect(page.webFontLinks.map((w) => [w.provider, w.families.map((f) => f.family), w.kitId])).toEqual([
      ["google-fonts", ["Fraunces", "Inter"], undefined],
      ["adobe-fonts", [], "kqw3brx"],
    ]);
    expect(page.preloadedFonts).toEqual(["https://brand.test/fonts/bramble-sans-regular.woff2"]);
    expect(page.inlineCss).toContain("--brand-secondary: #3C6382");
  });

  it("socials: one canonical profile per network, JSON-LD sameAs first; share/intent links dropped; the personal LinkedIn only counted", async () => {
    const page = readBrandPage(await text("http://brand.test/"), "https://brand.test/");
    expect(page.socials).toEqual([
      { network: "linkedin", url: "https://www.linkedin.com/company/bramblewick-studio", source: "link" },
      { network: "x", url: "https://x.com/bramblewick", source: "link" },
      { network: "facebook", url: "https://www.facebook.com/bramblewickstudio", source: "link" },
      { network: "instagram", url: "https://www.instagram.com/bramblewickstudio", source: "json-ld" },
      { network: "youtube", url: "https://www.youtube.com/@bramblewick", source: "json-ld" },
      { network: "tiktok", url: "https://www.tiktok.com/@bramblewickstudio", source: "link" },
      { network: "github", url: "https://github.com/bramblewick", source: "link" },
      { network: "threads", url: "https://www.threads.net/@bramblewickstudio", source: "link" },
      { network: "bluesky", url: "https://bsky.app/profile/bramblewick.bsky.social", source: "link" },
      { network: "mastodon", url: "https://mastodon.social/@bramblewick", source: "link" },
    ]);
    expect(page.personalProfilesLeftOut).toBe(1);
    expect(JSON.stringify(page.socials)).not.toMatch(/\/in\/|ellen|intent|sharer|shareArticle/i);
  });

  it("the visible text carries the footer's company number for disclosures.ts, one block a line, no script or style", async () => {
    const page = readBrandPage(await text("http://brand.test/"), "https://brand.test/");
    expect(page.text).not.toMatch(/schema\.org|--brand-secondary/);
    expect(statedCompanyNumbers(page.text)).toEqual([{ number: "09182736", quote: "Registered in England and Wales, company number 09182736." }]);
    const { document } = parseHTML("<html><body><p>Company No.<b>01234567</b></p><div>Next</div><script>var x = 'Company No. 07654321'</script></body></html>");
    expect(visibleText(document.body as never)).toBe("Company No.01234567\nNext");
  });

  it("a JSON-LD organisation gives the name (no og:site_name or application-name) and its company number; a hero heading is the tagline", async () => {
    const page = readBrandPage(await text("http://brand4.test/"), "https://brand4.test/");
    expect(page.name).toEqual({ value: "Greystone Engineering", source: "json-ld" });
    // The hero's first heading is the name itself: the next one is the tagline.
    expect(page.tagline).toEqual({ value: "Precision CNC machining for aerospace and rail", source: "hero-heading" });
    expect(page.jsonLdCompanyNumbers).toEqual([{ number: "05550123", quote: '"identifier": {"name": "Company Number", "value": "05550123"}' }]);
    expect(page.socials.map((s) => [s.network, s.source])).toEqual([
      ["linkedin", "json-ld"],
      ["x", "json-ld"],
    ]);
    expect(page.personalProfilesLeftOut).toBe(1);
    // theme-color "white": named colours are read only in custom properties.
    expect(page.metaColours).toEqual([]);
  });

  it("a bare page: the title is the name, no tagline, /favicon.ico assumed, nothing else", async () => {
    const page = readBrandPage(await text("http://brand3.test/"), "https://brand3.test/");
    expect(page).toMatchObject({
      name: { value: "Hollins Joinery", source: "title" },
      tagline: null,
      description: null,
      openGraph: {},
      logos: [],
      favicons: [{ url: "https://brand3.test/favicon.ico", assumed: true }],
      appleTouchIcons: [],
      maskIcon: null,
      manifestUrl: null,
      metaColours: [],
      stylesheets: [],
      webFontLinks: [],
      socials: [],
      jsonLdCompanyNumbers: [],
    });
  });
});

describe.skipIf(!SHARED_PRESENT)("brand-kit on real UK company pages (../shared corpora)", () => {
  const read = async (path: string, pageUrl: string) => {
    const html = await text(`http://shared.test/${path}`);
    return { html, page: readBrandPage(html, pageUrl) };
  };

  it("a Scottish company's statement page: the title's brand part, light and dark theme-colours, icons, a manifest, its SC number", async () => {
    const { html, page } = await read("corpora/modern-slavery/statements/cwiri-mss-2026.html", "https://www.cwiri.co.uk/modern-slavery-statement");
    expect(page.name).toEqual({ value: "Cwiri", source: "title" });
    expect(page.tagline?.source).toBe("meta-description");
    expect(page.metaColours).toEqual([
      { hex: "#ffffff", use: "theme", source: "theme-color", media: "(prefers-color-scheme: light)" },
      { hex: "#0f172a", use: "theme", source: "theme-color", media: "(prefers-color-scheme: dark)" },
    ]);
    expect(page.favicons.map((f) => f.url.split("/").pop())).toEqual(["favicon-96x96.png", "favicon.svg", "favicon.ico"]);
    expect(page.favicons.some((f) => "assumed" in f)).toBe(false);
    expect(page.appleTouchIcons).toHaveLength(1);
    expect(page.manifestUrl).toBe("https://www.cwiri.co.uk/images/favicon-package-just-the-C/site.webmanifest");
    expect(page.stylesheets).toEqual(["https://www.cwiri.co.uk/css/style.css"]);
    expect(page.logos).toEqual(extractLogos(html, "https://www.cwiri.co.uk/modern-slavery-statement"));
    expect(statedCompanyNumbers(page.text).map((s) => s.number)).toEqual(["SC859594"]);
    // Brand colours from these alone: the declared light and dark theme colours, white kept and marked as theme.
    expect(brandColours({ meta: page.metaColours, manifest: null, cssProperties: [], rendered: null }).map((c) => [c.hex, c.use, c.source])).toEqual([
      ["#ffffff", "theme", "theme-color"],
      ["#0f172a", "theme", "theme-color"],
    ]);
  });

  it("a research firm's statement: the brand part of the title matched to the domain, Google Fonts Lexend and its weights, third-party CSS not read", async () => {
    const { page } = await read("corpora/modern-slavery/statements/wildfig-research-mss.html", "https://wildfigresearch.co.uk/modern-slavery/");
    expect(page.name).toEqual({ value: "Wild Fig Research", source: "title" });
    expect(page.webFontLinks).toEqual([
      {
        provider: "google-fonts",
        url: "https://fonts.googleapis.com/css2?family=Lexend:wght@300;400;500;600;700&display=swap",
        families: [{ family: "Lexend", weights: ["300", "400", "500", "600", "700"], italic: false }],
      },
    ]);
    // Bootstrap from a CDN is another site's stylesheet: only the site's own is read.
    expect(page.stylesheets).toEqual(["https://wildfigresearch.co.uk/assets/css/styles.css"]);
    expect(page.logos[0]).toMatchObject({ url: "https://wildfigresearch.co.uk/assets/images/wild-fig-logo.png", source: "logo-image" });
    expect(statedCompanyNumbers(page.text).map((s) => s.number)).toEqual(["17350497"]);
    const fonts = brandFonts({
      css: page.inlineCss,
      sheets: [],
      inlineBase: "https://wildfigresearch.co.uk/",
      webFontLinks: page.webFontLinks,
      preloadedFonts: [],
      pageUrl: "https://wildfigresearch.co.uk/",
      rendered: null,
    });
    expect(fonts.families).toEqual([{ family: "Lexend", sources: ["google-fonts"], weights: ["300", "400", "500", "600", "700"] }]);
  });

  it.each([
    ["corpora/modern-slavery/statements/planned-ltd-modern-slavery.html", "https://plannedltd.co.uk/modern-slavery"],
    ["corpora/carbon-reduction-plans/planned-ltd-crp.html", "https://plannedltd.co.uk/carbon-reduction-plan"],
  ])(
    "a consultancy's pages (%s): og:site_name, Open Graph, the LinkedIn company page, accreditation badges not taken as logos, one company number",
    async (path, url) => {
      const { page } = await read(path, url);
      expect(page.name).toEqual({ value: "Planned Limited", source: "og:site_name" });
      expect(page.openGraph).toMatchObject({ siteName: "Planned Limited", type: "website", image: "https://plannedltd.co.uk/images/og-image.png" });
      expect(page.socials).toEqual([{ network: "linkedin", url: "https://www.linkedin.com/company/planned-ltd", source: "link" }]);
      expect(page.logos.map((l) => l.url)).not.toContain("https://plannedltd.co.uk/images/cyber-essentials-badge.png");
      const stated = statedCompanyNumbers(page.text);
      expect(companyEvidence(stated, page.jsonLdCompanyNumbers)).toMatchObject({ kind: "one", number: "08881845", source: "page" });
      // The inline <style> refers to --primary-color, defined in a stylesheet this corpus does not hold: no colour invented.
      expect(cssColourProperties(page.inlineCss, [])).toEqual([]);
    },
  );
});

describe("brand-kit: pieces", () => {
  it.each([
    ["https://www.linkedin.com/company/acme-ltd/about/", { network: "linkedin", url: "https://www.linkedin.com/company/acme-ltd" }],
    ["https://uk.linkedin.com/in/some-person", "person"],
    ["https://www.linkedin.com/pub/some-person/1/2/3", "person"],
    ["https://www.linkedin.com/shareArticle?mini=true&url=x", null],
    ["https://www.linkedin.com/sharing/share-offsite/?url=x", null],
    ["https://twitter.com/intent/tweet?text=x", null],
    ["https://twitter.com/share?url=x", null],
    ["https://x.com/AcmeLtd/status/123", { network: "x", url: "https://x.com/AcmeLtd" }],
    ["https://www.facebook.com/sharer/sharer.php?u=x", null],
    ["https://www.facebook.com/profile.php?id=1000123", { network: "facebook", url: "https://www.facebook.com/profile.php?id=1000123" }],
    ["https://www.instagram.com/p/Cx123/", null],
    ["https://www.youtube.com/channel/UC123abc", { network: "youtube", url: "https://www.youtube.com/channel/UC123abc" }],
    ["https://www.youtube.com/watch?v=abc", null],
    ["https://github.com/acme/widgets", { network: "github", url: "https://github.com/acme" }],
    ["https://threads.com/@acme", { network: "threads", url: "https://www.threads.net/@acme" }],
    ["https://example.social/@acme", null],
    ["mailto:hello@acme.example", null],
  ])("socialProfile(%s)", (href, expected) => {
    expect(socialProfile(href)).toEqual(expected);
  });

  it("a Mastodon profile on any server when linked rel=me", () => {
    expect(socialProfile("https://example.social/@acme", "me")).toEqual({ network: "mastodon", url: "https://example.social/@acme" });
  });

  it.each([
    ["Modern slavery statement | Wild Fig Research", "https://wildfigresearch.co.uk/modern-slavery/", "Wild Fig Research"],
    ["Home | Kestrel Fabrication Group", "https://brand2.test/", "Kestrel Fabrication Group"],
    ["Acme Widgets – Made in Sheffield", "https://www.acmewidgets.co.uk/", "Acme Widgets"],
    ["Contact us - Northfield Dental", "https://example.co.uk/contact", "Northfield Dental"],
    ["Northfield Dental", "https://example.co.uk/", "Northfield Dental"],
    ["", "https://example.co.uk/", null],
  ])("brandFromTitle(%j)", (title, url, expected) => {
    expect(brandFromTitle(title, url)).toBe(expected);
  });

  it("firstSentence skips abbreviations and cuts long text at a word", () => {
    expect(firstSentence("Acme Co. Ltd. makes widgets. Since 1990.")).toBe("Acme Co. Ltd. makes widgets.");
    expect(firstSentence("No full stop here")).toBe("No full stop here");
    const long = firstSentence(`${"word ".repeat(100)}end.`);
    expect(long.length).toBeLessThanOrEqual(301);
    expect(long.endsWith("…")).toBe(true);
  });

  it("readManifest: name, short name, colours normalised, icons absolute against the manifest; not JSON throws", () => {
    const m = readManifest(
      JSON.stringify({
        name: " Acme ",
        short_name: "Acme",
        theme_color: "#ABC",
        background_color: "rgb(255, 255, 255)",
        icons: [{ src: "icon.png", sizes: "192x192" }, { nope: 1 }],
      }),
      "https://acme.example/static/site.webmanifest",
    );
    expect(m).toEqual({
      url: "https://acme.example/static/site.webmanifest",
      name: "Acme",
      shortName: "Acme",
      themeColour: "#aabbcc",
      backgroundColour: "#ffffff",
      icons: [{ url: "https://acme.example/static/icon.png", sizes: "192x192" }],
    });
    expect(() => readManifest("<html>", "https://acme.example/m.json")).toThrow();
    expect(() => readManifest("[1]", "https://acme.example/m.json")).toThrow();
  });

  it("brandColours: declared first, then custom properties by role, then rendered by share; one entry per colour naming every source", () => {
    const colours = brandColours({
      meta: [
        { hex: "#0a3d62", use: "theme", source: "theme-color" },
        { hex: "#0a3d62", use: "mask-icon", source: "mask-icon" },
      ],
      manifest: { url: "https://x.example/m.json", icons: [], themeColour: "#0a3d62", backgroundColour: "#ffffff" },
      cssProperties: [
        { name: "--grey-100", hex: "#f5f5f5", role: "other" },
        { name: "--brand-accent", hex: "#e58e26", role: "accent" },
        { name: "--brand-primary", hex: "#0a3d62", role: "primary" },
      ],
      rendered: [
        { hex: "#222222", use: "text", share: 0.2 },
        { hex: "#FFFFFF", use: "background", share: 0.7 },
        { hex: "#e58e26", use: "button", share: 0.05 },
      ],
    });
    expect(colours).toEqual([
      { hex: "#0a3d62", use: "theme", source: "theme-color", sources: ["theme-color", "manifest", "mask-icon", "css-variable"], property: "--brand-primary" },
      { hex: "#ffffff", use: "background", source: "manifest", sources: ["manifest", "rendered"], share: 0.7 },
      { hex: "#e58e26", use: "accent", source: "css-variable", sources: ["css-variable", "rendered"], property: "--brand-accent", share: 0.05 },
      { hex: "#f5f5f5", use: "other", source: "css-variable", sources: ["css-variable"], property: "--grey-100" },
      { hex: "#222222", use: "text", source: "rendered", sources: ["rendered"], share: 0.2 },
    ]);
  });

  it("brandFonts: families at a glance (rendered, then CSS stacks, then web fonts and @font-face), generic and icon fonts left out", () => {
    const fonts = brandFonts({
      css: `body { font-family: -apple-system, "Inter", sans-serif; } h1 { font-family: Fraunces, serif; } h2 { font-family: Fraunces, serif; }`,
      sheets: [
        {
          css: `@font-face { font-family: "Bramble Sans"; src: url(/f/b.woff2); } @font-face { font-family: "Font Awesome 6 Free"; src: url(/f/fa.woff2); }`,
          url: "https://acme.example/css/a.css",
        },
      ],
      inlineBase: "https://acme.example/",
      webFontLinks: [
        {
          provider: "google-fonts",
          url: "https://fonts.googleapis.com/css2?family=Inter:wght@400;700",
          families: [{ family: "Inter", weights: ["400", "700"], italic: false }],
        },
      ],
      preloadedFonts: ["https://acme.example/f/b.woff2", "https://cdn.other.example/x.woff2"],
      pageUrl: "https://www.acme.example/",
      rendered: [
        { family: '"Material Icons"', share: 0.01 },
        { family: "Fraunces, serif", share: 0.3 },
        { family: '-apple-system, "Inter", sans-serif', share: 0.69 },
      ],
    });
    expect(fonts.families).toEqual([
      { family: "Inter", sources: ["rendered", "css", "google-fonts"], weights: ["400", "700"] },
      { family: "Fraunces", sources: ["rendered", "css"] },
      { family: "Bramble Sans", sources: ["font-face"], weights: ["400"] },
    ]);
    expect(fonts.stacks.map((s) => [s.stack, s.uses])).toEqual([
      ["Fraunces, serif", 2],
      ["-apple-system, Inter, sans-serif", 1],
    ]);
    expect(fonts.fontFaces.map((f) => f.family)).toEqual(["Bramble Sans"]);
    expect(fonts.webFonts).toEqual([
      {
        provider: "google-fonts",
        url: "https://fonts.googleapis.com/css2?family=Inter:wght@400;700",
        families: [{ family: "Inter", weights: ["400", "700"], italic: false }],
      },
      { provider: "self-hosted", url: "https://acme.example/f/b.woff2" },
    ]);
    expect(fonts.rendered).toEqual([
      { family: "-apple-system, Inter, sans-serif", primary: "Inter", share: 0.69 },
      { family: "Fraunces, serif", primary: "Fraunces", share: 0.3 },
    ]);
  });

  it("companyEvidence: none, exactly one distinct number (page before JSON-LD), or several", () => {
    expect(companyEvidence([], [])).toEqual({ kind: "none" });
    expect(companyEvidence([{ number: "01234567", quote: "Company No. 01234567" }], [{ number: "01234567", quote: '"identifier": "01234567"' }])).toEqual({
      kind: "one",
      number: "01234567",
      quote: "Company No. 01234567",
      source: "page",
    });
    expect(companyEvidence([], [{ number: "05550123", quote: "q" }])).toEqual({ kind: "one", number: "05550123", quote: "q", source: "json-ld" });
    expect(companyEvidence([{ number: "04455667", quote: "a" }], [{ number: "07654321", quote: "b" }])).toEqual({
      kind: "several",
      numbers: ["04455667", "07654321"],
    });
  });

  it("deterministic: the same page read twice gives the same reading", async () => {
    const html = await text("http://brand.test/");
    expect(readBrandPage(html, "https://brand.test/")).toEqual(readBrandPage(html, "https://brand.test/"));
  });
});
