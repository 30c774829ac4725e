import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { LOGO_NOTICE } from "../../../src/app/web/logoNotice";
import { getBrandKit } from "../../../src/operations/web/getBrandKit";
import { type CallMeta, execute } from "../../../src/platform/gateway";
import type { Services } from "../../../src/platform/services";
import { extractLogos } from "../../../src/services/logo/extractLogos";
import type { Browser, RenderedPage } from "../../../src/services/web/rendered";
import { InputError, UpstreamError } from "../../../src/shared/errors";
import { balanceOf, call, createTestKey, json } from "../../helpers";

const brandKit = (query: Record<string, string>, key: string) => call(`/api/v1/brand-kit?${new URLSearchParams(query)}`, { key });

const meta = (apiKey: string, extra: Partial<CallMeta> = {}): CallMeta => ({
  requestId: "req_brandkit",
  headers: new Headers(),
  ip: "192.0.2.10",
  apiKey,
  waitUntil: () => {},
  ...extra,
});

/** Everything but the timestamp. */
const stable = (body: Record<string, unknown>) => ({ ...body, fetchedAt: "<timestamp>" });

/** A browser that renders nothing but the colours and fonts given. */
function fakeBrowser(read: Pick<RenderedPage, "colours" | "fonts">, calls: unknown[] = []): Browser {
  return {
    available: true,
    render: async (url, opts) => {
      calls.push({ url, opts });
      return {
        url,
        finalUrl: url,
        status: 200,
        title: "",
        cookies: [],
        storageKeys: [],
        requests: [],
        cut: [],
        timings: { browserMs: 1, loadMs: 1, axeMs: null, totalMs: 2 },
        ...read,
      };
    },
  };
}

const PERSON = /ellen|marsh/i;

/** Where no browser is configured (the detailed replies below are read without one, so they do not depend on this machine's Chromium). */
const noBrowser: Browser = {
  available: false,
  render: async () => {
    throw new UpstreamError("browser", "not_configured", "Browser Rendering is not configured on this server.");
  },
};

/** One call through the gateway (key, charge, validation, errors) with some services replaced; the browser is absent unless given. */
async function run(input: Record<string, string>, key: string, services: Partial<Services> = {}) {
  const out = await execute(env, getBrandKit as never, input, meta(key, { services: { browser: noBrowser, ...services } }));
  return { ...out, body: out.body as Record<string, any> };
}

describe("brand-kit (SPEC §4.8): a full brand site", () => {
  it("SPEC §4.8 over HTTP: 2 credits charged; logos, icons, the company from the footer's number; the rendered page where this machine has a browser", {
    timeout: 60_000,
  }, async () => {
    const { key, keyId } = await createTestKey();
    const r = await brandKit({ domain: "brand.test" }, key);
    const text = await r.clone().text();
    const body = await json(r);
    expect(r.status, text).toBe(200);
    expect(r.headers.get("x-credits-remaining")).toBe("98");
    expect(await balanceOf(keyId)).toBe(98);
    expect(body).toMatchObject({
      query: { domain: "brand.test" },
      page: "https://brand.test/",
      name: { value: "Bramblewick Studio", source: "og:site_name" },
      notice: LOGO_NOTICE,
    });
    expect(body.logos).toEqual(extractLogos(await (await fetch("http://brand.test/")).text(), "https://brand.test/"));
    expect(body.business).toMatchObject({ companyNumber: "09182736", name: "BRAMBLEWICK STUDIO LIMITED", source: "page" });
    // The declared and CSS colours lead whatever the browser paints; where it rendered, its colours and fonts follow.
    expect(body.colours.slice(0, 3).map((c: { hex: string }) => c.hex)).toEqual(["#0a3d62", "#061f33", "#fdf6ec"]);
    if (body.rendered.available) {
      expect(body.colours.some((c: { sources: string[] }) => c.sources.includes("rendered"))).toBe(true);
      expect(body.fonts.rendered[0]).toMatchObject({ primary: "Inter" });
    } else {
      expect(body.rendered.reason).toBeTruthy();
      expect(body.fonts.rendered).toBeNull();
    }
    // SPEC §1 rule 7: the personal LinkedIn and the director in the footer are named nowhere; no share links.
    expect(text).not.toMatch(PERSON);
    expect(text).not.toMatch(/linkedin\.com\/in\/|intent\/tweet|sharer|shareArticle/);
  });

  it("SPEC §4.8 the whole reply (no browser): name, tagline, Open Graph, icons and manifest, colours, fonts, socials, business, notes", async () => {
    const { key, keyId } = await createTestKey();
    const out = await run({ domain: "brand.test" }, key);
    const body = out.body;
    const text = JSON.stringify(body);
    expect(out.status, text).toBe(200);
    expect(await balanceOf(keyId)).toBe(98);

    expect(body.query).toEqual({ domain: "brand.test" });
    expect(body.page).toBe("https://brand.test/");
    expect(body.name).toEqual({ value: "Bramblewick Studio", source: "og:site_name" });
    expect(body.tagline).toEqual({ value: "Brand and packaging design for independent food and drink makers.", source: "meta-description" });
    expect(body.openGraph).toMatchObject({
      siteName: "Bramblewick Studio",
      twitterCard: "summary_large_image",
      twitterSite: "@bramblewick",
      image: "https://brand.test/assets/og-share.png",
    });
    // Logos exactly as company-logo's extraction gives them, in its order.
    expect(body.logos).toEqual(extractLogos(await (await fetch("http://brand.test/")).text(), "https://brand.test/"));

    expect(body.icons).toEqual({
      favicons: [{ url: "https://brand.test/icons/favicon.svg", type: "image/svg+xml" }, { url: "https://brand.test/favicon.ico" }],
      appleTouchIcons: [{ url: "https://brand.test/icons/apple-touch-icon.png", sizes: "180x180" }],
      maskIcon: { url: "https://brand.test/icons/safari-pinned-tab.svg", colour: "#0a3d62" },
      manifest: {
        url: "https://brand.test/site.webmanifest",
        name: "Bramblewick Studio",
        shortName: "Bramblewick",
        themeColour: "#0a3d62",
        backgroundColour: "#fdf6ec",
        icons: [
          { url: "https://brand.test/icons/icon-192.png", sizes: "192x192", type: "image/png" },
          { url: "https://brand.test/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
        ],
        read: true,
      },
    });

    // Declared colours first, then the custom properties of the inline <style> and the linked (and @imported) stylesheet.
    expect(body.colours).toEqual([
      {
        hex: "#0a3d62",
        use: "theme",
        source: "theme-color",
        sources: ["theme-color", "manifest", "msapplication-TileColor", "mask-icon", "css-variable"],
        property: "--brand-primary",
      },
      {
        hex: "#061f33",
        use: "theme",
        source: "theme-color",
        sources: ["theme-color", "css-variable"],
        media: "(prefers-color-scheme: dark)",
        property: "--color-surface",
      },
      { hex: "#fdf6ec", use: "background", source: "manifest", sources: ["manifest", "css-variable"], property: "--color-surface" },
      { hex: "#3c6382", use: "secondary", source: "css-variable", sources: ["css-variable"], property: "--brand-secondary" },
      { hex: "#e58e26", use: "accent", source: "css-variable", sources: ["css-variable"], property: "--brand-accent" },
      { hex: "#663399", use: "accent", source: "css-variable", sources: ["css-variable"], property: "--brand-highlight" },
      { hex: "#1b2632", use: "text", source: "css-variable", sources: ["css-variable"], property: "--color-text" },
    ]);
    for (const c of body.colours) expect(c.hex).toMatch(/^#[0-9a-f]{6}$/);

    expect(body.fonts.families).toEqual([
      { family: "Inter", sources: ["css", "google-fonts"], weights: ["400", "500"] },
      { family: "Bramble Sans", sources: ["css", "font-face"], weights: ["400", "700"] },
      { family: "Fraunces", sources: ["css", "google-fonts"], weights: ["600", "700"] },
      { family: "Menlo", sources: ["css"] },
    ]);
    expect(body.fonts.stacks.map((s: { stack: string; uses: number }) => [s.stack, s.uses])).toEqual([
      ["Inter, Helvetica Neue, Arial, sans-serif", 3],
      // A tie: first written first (the page's own <style>, then its stylesheets in order).
      ["Bramble Sans, sans-serif", 2],
      ["Fraunces, Georgia, serif", 2],
      ["ui-monospace, Menlo, monospace", 1],
    ]);
    expect(body.fonts.fontFaces).toEqual([
      {
        family: "Bramble Sans",
        weights: ["400", "700"],
        styles: ["normal"],
        files: [
          "https://brand.test/fonts/bramble-sans-regular.woff2",
          "https://brand.test/fonts/bramble-sans-bold.woff2",
          "https://brand.test/fonts/bramble-sans-regular.woff",
        ],
      },
    ]);
    expect(body.fonts.webFonts.map((w: { provider: string; url: string }) => [w.provider, w.url])).toEqual([
      ["google-fonts", "https://fonts.googleapis.com/css2?family=Fraunces:ital,wght@0,600;1,700&family=Inter:wght@400;500&display=swap"],
      ["adobe-fonts", "https://use.typekit.net/kqw3brx.css"],
      ["self-hosted", "https://brand.test/fonts/bramble-sans-regular.woff2"],
      ["self-hosted", "https://brand.test/fonts/bramble-sans-bold.woff2"],
      ["self-hosted", "https://brand.test/fonts/bramble-sans-regular.woff"],
    ]);
    expect(body.fonts.rendered).toBeNull();

    expect(body.socials.map((s: { network: string }) => s.network)).toEqual([
      "linkedin",
      "x",
      "facebook",
      "instagram",
      "youtube",
      "tiktok",
      "github",
      "threads",
      "bluesky",
      "mastodon",
    ]);
    expect(body.socials[0]).toEqual({ network: "linkedin", url: "https://www.linkedin.com/company/bramblewick-studio", source: "link" });

    expect(body.business).toEqual({
      companyNumber: "09182736",
      name: "BRAMBLEWICK STUDIO LIMITED",
      status: "active",
      evidence: "Registered in England and Wales, company number 09182736.",
      source: "page",
    });
    expect(body.registryNote).toBeUndefined();
    expect(body.rendered).toEqual({ available: false, reason: expect.stringMatching(/no browser/i) });
    expect(body.notes).toEqual(["1 personal profile link left out: people are not named."]);
    expect(body.notice).toBe(LOGO_NOTICE);
    expect(Date.parse(body.fetchedAt)).not.toBeNaN();
    expect(text).not.toMatch(PERSON);
    // The reply is what the schema documents, nothing more.
    expect(getBrandKit.output.parse(body)).toEqual(body);
  });

  it("SPEC §4.8 deterministic: the same site read twice gives the same reply apart from the timestamp (with and without a browser)", async () => {
    const { key } = await createTestKey();
    const a = await run({ domain: "brand.test" }, key);
    const b = await run({ domain: "brand.test" }, key);
    expect(stable(b.body)).toEqual(stable(a.body));
    const read = { colours: [{ hex: "#ffffff", use: "background" as const, share: 0.8 }], fonts: [{ family: "Inter, sans-serif", share: 1 }] };
    const c = await run({ domain: "brand.test" }, key, { browser: fakeBrowser(read) });
    const d = await run({ domain: "brand.test" }, key, { browser: fakeBrowser(read) });
    expect(stable(d.body)).toEqual(stable(c.body));
  });

  it("SPEC §4.8 `url` reads that page; an address without a scheme is read as https; `query` echoes the url", async () => {
    const { key } = await createTestKey();
    const byUrl = await run({ url: "brand.test/" }, key);
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.query).toEqual({ url: "brand.test/" });
    expect(byUrl.body.page).toBe("https://brand.test/");
    const viaDomain = await run({ domain: "https://Brand.TEST/some/page" }, key);
    expect(viaDomain.body.query).toEqual({ domain: "brand.test" });
    expect(stable({ ...viaDomain.body, query: null })).toEqual(stable({ ...byUrl.body, query: null }));
  });
});

describe("brand-kit (SPEC §4.8): the company, and what could not be read", () => {
  it("SPEC §2.2 a site stating two different company numbers: no company, and the note says why; stylesheets capped at 4, failures noted", async () => {
    const { key } = await createTestKey();
    const spy = vi.spyOn(globalThis, "fetch");
    const { status, body } = await run({ domain: "brand2.test" }, key);
    expect(status).toBe(200);
    expect(body.business).toBeUndefined();
    expect(body.registryNote).toBe("The site states 2 different company numbers (04455667, 07654321), so none is taken as the company behind it.");
    // Companies House was not asked.
    expect(spy.mock.calls.filter(([u]) => String(u instanceof Request ? u.url : u).includes("ch.test"))).toEqual([]);
    spy.mockRestore();
    expect(body.name).toEqual({ value: "Kestrel Fabrication", source: "application-name" });
    // No meta description: a homepage's first h1.
    expect(body.tagline).toEqual({ value: "Steel fabrication and welding", source: "hero-heading" });
    expect(body.notes).toEqual([
      "The stylesheet https://brand2.test/css/missing.css could not be read (HTTP status 404).",
      "The stylesheet https://static.brand2.test/css/d.css could not be read (the host static.brand2.test is a local or reserved name).",
      "2 more same-site stylesheets were not read (at most 4).",
      "The web app manifest could not be read (HTTP status 404).",
    ]);
    expect(body.icons.manifest).toEqual({ url: "https://brand2.test/manifest.json", icons: [], read: false });
    // a.css and b.css were read; e.css and f.css were past the cap.
    expect(body.colours).toEqual([{ hex: "#f26522", use: "other", source: "css-variable", sources: ["css-variable"], property: "--kestrel-orange" }]);
    expect(body.fonts.stacks.map((s: { stack: string; uses: number }) => [s.stack, s.uses])).toEqual([
      ["Open Sans, Arial, sans-serif", 2],
      ["Roboto Slab, serif", 1],
    ]);
    expect(body.fonts.webFonts).toEqual([
      {
        provider: "google-fonts",
        url: "https://fonts.googleapis.com/css?family=Open+Sans:400,700italic|Roboto+Slab:300",
        families: [
          { family: "Open Sans", weights: ["400", "700"], italic: true },
          { family: "Roboto Slab", weights: ["300"], italic: false },
        ],
      },
    ]);
  });

  it("SPEC §4.8 a bare site (a title only): the name from the title, /favicon.ico assumed, everything else empty", async () => {
    const { key } = await createTestKey();
    const { body } = await run({ domain: "brand3.test" }, key);
    expect(body).toMatchObject({
      query: { domain: "brand3.test" },
      name: { value: "Hollins Joinery", source: "title" },
      tagline: null,
      description: null,
      openGraph: {},
      logos: [],
      icons: { favicons: [{ url: "https://brand3.test/favicon.ico", assumed: true }], appleTouchIcons: [], maskIcon: null, manifest: null },
      colours: [],
      fonts: { families: [], stacks: [], fontFaces: [], webFonts: [], rendered: null },
      socials: [],
      registryNote: "The site does not state a company number, so no registered company is given.",
      notes: [],
      notice: LOGO_NOTICE,
    });
    expect(body.business).toBeUndefined();
  });

  it("SPEC §2.2 the company number in the organisation's JSON-LD is confirmed at Companies House; a hero heading is the tagline", async () => {
    const { key } = await createTestKey();
    const { body } = await run({ domain: "brand4.test" }, key);
    expect(body.business).toEqual({
      companyNumber: "05550123",
      name: "GREYSTONE ENGINEERING LIMITED",
      status: "active",
      evidence: '"identifier": {"name": "Company Number", "value": "05550123"}',
      source: "json-ld",
    });
    expect(body.name).toEqual({ value: "Greystone Engineering", source: "json-ld" });
    expect(body.tagline).toEqual({ value: "Precision CNC machining for aerospace and rail", source: "hero-heading" });
    // A named colour counts in a custom property (navy), not in theme-color ("white"); transparent and currentColor never.
    expect(body.colours).toEqual([{ hex: "#000080", use: "primary", source: "css-variable", sources: ["css-variable"], property: "--primary" }]);
    expect(body.fonts.stacks[0]).toMatchObject({ stack: "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", primary: "Segoe UI" });
    expect(body.notes).toEqual(["1 personal profile link left out: people are not named."]);
  });

  it("SPEC §2.2 a stated number Companies House does not have: no company, and the note says so", async () => {
    const { key } = await createTestKey();
    const { body } = await run({ url: "https://brand4.test/unknown.html" }, key);
    expect(body.business).toBeUndefined();
    expect(body.registryNote).toBe("The site states company number 09999990, but Companies House has no company with that number.");
    expect(body.name).toEqual({ value: "Larchfield Cabinets", source: "title" });
  });
});

describe("brand-kit (SPEC §7): refusals and failures", () => {
  it.each([
    [{}, "domain", /`domain`.*`url`/],
    [{ domain: "brand.test", url: "https://brand.test/" }, "url", /not both/],
    [{ domain: "not a domain" }, "domain", /domain name/],
    [{ url: `https://brand.test/${"a".repeat(500)}` }, "url", /500/],
    [{ url: "http://127.0.0.1/" }, "url", /private, loopback/],
  ])("SPEC §7 %j → 400 naming the field, nothing charged", async (query, field, message) => {
    const { key, keyId } = await createTestKey();
    const r = await brandKit(query as Record<string, string>, key);
    const body = await json(r);
    expect(r.status).toBe(400);
    expect(body).toMatchObject({ code: "bad_request", field });
    expect(JSON.stringify(body)).toMatch(message);
    expect(await balanceOf(keyId)).toBe(100);
  });

  it.each([
    [{ url: "https://brand.test/missing" }, "unreadable_input"],
    [{ url: "https://brand4.test/report.pdf" }, "unreadable_input"],
  ])("SPEC §7 %j: the page cannot be fetched or read → 422 with `query`, no credits used", async (query, code) => {
    const { key, keyId } = await createTestKey();
    const r = await brandKit(query, key);
    const body = await json(r);
    expect(r.status).toBe(422);
    expect(body).toMatchObject({ code, query });
    expect(await balanceOf(keyId)).toBe(100);
  });

  it("SPEC §7.4 Companies House down → 503 upstream_unavailable with the credits given back, never a reply without the company", async () => {
    const { key, keyId } = await createTestKey();
    const companiesHouse = {
      getProfile: async () => {
        throw new UpstreamError("companies-house", "unreachable", "Companies House could not be reached.");
      },
    } as unknown as Services["companiesHouse"];
    const out = await run({ domain: "brand.test" }, key, { companiesHouse });
    expect(out.status).toBe(503);
    expect(out.body).toMatchObject({ code: "upstream_unavailable" });
    expect(out.headers["x-credits-refunded"]).toBe("2");
    expect(await balanceOf(keyId)).toBe(100);
  });
});

describe("brand-kit (SPEC §4.8): the rendered page", () => {
  it("with a browser: its colours (by share, merged with the declared ones) and fonts; the fetched page is handed to it", async () => {
    const { key } = await createTestKey();
    const calls: { url: string; opts: Record<string, unknown> }[] = [];
    const browser = fakeBrowser(
      {
        colours: [
          { hex: "#ffffff", use: "background", share: 0.58 },
          { hex: "#1b2632", use: "text", share: 0.21 },
          { hex: "#E58E26", use: "button", share: 0.04 },
          { hex: "#000000", use: "border", share: 0.01 },
        ],
        fonts: [
          { family: '"Fraunces", Georgia, serif', share: 0.25 },
          { family: '"Inter", "Helvetica Neue", Arial, sans-serif', share: 0.75 },
        ],
      },
      calls as unknown[],
    );
    const { status, body } = await run({ domain: "brand.test" }, key, { browser });
    expect(status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe("https://brand.test/");
    expect(calls[0].opts).toMatchObject({ read: { colours: true, fonts: true }, document: { status: 200 } });
    expect(body.rendered).toEqual({ available: true });
    const byHex = Object.fromEntries((body.colours as { hex: string }[]).map((c) => [c.hex, c]));
    expect(byHex["#e58e26"]).toEqual({
      hex: "#e58e26",
      use: "accent",
      source: "css-variable",
      sources: ["css-variable", "rendered"],
      property: "--brand-accent",
      share: 0.04,
    });
    expect(byHex["#1b2632"]).toMatchObject({ use: "text", source: "css-variable", sources: ["css-variable", "rendered"], share: 0.21 });
    // White and black are kept, marked by where they are painted; rendered-only colours come last, by share.
    expect(body.colours.slice(-2)).toEqual([
      { hex: "#ffffff", use: "background", source: "rendered", sources: ["rendered"], share: 0.58 },
      { hex: "#000000", use: "border", source: "rendered", sources: ["rendered"], share: 0.01 },
    ]);
    expect(body.fonts.rendered).toEqual([
      { family: "Inter, Helvetica Neue, Arial, sans-serif", primary: "Inter", share: 0.75 },
      { family: "Fraunces, Georgia, serif", primary: "Fraunces", share: 0.25 },
    ]);
    expect(body.fonts.families[0]).toEqual({ family: "Inter", sources: ["rendered", "css", "google-fonts"], weights: ["400", "500"] });
    expect(JSON.stringify(body)).not.toMatch(PERSON);
  });

  it.each([
    ["an UpstreamError", new UpstreamError("browser", "unreachable", "Browser Rendering did not answer.")],
    ["an InputError", new InputError("unreadable_input", "The page could not be rendered.")],
  ])("the browser failing with %s: `rendered` says why and the rest is answered (2 credits)", async (_what, error) => {
    const { key, keyId } = await createTestKey();
    const browser: Browser = {
      available: true,
      render: async () => {
        throw error;
      },
    };
    const { status, body } = await run({ domain: "brand.test" }, key, { browser });
    expect(status).toBe(200);
    expect(body.rendered).toEqual({ available: false, reason: expect.stringContaining(error.message.replace(/\.$/, "")) });
    expect(body.fonts.rendered).toBeNull();
    expect(body.business.companyNumber).toBe("09182736");
    expect(await balanceOf(keyId)).toBe(98);
  });
});
