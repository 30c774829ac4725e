import { describe, expect, it } from "vitest";
import { extractLogos } from "../../src/services/logo/extractLogos";

const PAGE = "https://www.hartleyfinch.test/";

describe("SPEC §4.7 extractLogos", () => {
  it("issue 32 a dark-scheme logo (a <picture> source or an icon's media) is kept, marked dark, after every other candidate and in the same order among themselves", () => {
    const html = `<html><head>
      <link rel="icon" type="image/svg+xml" href="/icon.svg">
      <link rel="icon" type="image/svg+xml" href="/icon-dark.svg" media="(prefers-color-scheme: dark)">
      <meta property="og:image" content="/share.png">
    </head><body><header><a href="/"><picture>
      <source media="(prefers-color-scheme:dark)" srcset="/logo-dark.png 1x, /logo-dark@2x.png 2x">
      <source media="(min-width: 800px)" srcset="/logo-wide.png">
      <img class="logo" src="/logo.png" alt="Acme">
    </picture></a></header></body></html>`;
    const logos = extractLogos(html, "https://acme.example/");
    expect(logos.map((l) => [l.url.replace("https://acme.example", ""), l.source, l.theme ?? "-"])).toEqual([
      ["/logo.png", "logo-image", "-"],
      ["/icon.svg", "icon", "-"],
      ["/share.png", "social-image", "-"],
      ["/logo-dark.png", "logo-image", "dark"],
      ["/icon-dark.svg", "icon", "dark"],
    ]);
  });

  it("SPEC §4.7 orders a realistic homepage: own logo, app icons, SVG/PNG icons, social image last", async () => {
    const html = await (await fetch("http://logo.test/")).text();
    expect(extractLogos(html, PAGE)).toEqual([
      { url: `${PAGE}assets/img/hartley-finch-logo.svg`, source: "logo-image", type: "image/svg+xml" },
      { url: `${PAGE}wp-content/uploads/hf-logo-512.png`, source: "logo-image", type: "image/png" },
      { url: `${PAGE}icons/apple-touch-icon.png`, source: "app-icon", type: "image/png", sizes: "180x180" },
      { url: `${PAGE}icons/apple-touch-icon-120.png`, source: "app-icon", type: "image/png", sizes: "120x120" },
      { url: `${PAGE}icons/icon.svg`, source: "icon", type: "image/svg+xml" },
      { url: `${PAGE}icons/android-chrome-192.png`, source: "icon", type: "image/png", sizes: "192x192" },
      { url: `${PAGE}icons/safari-pinned-tab.svg`, source: "icon", type: "image/svg+xml" },
      { url: "https://cdn.hartleyfinch.test/share/og-workshop.jpg", source: "social-image", type: "image/jpeg" },
      { url: `${PAGE}share/twitter-card.jpg`, source: "social-image", type: "image/jpeg" },
    ]);
  });

  it("SPEC §4.7 a partner, accreditation, client or footer badge is not the page's own logo", () => {
    const html = `<html><head><link rel="apple-touch-icon" href="/touch.png"></head><body>
      <main><section class="our-partners"><h2>Partners</h2><img class="partner-logo" src="/p/acme-logo.png"></section>
      <div id="accreditations"><img alt="ISO 9001 logo" src="/badges/iso-logo.png"></div>
      <ul class="client-logos"><li><img src="/clients/bigco_logo.svg"></li></ul>
      <img src="/img/cyber-essentials-certified-logo.png" alt="Cyber Essentials certified"></main>
      <footer><img class="logo" src="/img/trustpilot-logo.svg"></footer></body></html>`;
    expect(extractLogos(html, PAGE)).toEqual([{ url: `${PAGE}touch.png`, source: "app-icon", type: "image/png" }]);
    // The page's own logo in its header stays, whatever its class says.
    const own = `<html><body><header class="site-header partner-bar"><a href="/"><img class="logo" src="/logo.svg"></a></header></body></html>`;
    expect(extractLogos(own, PAGE)).toEqual([{ url: `${PAGE}logo.svg`, source: "logo-image", type: "image/svg+xml" }]);
  });

  it("SPEC §4.7 resolves against <base href>, drops data: and javascript:, skips .ico and inline svg", () => {
    const html = `<html><head><base href="https://static.example.org/site/">
      <link rel="shortcut icon" href="favicon.ico"><link rel="icon" type="image/x-icon" href="/fav.png?v=2">
      <link rel="icon" href="data:image/png;base64,iVBORw0KGgo=">
      <link rel="icon" href="img/fav.PNG?v=3">
      </head><body><svg class="logo"><path d="M0 0"/></svg>
      <img class="logo" src="data:image/gif;base64,R0lGODlh" data-src="img/logo@2x.webp">
      <img id="logo" src="javascript:alert(1)">
      <meta property="og:image" content="javascript:alert(2)"></body></html>`;
    expect(extractLogos(html, "https://www.example.org/about/")).toEqual([
      { url: "https://static.example.org/site/img/logo@2x.webp", source: "logo-image", type: "image/webp" },
      { url: "https://static.example.org/site/img/fav.PNG?v=3", source: "icon", type: "image/png" },
    ]);
  });

  it("SPEC §4.7 prefers a logo in the header or linking home over other logo images, and reads JSON-LD logos", () => {
    const html = `<body>
      <section><img src="/partners/acme-logo.png"></section>
      <script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","logo":"/brand/org.png"}</script>
      <script type="application/ld+json">{"@type":["Corporation"],"logo":{"@type":"ImageObject","url":"https://cdn.example.com/corp.png"}}</script>
      <script type="application/ld+json">{ not json </script>
      <script type="application/ld+json">{"@type":"Product","logo":"/product.png"}</script>
      <div><a href="https://www.example.com/"><img alt="Example Ltd logo" src="/brand/header.png"></a></div>
    </body>`;
    expect(extractLogos(html, "https://www.example.com/contact").map((c) => c.url)).toEqual([
      "https://www.example.com/brand/header.png",
      "https://www.example.com/brand/org.png",
      "https://cdn.example.com/corp.png",
      // /partners/acme-logo.png is a partner's logo, not the page's own: left out.
    ]);
  });

  it("SPEC §4.7 sorts app icons by size, deduplicates by absolute URL keeping the first, and caps at 10", () => {
    const html = `<head>
      <link rel="apple-touch-icon-precomposed" href="/a57.png" sizes="57x57">
      <link rel="apple-touch-icon" href="/a.png">
      <link rel="apple-touch-icon" href="/a152.png" sizes="152x152">
      <meta property="og:image" content="https://example.com/a152.png">
      </head><body>${Array.from({ length: 12 }, (_, i) => `<img src="/logo-${i}.png">`).join("")}</body>`;
    const icons = extractLogos(html.replace(/<body>.*<\/body>/s, ""), "https://example.com/");
    expect(icons).toEqual([
      { url: "https://example.com/a152.png", source: "app-icon", type: "image/png", sizes: "152x152" },
      { url: "https://example.com/a57.png", source: "app-icon", type: "image/png", sizes: "57x57" },
      { url: "https://example.com/a.png", source: "app-icon", type: "image/png" },
    ]);
    const all = extractLogos(html, "https://example.com/");
    expect(all).toHaveLength(10);
    expect(all.every((c) => c.source === "logo-image")).toBe(true);
    expect(all[9].url).toBe("https://example.com/logo-9.png");
  });

  it("SPEC §4.7 returns nothing for a page without any logo", () => {
    expect(extractLogos("<html><body><p>Hello</p></body></html>", "https://example.com/")).toEqual([]);
  });
});
