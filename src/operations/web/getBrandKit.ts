import { z } from "@hono/zod-openapi";
import { LogoCandidateSchema } from "../../app/web/logos";
import { defineOperation } from "../../platform/registry";
import {
  type BrandPage,
  type Manifest,
  MAX_MANIFEST_BYTES,
  MAX_STYLESHEET_BYTES,
  MAX_STYLESHEETS,
  NETWORKS,
  brandColours,
  brandFonts,
  companyEvidence,
  cssColourProperties,
  readBrandPage,
  readManifest,
  sameSiteImports,
} from "../../services/web/brandKit";
import { statedCompanyNumbers } from "../../services/web/disclosures";
import { InputError, UpstreamError } from "../../shared/errors";
import type { OpContext } from "../../platform/registry";
import { PAGE_ERRORS, domainOrUrl, fetchHtmlPage, pageOf, renderOrReason } from "../../app/web/page";
import { LOGO_NOTICE } from "../../app/web/logoNotice";
import { HTML_LIMITS_TEXT } from "../../services/html/parse";

/**
 * brand-kit (SPEC §4.8 names it; the shape is ours; SPEC §2.1: the enrichment family gives the company as `business`
 * with `companyNumber`). The fetching only: every reading is in services/web/brandKit.ts and services/web/css.ts.
 */

const PAGE_MAX_BYTES = 3 * 1024 * 1024;

const Input = domainOrUrl({
  domain: "The website's domain, e.g. `example.co.uk` (a pasted URL is reduced to its host); its homepage is read. Give this or `url`, not both.",
  url: "One page of the site to read instead of its homepage (an address without a scheme is read as https). Give this or `domain`, not both.",
});

const Source = <T extends string>(values: readonly [T, ...T[]], what: string) => z.enum(values).describe(what);

const Icon = z.object({
  url: z.string().describe("Absolute URL."),
  type: z.string().optional().describe("The link's `type`, as written."),
  sizes: z.string().optional().describe("The link's `sizes`, as written."),
});

const Colour = z
  .object({
    hex: z.string().describe("The colour, `#rrggbb` in lower case (3-, 4- and 8-digit hex, rgb() and hsl() are converted; alpha is dropped)."),
    use: z
      .enum(["theme", "background", "tile", "mask-icon", "brand", "primary", "secondary", "accent", "text", "link", "border", "status", "other", "button"])
      .describe(
        "What the colour is for, as its first source says: `theme` (theme-color or the manifest's theme_color), `background` (the manifest's background_color, a background custom property, or painted as a background), `tile`, `mask-icon`; for custom properties the role its name gives (`brand`, `primary`, `secondary`, `accent`, `text`, `link`, `border`, `status`, `other`); for the rendered page where it is painted most (`background`, `text`, `border`, `button`, `link`). White and black are kept, marked by their use.",
      ),
    source: Source(
      ["theme-color", "manifest", "msapplication-TileColor", "mask-icon", "css-variable", "rendered"],
      "Where it was first found, in this priority: the theme-color meta, the web app manifest, msapplication-TileColor, the mask-icon colour, a CSS custom property, the rendered page.",
    ),
    sources: z.array(z.string()).describe("Every source that gave this colour, in the same priority (a colour is listed once)."),
    property: z.string().optional().describe("The CSS custom property holding it, e.g. `--brand-primary`."),
    media: z.string().optional().describe("A theme-color's media query, e.g. `(prefers-color-scheme: dark)`."),
    share: z.number().optional().describe("Share of the rendered page's painted area, 0–1, when the rendered page shows it."),
  })
  .openapi("BrandColour");

const WebFontFamily = z.object({
  family: z.string(),
  weights: z.array(z.string()).describe("Weights asked for (`400`, `700`, or a range `100..900`)."),
  italic: z.boolean(),
});

const FontStack = z.object({
  stack: z.string().describe("The font-family stack, families joined by `, ` without quotes."),
  primary: z.string().describe("Its first family that is not generic or a system keyword (`-apple-system`, `system-ui`)."),
  families: z.array(z.string()),
  uses: z.number().int().describe("Declarations using it (font-family and the font shorthand)."),
});

const Output = z
  .object({
    query: z
      .object({ domain: z.string().optional(), url: z.string().optional() })
      .describe("The request, as read (SPEC §2.1): the domain (its host only) or the URL."),
    page: z.string().describe("The page read, after redirects."),
    name: z
      .object({
        value: z.string(),
        source: Source(
          ["og:site_name", "application-name", "json-ld", "title"],
          "Where the name came from, first found in this order: og:site_name, the application-name meta, the JSON-LD organisation's name, the brand part of the page title.",
        ),
      })
      .nullable()
      .describe("The brand's name as the site gives it; null when it gives none."),
    tagline: z
      .object({
        value: z.string(),
        source: Source(
          ["meta-description", "hero-heading"],
          "`meta-description`: the first sentence of the meta description; `hero-heading`: a heading of the page's hero or banner (or a homepage's first h1).",
        ),
      })
      .nullable()
      .describe("A one-line description of the business in its own words; null when the page has none."),
    description: z.string().nullable().describe("The meta description, whole."),
    openGraph: z
      .object({
        title: z.string().optional().describe("og:title"),
        description: z.string().optional().describe("og:description"),
        image: z.string().optional().describe("og:image, absolute."),
        type: z.string().optional().describe("og:type"),
        url: z.string().optional().describe("og:url, absolute."),
        siteName: z.string().optional().describe("og:site_name"),
        twitterCard: z.string().optional().describe("twitter:card"),
        twitterSite: z.string().optional().describe("twitter:site (the site's account)."),
      })
      .describe("The social sharing tags (Open Graph and Twitter/X cards) as the page states them."),
    logos: z
      .array(LogoCandidateSchema)
      .describe(
        "Logo candidates best first, as company-logo gives them (SPEC §4.7): the page's own logo image, the app icon, an SVG or PNG icon, then the social share image (`social-image`).",
      ),
    icons: z
      .object({
        favicons: z
          .array(
            Icon.extend({
              assumed: z.literal(true).optional().describe("The page links no icon: browsers ask for /favicon.ico (not fetched, so it may not exist)."),
            }),
          )
          .describe('`<link rel="icon">` and `shortcut icon`, in page order; `/favicon.ico` (assumed) when there is none.'),
        appleTouchIcons: z.array(Icon).describe('`<link rel="apple-touch-icon">` (and -precomposed), in page order.'),
        maskIcon: z
          .object({ url: z.string(), colour: z.string().optional().describe("Its `color`, #rrggbb.") })
          .nullable()
          .describe("Safari's pinned-tab icon, with its colour."),
        manifest: z
          .object({
            url: z.string(),
            read: z.boolean().describe("false when it could not be read (see `notes`)."),
            name: z.string().optional(),
            shortName: z.string().optional().describe("short_name"),
            themeColour: z.string().optional().describe("theme_color, #rrggbb."),
            backgroundColour: z.string().optional().describe("background_color, #rrggbb."),
            icons: z
              .array(z.object({ url: z.string(), sizes: z.string().optional(), type: z.string().optional(), purpose: z.string().optional() }))
              .describe("Its icons, absolute (at most 20)."),
          })
          .nullable()
          .describe(`The web app manifest the page links (read up to ${MAX_MANIFEST_BYTES / 1024} KiB); null when it links none.`),
      })
      .describe("The site's icons."),
    colours: z
      .array(Colour)
      .describe(
        "The brand's colours, one entry per colour, at most 24: declared ones first (theme-color incl. its light/dark variants, the manifest, msapplication-TileColor, the mask-icon), then CSS custom properties that hold a colour (from the page's <style> and up to 4 same-site stylesheets; brand, primary, secondary, accent… first), then the rendered page's colours by share.",
      ),
    fonts: z
      .object({
        families: z
          .array(
            z.object({
              family: z.string(),
              sources: z.array(z.string()).describe("rendered, css, google-fonts, bunny-fonts, adobe-fonts, font-face."),
              weights: z.array(z.string()).optional(),
            }),
          )
          .describe("The brand's font families at a glance, most used first (at most 8); generic families and icon fonts left out."),
        stacks: z.array(FontStack).describe("The CSS font-family stacks, most used first (at most 5)."),
        fontFaces: z
          .array(
            z.object({
              family: z.string(),
              weights: z.array(z.string()),
              styles: z.array(z.string()),
              files: z.array(z.string()).describe("Font files, absolute, woff2 first (at most 8)."),
            }),
          )
          .describe("The @font-face rules, one per family."),
        webFonts: z
          .array(
            z.object({
              provider: z.enum(["google-fonts", "bunny-fonts", "adobe-fonts", "self-hosted"]),
              url: z.string(),
              families: z.array(WebFontFamily).optional().describe("The families a Google or Bunny Fonts URL asks for."),
              kitId: z.string().optional().describe("An Adobe Fonts kit's id."),
            }),
          )
          .describe("Web-font services linked (Google Fonts, Bunny Fonts, Adobe Fonts) and the site's own font files (`self-hosted`)."),
        rendered: z
          .array(
            z.object({
              family: z.string().describe("The computed stack."),
              primary: z.string().describe("Its first family that is not generic or a system keyword."),
              share: z.number().describe("Share of the visible text, 0–1."),
            }),
          )
          .nullable()
          .describe("The rendered page's fonts by share of visible text; null when the page was not rendered (see `rendered`)."),
      })
      .describe("The brand's typography."),
    socials: z
      .array(
        z.object({
          network: z.enum(NETWORKS as [string, ...string[]]),
          url: z.string().describe("The profile's canonical URL."),
          source: z.enum(["json-ld", "link"]).describe("`json-ld`: the organisation's schema.org sameAs; `link`: a link on the page."),
        }),
      )
      .describe(
        "The organisation's social profiles, one per network, in a fixed network order. Share and intent links are not profiles; personal profiles (LinkedIn /in/) are people and are left out (SPEC §1 rule 7).",
      ),
    business: z
      .object({
        companyNumber: z.string(),
        name: z.string().describe("The registered name at Companies House."),
        status: z.string().describe("company_status at Companies House, as it gives it."),
        evidence: z.string().describe("Where the site states the number: a quote of the page's text, or the JSON-LD identifier."),
        source: z.enum(["page", "json-ld"]).describe("`page`: the visible text; `json-ld`: the organisation's schema.org identifier."),
      })
      .optional()
      .describe(
        "The registered company behind the site (SPEC §2.1, §2.2): present only when the site states exactly one company number and Companies House has it.",
      ),
    registryNote: z
      .string()
      .optional()
      .describe("Why no `business` is given: no number stated, several different numbers, or a number Companies House does not have."),
    rendered: z
      .object({ available: z.boolean(), reason: z.string().optional().describe("Why the rendered page was not read.") })
      .describe("Whether the page was rendered in a browser for its painted colours and fonts; when not, the rest is answered from the HTML and CSS."),
    notes: z.array(z.string()).describe("What could not be read (a stylesheet, the manifest) and what was left out."),
    notice: z.string().describe("Logos and marks remain their owners' (as company-logo's notice)."),
    fetchedAt: z.string(),
  })
  .openapi("BrandKit");

type Out = z.infer<typeof Output>;

/** A text resource of the site (a stylesheet, the manifest): its text, or why it could not be read. */
async function fetchText(ctx: OpContext, url: string, maxBytes: number, accept: string): Promise<{ text: string; url: string } | { error: string }> {
  try {
    const r = await ctx.services.web.fetch(url, { accept, maxBytes, timeoutMs: 6_000, anyStatus: true });
    if (r.status < 200 || r.status > 299) return { error: `HTTP status ${r.status}` };
    return { text: r.text, url: r.url };
  } catch (e) {
    if (e instanceof InputError || e instanceof UpstreamError) return { error: e.message.replace(/\.$/, "").replace(/^The /, "the ") };
    throw e;
  }
}

/** The same-site stylesheets, at most MAX_STYLESHEETS, those @imported by the ones read included. */
async function readStylesheets(ctx: OpContext, facts: BrandPage, pageUrl: string, notes: string[]): Promise<{ css: string; url: string }[]> {
  const queue = [...facts.stylesheets];
  const read: { css: string; url: string }[] = [];
  let tried = 0;
  while (tried < queue.length && tried < MAX_STYLESHEETS) {
    const batch = queue.slice(tried, MAX_STYLESHEETS);
    tried += batch.length;
    const got = await Promise.all(batch.map((u) => fetchText(ctx, u, MAX_STYLESHEET_BYTES, "text/css,*/*;q=0.1")));
    got.forEach((g, i) => {
      if ("error" in g) notes.push(`The stylesheet ${batch[i]} could not be read (${g.error}).`);
      else {
        read.push({ css: g.text, url: g.url });
        queue.push(...sameSiteImports(g.text, g.url, pageUrl, queue));
      }
    });
  }
  if (queue.length > MAX_STYLESHEETS)
    notes.push(
      `${queue.length - MAX_STYLESHEETS} more same-site stylesheet${queue.length - MAX_STYLESHEETS === 1 ? " was" : "s were"} not read (at most ${MAX_STYLESHEETS}).`,
    );
  return read;
}

async function readManifestOf(ctx: OpContext, url: string, notes: string[]): Promise<{ manifest: Manifest | null; read: boolean }> {
  const got = await fetchText(ctx, url, MAX_MANIFEST_BYTES, "application/manifest+json,application/json;q=0.9,*/*;q=0.1");
  if ("error" in got) {
    notes.push(`The web app manifest could not be read (${got.error}).`);
    return { manifest: null, read: false };
  }
  try {
    return { manifest: readManifest(got.text, got.url), read: true };
  } catch {
    notes.push("The web app manifest is not valid JSON.");
    return { manifest: null, read: false };
  }
}

const EXAMPLE_PAGE = "https://example.co.uk/";

export const getBrandKit = defineOperation({
  operationId: "getBrandKit",
  method: "get",
  path: "/api/v1/brand-kit",
  family: "web",
  title: "Brand kit",
  summary:
    "A company's brand from its own website: name, tagline, logos, icons, colours, fonts, social profiles and sharing tags, and the registered company when the site states its number.",
  description: [
    "Reads a company's website (SPEC §4.8 names brand-kit; the reply's shape is ours) and returns its brand as the site states it. Give `domain` (its homepage is read) or `url` (one page), not both.",
    "",
    "- **name** and **tagline**, each saying where it came from (og:site_name, application-name, the JSON-LD organisation, the title; the meta description's first sentence or a hero heading).",
    "- **logos** in company-logo's order (SPEC §4.7): the page's own logo image, the app icon, an SVG or PNG icon, the social share image last.",
    `- **icons**: favicons (\`/favicon.ico\` assumed, not fetched, when none is linked), apple-touch icons, the mask icon with its colour, and the web app manifest (read up to ${MAX_MANIFEST_BYTES / 1024} KiB).`,
    `- **colours** as \`#rrggbb\`, each once with its use and source: theme-color (light and dark), the manifest, the tile and mask-icon colours, CSS custom properties holding a colour (the page's <style> and up to ${MAX_STYLESHEETS} same-site stylesheets, ${MAX_STYLESHEET_BYTES / 1024} KiB each), and the rendered page's painted colours where a browser is available.`,
    "- **fonts**: CSS font-family stacks counted by use, @font-face families, Google, Bunny and Adobe Fonts links (Google's families and weights read from the URL), self-hosted font files, and the rendered page's fonts.",
    "- **socials**: one profile per network (LinkedIn company pages, X/Twitter, Facebook, Instagram, YouTube, TikTok, GitHub, Threads, Bluesky, Mastodon) from the page's links and the JSON-LD `sameAs`; share and intent links are dropped, and personal LinkedIn profiles are people and are left out (SPEC §1 rule 7).",
    "- **description** and **openGraph** (og:title, og:description, og:image, og:type, og:url, twitter:card, twitter:site).",
    "- **business** (SPEC §2.1, §2.2): the registered company, only when the site states exactly one company number (in its text or its JSON-LD) and Companies House has it, with the statement quoted; otherwise `registryNote` says why there is none. If Companies House cannot be read the call answers 503 and gives its credits back.",
    "",
    `Where no browser is available, or it fails, \`rendered\` says so and everything else is still answered. A page that cannot be fetched or is not HTML answers 422 and uses no credits. ${HTML_LIMITS_TEXT} The same site read twice gives the same reply apart from \`fetchedAt\`. Logos and marks remain their owners' (\`notice\`).`,
  ].join("\n"),
  input: Input,
  output: Output,
  price: 2,
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: 45_000,
  example: { domain: "example.co.uk" },
  exampleReply: () =>
    ({
      query: { domain: "example.co.uk" },
      page: EXAMPLE_PAGE,
      name: { value: "Bramblewick Studio", source: "og:site_name" },
      tagline: { value: "Brand and packaging design for independent food and drink makers.", source: "meta-description" },
      description: "Brand and packaging design for independent food and drink makers. Based in Bristol since 2011.",
      openGraph: {
        title: "Bramblewick Studio | Brand and packaging design",
        description: "Brand and packaging design for independent food and drink makers.",
        image: `${EXAMPLE_PAGE}assets/og-share.png`,
        type: "website",
        url: EXAMPLE_PAGE,
        siteName: "Bramblewick Studio",
        twitterCard: "summary_large_image",
        twitterSite: "@bramblewick",
      },
      logos: [
        { url: `${EXAMPLE_PAGE}assets/bramblewick-logo.svg`, source: "logo-image", type: "image/svg+xml" },
        { url: `${EXAMPLE_PAGE}icons/apple-touch-icon.png`, source: "app-icon", type: "image/png", sizes: "180x180" },
        { url: `${EXAMPLE_PAGE}assets/og-share.png`, source: "social-image", type: "image/png" },
      ],
      icons: {
        favicons: [{ url: `${EXAMPLE_PAGE}icons/favicon.svg`, type: "image/svg+xml" }],
        appleTouchIcons: [{ url: `${EXAMPLE_PAGE}icons/apple-touch-icon.png`, sizes: "180x180" }],
        maskIcon: { url: `${EXAMPLE_PAGE}icons/safari-pinned-tab.svg`, colour: "#0a3d62" },
        manifest: {
          url: `${EXAMPLE_PAGE}site.webmanifest`,
          read: true,
          name: "Bramblewick Studio",
          shortName: "Bramblewick",
          themeColour: "#0a3d62",
          backgroundColour: "#fdf6ec",
          icons: [{ url: `${EXAMPLE_PAGE}icons/icon-512.png`, sizes: "512x512", type: "image/png" }],
        },
      },
      colours: [
        { hex: "#0a3d62", use: "theme", source: "theme-color", sources: ["theme-color", "manifest", "mask-icon", "css-variable"], property: "--brand-primary" },
        { hex: "#fdf6ec", use: "background", source: "manifest", sources: ["manifest", "css-variable"], property: "--color-surface" },
        { hex: "#e58e26", use: "accent", source: "css-variable", sources: ["css-variable"], property: "--brand-accent" },
      ],
      fonts: {
        families: [
          { family: "Fraunces", sources: ["css", "google-fonts"], weights: ["600", "700"] },
          { family: "Inter", sources: ["css", "google-fonts"], weights: ["400", "500"] },
        ],
        stacks: [
          { stack: "Inter, Helvetica Neue, Arial, sans-serif", primary: "Inter", families: ["Inter", "Helvetica Neue", "Arial", "sans-serif"], uses: 6 },
          { stack: "Fraunces, Georgia, serif", primary: "Fraunces", families: ["Fraunces", "Georgia", "serif"], uses: 3 },
        ],
        fontFaces: [],
        webFonts: [
          {
            provider: "google-fonts",
            url: "https://fonts.googleapis.com/css2?family=Fraunces:wght@600;700&family=Inter:wght@400;500&display=swap",
            families: [
              { family: "Fraunces", weights: ["600", "700"], italic: false },
              { family: "Inter", weights: ["400", "500"], italic: false },
            ],
          },
        ],
        rendered: null,
      },
      socials: [
        { network: "linkedin", url: "https://www.linkedin.com/company/bramblewick-studio", source: "link" },
        { network: "instagram", url: "https://www.instagram.com/bramblewickstudio", source: "link" },
      ],
      business: {
        companyNumber: "09182736",
        name: "BRAMBLEWICK STUDIO LIMITED",
        status: "active",
        evidence: "Bramblewick Studio Limited, registered in England and Wales, company number 09182736.",
        source: "page",
      },
      rendered: {
        available: false,
        reason: "No browser is configured here, so the rendered page's colours and fonts were not read; the rest comes from the HTML and CSS.",
      },
      notes: [],
      notice: LOGO_NOTICE,
      fetchedAt: "2026-11-21T09:00:00.000Z",
    }) satisfies Out,
  async handler(input, ctx) {
    const query = input.domain !== undefined ? { domain: input.domain } : { url: input.url! };
    const page = await fetchHtmlPage(ctx.services, pageOf(input), { field: input.domain !== undefined ? "domain" : "url", query, maxBytes: PAGE_MAX_BYTES });

    const facts = readBrandPage(page.text, page.url);
    const evidence = companyEvidence(statedCompanyNumbers(facts.text), facts.jsonLdCompanyNumbers);
    // Notes are gathered per part and joined in a fixed order, so the same site gives the same reply.
    const sheetNotes: string[] = [];
    const manifestNotes: string[] = [];
    const [sheets, manifest, render, profile] = await Promise.all([
      readStylesheets(ctx, facts, page.url, sheetNotes),
      facts.manifestUrl ? readManifestOf(ctx, facts.manifestUrl, manifestNotes) : Promise.resolve(null),
      // The rendered page's colours and fonts, or why there are none: a browser failure never fails the call.
      renderOrReason(ctx.services.browser, page, { read: { colours: true, fonts: true }, timeoutMs: 20_000, loadTimeoutMs: 8_000 }),
      // A Companies House failure is an UpstreamError: 503 with the credits back, never a silent omission.
      evidence.kind === "one" ? ctx.services.companiesHouse.getProfile(evidence.number) : Promise.resolve(null),
    ]);
    const notes = [...sheetNotes, ...manifestNotes];

    const rendered = "page" in render ? render.page : null;
    const colours = brandColours({
      meta: facts.metaColours,
      manifest: manifest?.manifest ?? null,
      cssProperties: cssColourProperties(facts.inlineCss, sheets),
      rendered: rendered?.colours ?? null,
    });
    const fonts = brandFonts({
      css: facts.inlineCss,
      sheets,
      inlineBase: page.url,
      webFontLinks: facts.webFontLinks,
      preloadedFonts: facts.preloadedFonts,
      pageUrl: page.url,
      rendered: rendered ? (rendered.fonts ?? []) : null,
    });
    if (facts.personalProfilesLeftOut)
      notes.push(`${facts.personalProfilesLeftOut} personal profile link${facts.personalProfilesLeftOut === 1 ? "" : "s"} left out: people are not named.`);

    let business: Out["business"];
    let registryNote: string | undefined;
    if (evidence.kind === "none") registryNote = "The site does not state a company number, so no registered company is given.";
    else if (evidence.kind === "several")
      registryNote = `The site states ${evidence.numbers.length} different company numbers (${evidence.numbers.join(", ")}), so none is taken as the company behind it.`;
    else if (!profile) registryNote = `The site states company number ${evidence.number}, but Companies House has no company with that number.`;
    else business = { companyNumber: profile.number, name: profile.name, status: profile.status, evidence: evidence.quote, source: evidence.source };

    const reply: Out = {
      query,
      page: page.url,
      name: facts.name,
      tagline: facts.tagline,
      description: facts.description,
      openGraph: facts.openGraph,
      logos: facts.logos,
      icons: {
        favicons: facts.favicons,
        appleTouchIcons: facts.appleTouchIcons,
        maskIcon: facts.maskIcon,
        manifest: facts.manifestUrl ? { ...(manifest?.manifest ?? { url: facts.manifestUrl, icons: [] }), read: !!manifest?.read } : null,
      },
      colours,
      fonts,
      socials: facts.socials,
      ...(business ? { business } : {}),
      ...(registryNote ? { registryNote } : {}),
      rendered: "page" in render ? { available: true } : { available: false, reason: render.reason },
      notes,
      notice: LOGO_NOTICE,
      fetchedAt: ctx.now.toISOString(),
    };
    return reply;
  },
});
