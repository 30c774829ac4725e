import { lastRuns } from "../db/runs";
import type { Env } from "../env";
import { REGISTER_CATALOGUE, type StatusUpstream } from "../services/registers/catalogue";
import { REGISTER_SOURCES } from "../services/registers/types";
import { API_VERSION } from "./openapi";

type State = "ok" | "degraded" | "down" | "not_configured";

export interface SourceStatus {
  name: string;
  state: State;
  checkedAt: string;
  latencyMs?: number;
  detail?: string;
}

const CHECK_TIMEOUT_MS = 2_500;
const CACHE_MS = 60_000;

/** Reachability results, cached per isolate so a busy status page does not hammer upstreams. */
let cache: { at: number; sources: SourceStatus[] } | null = null;

/** The registers' own upstreams, in the catalogue's order (each entry's `upstreams`). */
const REGISTER_UPSTREAMS = REGISTER_SOURCES.flatMap((s): readonly StatusUpstream[] => REGISTER_CATALOGUE[s].upstreams);
/** A catalogue entry naming a variable the Worker does not have is a compile error here. */
type UpstreamVar = (typeof REGISTER_CATALOGUE)[keyof typeof REGISTER_CATALOGUE]["upstreams"][number]["urlVar"];
const UPSTREAM_VARS_ARE_ENV: UpstreamVar extends keyof Env ? true : never = true;
void UPSTREAM_VARS_ARE_ENV;

/** The upstreams /api/status asks: the shared ones (Companies House, The Gazette, GOV.UK), then the registers'. */
export function upstreamsOf(env: Env): { name: string; url: string | undefined }[] {
  return [
    { name: "companies-house", url: env.COMPANIES_HOUSE_URL },
    { name: "the-gazette", url: env.GAZETTE_URL },
    { name: "gov-uk-content", url: env.GOVUK_CONTENT_URL },
    ...REGISTER_UPSTREAMS.map((u) => ({ name: u.name, url: env[u.urlVar as UpstreamVar] })),
  ];
}

/** A cheap reachability check: any HTTP answer below 500 means the host is up (401/404 included). */
async function check(name: string, url: string | undefined): Promise<SourceStatus> {
  const checkedAt = new Date().toISOString();
  if (!url) return { name, state: "not_configured", checkedAt };
  const started = Date.now();
  try {
    const res = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), redirect: "manual" });
    const latencyMs = Date.now() - started;
    return res.status < 500 ? { name, state: "ok", checkedAt, latencyMs } : { name, state: "down", checkedAt, latencyMs, detail: `HTTP ${res.status}` };
  } catch (e) {
    return { name, state: "down", checkedAt, detail: (e as Error).name === "TimeoutError" ? "time-out" : "unreachable" };
  }
}

/** The readers Worker (the PDF engine and the browser) through the READERS binding: it answers, and has a browser or not. */
async function checkReaders(env: Env): Promise<SourceStatus> {
  const name = "readers-worker";
  const checkedAt = new Date().toISOString();
  if (!env.READERS) return { name, state: "not_configured", checkedAt, detail: "no READERS binding: PDFs cannot be read and no page can be rendered" };
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const r = await Promise.race([
      env.READERS.ping(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("time-out")), CHECK_TIMEOUT_MS))),
    ]);
    const latencyMs = Date.now() - started;
    return r.browser
      ? { name, state: "ok", checkedAt, latencyMs }
      : { name, state: "degraded", checkedAt, latencyMs, detail: "no browser (Browser Rendering) is configured: pages are read without one" };
  } catch (e) {
    return { name, state: "down", checkedAt, detail: (e as Error).message === "time-out" ? "time-out" : "unreachable" };
  } finally {
    clearTimeout(timer);
  }
}

/** The state of each register's daily ingest: its last run and when it last succeeded. */
async function registerStates(env: Env): Promise<SourceStatus[]> {
  const rows = await lastRuns(env.DB);
  return rows.map((r) => ({
    name: `register:${r.source}`,
    state: r.outcome === "loaded" || r.outcome === "unchanged" ? "ok" : "degraded",
    checkedAt: r.finished_at ?? new Date().toISOString(),
    detail:
      r.outcome === "loaded" || r.outcome === "unchanged"
        ? `edition ${r.edition ?? "unknown"}`
        : `last run ${r.outcome}: ${r.reason ?? "no reason recorded"}; serving edition ${r.edition ?? "none"}`,
  }));
}

export async function statusResponse(
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<{ status: State; version: string; checkedAt: string; database: SourceStatus; sources: SourceStatus[] }> {
  const started = Date.now();
  let database: SourceStatus;
  let registers: SourceStatus[] = [];
  try {
    await env.DB.prepare(`SELECT COUNT(*) AS n FROM api_keys`).first();
    database = { name: "d1", state: "ok", checkedAt: new Date().toISOString(), latencyMs: Date.now() - started };
    registers = await registerStates(env).catch(() => []);
  } catch {
    database = { name: "d1", state: "down", checkedAt: new Date().toISOString(), detail: "query failed" };
  }
  if (!cache || Date.now() - cache.at > CACHE_MS) {
    const p = Promise.all([...upstreamsOf(env).map((u) => check(u.name, u.url)), checkReaders(env)]).then((sources) => (cache = { at: Date.now(), sources }));
    waitUntil(p);
    await p;
  }
  const sources = [...(cache?.sources ?? []), ...registers];
  const status: State = database.state !== "ok" ? "down" : sources.some((s) => s.state === "down" || s.state === "degraded") ? "degraded" : "ok";
  return { status, version: API_VERSION, checkedAt: new Date().toISOString(), database, sources };
}

/** Tests reset the isolate-level cache between cases. */
export const resetStatusCache = () => {
  cache = null;
};
