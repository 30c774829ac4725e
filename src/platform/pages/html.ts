/** Server-rendered HTML for people (landing, sign-up, status): one layout, escaped text, no inline script or style. */

/** Escapes text for HTML content and attribute values. */
export const esc = (s: unknown): string =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A piece of HTML that is already safe (built with `esc` or from constants). */
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

/** Tagged template: interpolated values are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  values.forEach((v, i) => {
    const part = (x: unknown): string =>
      x instanceof Html ? x.value : Array.isArray(x) ? x.map(part).join("") : x === null || x === undefined || x === false ? "" : esc(x);
    out += part(v) + strings[i + 1];
  });
  return new Html(out);
}

const NAV: [string, string][] = [
  ["/", "Home"],
  ["/docs", "API reference"],
  ["/signup", "Get a key"],
  ["/status", "Status"],
  ["/changelog", "Changes"],
];

/** The page shell: skip link, header with navigation, main, footer. Scripts only as files under /assets (CSP: script-src 'self'). */
export function layout(o: { title: string; description: string; path: string; body: Html; scripts?: string[] }): string {
  return `<!doctype html>
${
  html`<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · UK Business Intelligence API</title>
<meta name="description" content="${o.description}">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/site.css">
${(o.scripts ?? []).map((s) => html`<script src="${s}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<p class="brand"><a href="/">UK Business Intelligence API</a></p>
<nav aria-label="Main">
<ul>${NAV.map(([href, label]) => html`<li><a href="${href}"${href === o.path ? new Html(' aria-current="page"') : ""}>${label}</a></li>`)}</ul>
</nav>
</header>
<main id="main">
${o.body}
</main>
<footer class="site">
<p>Open data from UK public registers, with the attribution each publisher requires (see <a href="/#licences">licences</a>). Not legal advice.</p>
<p><a href="/openapi.json">OpenAPI (JSON)</a> · <a href="/openapi.yaml">OpenAPI (YAML)</a> · <a href="/apis.md">API index (Markdown)</a> · <a href="/.well-known/api-catalog">API catalog</a></p>
</footer>
</body>
</html>`.value
}`;
}

/** Headers every HTML page carries: a Content-Security-Policy with no inline script, and the usual hardening. */
export const HTML_SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

/** An HTML reply with the security headers. */
export function htmlResponse(body: string, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", ...HTML_SECURITY_HEADERS, ...extra } });
}
