import { HTML_SECURITY_HEADERS, esc } from "./html";

/**
 * `/docs`: the interactive API reference, rendered in the browser by Scalar (MIT) from /openapi.json, with
 * "try it" sending the caller's key to this origin. The renderer's script is a static asset of this Worker
 * (public/vendor/, see scripts/copy-assets.mjs), so nothing is loaded from a CDN. Its configuration is a data
 * attribute, not an inline script: the page's CSP allows scripts from this origin only. /assets/docs-a11y.js
 * mends the renderer's markup for assistive technology (see assets.ts), so the page passes axe-core.
 */
const CONFIGURATION = {
  // Everything stays on this origin: no web fonts, no hosted client, no proxy, no AI agent, no telemetry.
  withDefaultFonts: false,
  hideClientButton: true,
  proxyUrl: "",
  agent: { disabled: true },
  telemetry: false,
  hideDarkModeToggle: true,
  // Every operation listed at once (groups open), and no developer toolbar (it offers hosted services).
  defaultOpenAllTags: true,
  showDeveloperTools: "never",
  // Parts of the renderer that fail an accessibility audit and that the reference does without: the models
  // section (each schema is shown with its operation), the list of client libraries (curl is shown) and the
  // search button (it has no accessible name); and colours darkened to meet WCAG AA contrast.
  hideModels: true,
  hiddenClients: true,
  hideSearch: true,
  customCss:
    ".dark-mode { --scalar-color-red: #ff8f87; --scalar-color-orange: #ffb25c; } :root, .light-mode { --scalar-color-2: #3b3b3b; --scalar-color-3: #4a4a4a; --scalar-color-accent: #0b4fbf; --scalar-color-blue: #0b4fbf; --scalar-color-green: #0a6b2d; --scalar-color-orange: #8a4b00; --scalar-color-red: #a10e0e; --scalar-color-purple: #5b2a86; --scalar-color-yellow: #6b5200; }",
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  authentication: { preferredSecurityScheme: "ApiKey" },
  metaData: { title: "API reference · UK Business Intelligence API" },
};

export function docsPage(): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · UK Business Intelligence API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<meta name="description" content="Every operation of the UK Business Intelligence API: parameters, prices, errors, examples, and try it with your key.">
</head>
<body>
<div id="api-reference" data-url="/openapi.json" data-configuration="${esc(JSON.stringify(CONFIGURATION))}"></div>
<script src="/vendor/scalar/standalone.js"></script>
<script src="/assets/docs-a11y.js"></script>
</body>
</html>`;
}

/**
 * The reference page's CSP: scripts from this origin only, as on every page. The renderer sets styles from
 * script (style attributes and <style> elements), so styles may be inline here; nothing else is loosened.
 */
export const DOCS_HEADERS: Record<string, string> = {
  ...HTML_SECURITY_HEADERS,
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; worker-src 'self' blob:",
};
