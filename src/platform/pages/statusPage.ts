import type { statusResponse } from "../status";
import { html, layout } from "./html";

type Status = Awaited<ReturnType<typeof statusResponse>>;

const STATE_WORDS: Record<string, string> = { ok: "Working", degraded: "Degraded", down: "Down", not_configured: "Not configured" };
const stateCell = (s: string) => html`<span class="${s === "ok" ? "state-ok" : s === "down" ? "state-bad" : "state-other"}">${STATE_WORDS[s] ?? s}</span>`;

/** `/status` for a browser: the same facts as /api/status, as tables. */
export function statusPage(s: Status): string {
  const registers = s.sources.filter((x) => x.name.startsWith("register:"));
  const upstreams = s.sources.filter((x) => !x.name.startsWith("register:"));
  const body = html`
<h1>Service status</h1>
<p class="lead">Overall: ${stateCell(s.status)}. Version ${s.version}, checked ${s.checkedAt}. The same facts as JSON: <a href="/api/status">/api/status</a>.</p>
<h2>Registers</h2>
${
  registers.length
    ? html`<table>
<caption>Each register's last daily read and the edition it answers from</caption>
<thead><tr><th scope="col">Register</th><th scope="col">State</th><th scope="col">Edition and last run</th><th scope="col">Checked</th></tr></thead>
<tbody>${registers.map((r) => html`<tr><td>${r.name.slice("register:".length)}</td><td>${stateCell(r.state)}</td><td>${r.detail ?? ""}</td><td>${r.checkedAt}</td></tr>`)}</tbody>
</table>`
    : html`<p>No register has been loaded yet.</p>`
}
<h2>Upstreams</h2>
<table>
<caption>Whether each upstream answered just now</caption>
<thead><tr><th scope="col">Upstream</th><th scope="col">State</th><th scope="col">Detail</th><th scope="col">Checked</th></tr></thead>
<tbody>${upstreams.map((u) => html`<tr><td>${u.name}</td><td>${stateCell(u.state)}</td><td>${u.detail ?? (u.latencyMs !== undefined ? `${u.latencyMs} ms` : "")}</td><td>${u.checkedAt}</td></tr>`)}
<tr><td>database (D1)</td><td>${stateCell(s.database.state)}</td><td>${s.database.detail ?? ""}</td><td>${s.database.checkedAt}</td></tr></tbody>
</table>
`;
  return layout({ title: "Status", description: "The state of each register and upstream the API reads.", path: "/status", body });
}
