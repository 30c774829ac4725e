import type { Context, Hono } from "hono";
import type { Env } from "../../env";
import { bodyText } from "../body";
import { type CallMeta, execute } from "../gateway";
import type { AnyOperation } from "../registry";
import { routes } from "../routes";
import { statusResponse } from "../status";
import { ASSETS } from "./assets";
import { DOCS_HEADERS, docsPage } from "./docs";
import { htmlResponse } from "./html";
import { landingPage } from "./landing";
import { codesForm, keyPage, signupForm } from "./signup";
import { statusPage } from "./statusPage";

type AppEnv = { Bindings: Env; Variables: { requestId: string } };

/** What the pages need from the app around them. */
export interface PageDeps {
  /** Every operation, loaded when first asked for (the landing page lists them). */
  ops(): Promise<readonly AnyOperation[]>;
  meta(c: Context<AppEnv>): CallMeta;
}

/** Whether a request for `/` comes from a browser (it prefers HTML); API clients (curl's any-type Accept, application/json) get JSON. */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const html = accept.indexOf("text/html");
  const json = accept.indexOf("application/json");
  return html >= 0 && (json < 0 || html < json);
}

const MAX_FORM_BYTES = 4 * 1024;

/** An operation the forms run through the gateway, loaded from the route table as its API route loads it. */
async function operation(operationId: "startSignup" | "verifySignup"): Promise<AnyOperation> {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`${operationId} is not in the route table`);
  return route.load();
}

async function form(c: Context<AppEnv>): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header("content-type") ?? "")) return new URLSearchParams();
  return new URLSearchParams(await bodyText(c.req.raw, MAX_FORM_BYTES));
}

/** Error replies of the sign-up calls, said for a person. */
function said(body: { code?: string; message?: string; field?: string }, retryAfter: string | undefined): { message: string; field?: string } {
  switch (body.code) {
    case "rate_limited": {
      const minutes = Math.max(1, Math.ceil(Number(retryAfter ?? 60) / 60));
      return { message: `Too many sign-up attempts for this address, number or network. Try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.` };
    }
    case "key_limit_reached":
      return {
        message:
          "This email or mobile already has an account with 5 active keys, which all share its balance. Revoke one (DELETE /api/v1/account/keys) before adding another.",
      };
    case "upstream_unavailable":
      return { message: "The codes could not be sent just now. Try again in a few minutes." };
    case "unverified":
      return { message: body.message ?? "The codes did not match.", field: body.field };
    default:
      return { message: body.message ?? "Something went wrong. Try again.", field: body.field };
  }
}

/** The pages for people: `/` (for browsers), `/signup`, `/status`, and their stylesheet and script. */
export function registerPages(app: Hono<AppEnv>, deps: PageDeps): void {
  for (const [path, a] of Object.entries(ASSETS))
    app.get(
      path,
      () => new Response(a.body, { headers: { "content-type": a.type, "cache-control": "public, max-age=3600", "x-content-type-options": "nosniff" } }),
    );

  app.get("/", async (c, next) =>
    wantsHtml(c.req.header("accept")) ? htmlResponse(landingPage(await deps.ops(), { logo: c.req.query("logo"), origin: new URL(c.req.url).origin })) : next(),
  );

  app.get("/docs", () => htmlResponse(docsPage(), 200, DOCS_HEADERS));

  app.get("/status", async (c) => {
    const s = await statusResponse(c.env, (p) => deps.meta(c).waitUntil(p));
    return htmlResponse(statusPage(s), 200, { "cache-control": "no-store" });
  });

  app.get("/signup", () => htmlResponse(signupForm()));

  app.post("/signup", async (c) => {
    const f = await form(c);
    const values = { email: f.get("email") ?? "", mobile: f.get("mobile") ?? "" };
    const o = await execute(c.env, await operation("startSignup"), values, deps.meta(c));
    if (o.status !== 201) return htmlResponse(signupForm(values, said(o.body as never, o.headers["retry-after"])), o.status);
    const r = o.body as { challengeId: string; expiresAt: string; sentTo: { email: string; mobile: string } };
    return htmlResponse(codesForm({ ...r, local: c.env.EMAIL_PROVIDER === "log" }), 200, { "cache-control": "no-store" });
  });

  app.post("/signup/verify", async (c) => {
    const f = await form(c);
    const input = { challengeId: f.get("challengeId") ?? "", emailCode: (f.get("emailCode") ?? "").trim(), mobileCode: (f.get("mobileCode") ?? "").trim() };
    const o = await execute(c.env, await operation("verifySignup"), input, deps.meta(c));
    if (o.status !== 201) {
      const sentTo = { email: f.get("sentEmail") ?? "your email", mobile: f.get("sentMobile") ?? "your mobile" };
      const errors = said(o.body as never, o.headers["retry-after"]);
      return htmlResponse(
        codesForm({ challengeId: input.challengeId, sentTo, expiresAt: f.get("expiresAt") ?? "", local: c.env.EMAIL_PROVIDER === "log", errors }),
        o.status,
        { "cache-control": "no-store" },
      );
    }
    const k = o.body as { apiKey: string; keyId: string; plan: string; monthlyCredits: number; newAccount: boolean };
    return htmlResponse(keyPage({ ...k, origin: new URL(c.req.url).origin }), 201, { "cache-control": "no-store" });
  });
}
