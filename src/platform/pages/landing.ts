import { REGISTER_CATALOGUE } from "../../services/registers/catalogue";
import { PLANS } from "../plans";
import { type AnyOperation, priceText } from "../registry";
import { byFamily } from "../families";
import { html, layout } from "./html";
import { looksLikeCompanyNumber, normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { Domain } from "../../app/web/page";

const LOGO_PATH = "/api/v1/company-logo/image";

/**
 * The landing page's logo form (issue 32): what was typed, read as a company number or a website domain, and the
 * image address for it; null with a message when it is neither. Server-side only (the page runs no script of its own).
 */
export function logoTry(raw: string | undefined): { query: string; src: string; label: string } | { error: string } | null {
  const text = (raw ?? "").trim();
  if (!text) return null;
  if (text.length > 200) return { error: "Type a website domain or a company number (at most 200 characters)." };
  const number = looksLikeCompanyNumber(text) ? normaliseCompanyNumber(text) : null;
  if (number) return { query: `company=${number}`, src: `${LOGO_PATH}?company=${number}`, label: `company ${number}` };
  const domain = Domain.safeParse(text);
  if (!domain.success) return { error: `"${text.slice(0, 80)}" is neither a website domain (such as example.co.uk) nor a company number (such as 00445790).` };
  const d = encodeURIComponent(domain.data);
  return { query: `domain=${d}`, src: `${LOGO_PATH}?domain=${d}`, label: domain.data };
}

/** `/` for a browser: what the service does, what each call costs, the free plan, and where everything is. */
export function landingPage(ops: readonly AnyOperation[], opts: { logo?: string; origin?: string } = {}): string {
  const tried = logoTry(opts.logo);
  const origin = opts.origin ?? "";
  const body = html`
<h1>UK company checks as an API</h1>
<p class="lead">One HTTP/JSON API, and an MCP server beside it, over UK public data: the registers and their daily changes, the companies register, risk and sanctions, payments and public money, and documents and web pages read into facts. Every reply says where it came from and how sure it is.</p>
<ul class="families">${byFamily(ops).map((f) => html`<li><a href="#family-${f.id}">${f.family.title}</a>: ${f.family.description.replace(/^[^:]*:\s*/, "")}</li>`)}</ul>
<p class="actions"><a class="button" href="/signup">Get a free key</a> <a class="button secondary" href="/docs">Read the API reference</a></p>

<h2 id="logos">Company logos in an <code>&lt;img&gt;</code> tag</h2>
<p>The logo of a website, or of a UK company by its number (the website our enrichment confirms for it), as an image: resized, cached at the edge, with the company's initials when there is no logo. No key needed; a <a href="/docs#tag/account">publishable key</a> (<code>pk_…</code>, for your own sites' pages only) raises the limit. Never put your secret key in a page.</p>
<form class="try" action="/#logos" method="get">
<label for="logo">Website domain or company number</label>
<input id="logo" name="logo" type="text" inputmode="url" autocomplete="off" spellcheck="false" placeholder="example.co.uk or 00445790" value="${opts.logo ?? ""}"${tried && "error" in tried ? html` aria-invalid="true" aria-describedby="logo-error"` : ""}>
<button type="submit">Show the logo</button>
</form>
${
  tried && "error" in tried
    ? html`<p id="logo-error" class="error" role="alert">${tried.error}</p>`
    : tried
      ? html`<figure class="logos">
<img src="${tried.src}&amp;size=128" width="128" height="128" alt="Logo of ${tried.label}">
<img src="${tried.src}&amp;size=64&amp;greyscale=true" width="64" height="64" alt="Logo of ${tried.label}, greyscale">
<img src="${tried.src}&amp;size=32" width="32" height="32" alt="Logo of ${tried.label}, 32 pixels">
<figcaption>The logo of ${tried.label} at 128, 64 (greyscale) and 32 pixels.</figcaption>
</figure>`
      : ""
}
<pre><code>&lt;img src="${origin}${LOGO_PATH}?${tried && !("error" in tried) ? tried.query : "domain=example.co.uk"}&amp;size=64&amp;key=pk_…" width="64" height="64" alt="…"&gt;</code></pre>

<h2>Free plan</h2>
<ul>
<li>${PLANS.free.monthlyCredits} credits a month, no card: a verified email address and mobile number are all it takes.</li>
<li>Up to ${PLANS.free.burstPerMinute} calls a minute. Credits reset on the 1st of each month (UTC).</li>
<li>A call that fails on our side or upstream, or finds nothing, gives its credits back.</li>
</ul>

<h2>What each call costs</h2>
${byFamily(ops).map(
  (f) => html`<table id="family-${f.id}">
<caption>${f.family.title}</caption>
<thead><tr><th scope="col">Operation</th><th scope="col">Request</th><th scope="col">Price</th></tr></thead>
<tbody>${f.ops.map(
    (o) =>
      html`<tr><td>${o.title}<span class="hint">${o.summary}</span></td><td><code>${o.method.toUpperCase()} ${o.path}</code></td><td>${priceText(o.price)}</td></tr>`,
  )}</tbody>
</table>`,
)}

<h2>Use it from code or from an AI agent</h2>
<ul class="cards">
<li><h3>HTTP</h3><p>Send your key in the <code>x-api-key</code> header. Every error is JSON with <code>code</code>, <code>message</code> and <code>requestId</code>.</p><p><a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a></p></li>
<li><h3 id="mcp">MCP</h3><p>The same operations as MCP tools at <code>/mcp</code> (streamable HTTP), with <code>Authorization: Bearer</code> and your key. Same prices.</p></li>
<li><h3>Status and changes</h3><p>Each register's edition and each upstream's state: <a href="/status">status</a>. What changed in the API: <a href="/changelog">change log</a>.</p></li>
</ul>

<h2 id="licences">Licences and attribution</h2>
<p>Company data from Companies House: Contains public sector information licensed under the Open Government Licence v3.0.</p>
<table>
<caption>The registers this service reads</caption>
<thead><tr><th scope="col">Register</th><th scope="col">Attribution</th><th scope="col">Licence</th></tr></thead>
<tbody>${Object.values(REGISTER_CATALOGUE).map((r) => html`<tr><td>${r.title}</td><td>${r.attribution}</td><td>${r.licence ?? "The publisher's own terms"}</td></tr>`)}</tbody>
</table>
<p>People are counted, never named, unless the account has a verified email and mobile. Individuals registered under their own names are not covered.</p>
`;
  return layout({ title: "Home", description: "UK company checks as an API: registers, change feeds, late-payment interest and logos.", path: "/", body });
}
