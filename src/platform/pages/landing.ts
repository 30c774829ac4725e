import { REGISTER_CATALOGUE } from "../../services/registers/catalogue";
import { PLANS } from "../plans";
import { type AnyOperation, priceText } from "../registry";
import { byFamily } from "../families";
import { html, layout } from "./html";

/** `/` for a browser: what the service does, what each call costs, the free plan, and where everything is. */
export function landingPage(ops: readonly AnyOperation[]): string {
  const body = html`
<h1>UK company checks as an API</h1>
<p class="lead">One HTTP/JSON API, and an MCP server beside it, over UK public data: the registers and their daily changes, the companies register, risk and sanctions, payments and public money, and documents and web pages read into facts. Every reply says where it came from and how sure it is.</p>
<ul class="families">${byFamily(ops).map((f) => html`<li><a href="#family-${f.id}">${f.family.title}</a>: ${f.family.description.replace(/^[^:]*:\s*/, "")}</li>`)}</ul>
<p class="actions"><a class="button" href="/signup">Get a free key</a> <a class="button secondary" href="/docs">Read the API reference</a></p>

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
