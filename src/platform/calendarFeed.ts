import type { Context } from "hono";
import type { Env } from "../env";
import { deadlinesCalendar } from "../services/companies/calendar";
import { readDeadlines } from "../app/companies/company";
import { ApiError } from "./errors";
import { errorOutcome } from "./gateway";
import { buildServices } from "./services";

/**
 * GET /api/v1/deadlines.ics?token=… : the deadlines of one company as iCalendar, for calendar apps (which cannot
 * send a key). Free and keyless: the token is the capability (made by GET /api/v1/deadlines, bound to a key and a
 * company, revocable). Not an operation of the registry because its reply is text/calendar, not JSON; the
 * deadlines operation documents it.
 */
export async function calendarFeedResponse(c: Context<{ Bindings: Env; Variables: { requestId: string } }>): Promise<Response> {
  const requestId = c.get("requestId");
  const fail = (e: unknown) => {
    const o = errorOutcome(e, requestId);
    return new Response(JSON.stringify(o.body), { status: o.status, headers: { "content-type": "application/json; charset=utf-8", ...o.headers } });
  };
  const token = c.req.query("token") ?? "";
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return fail(new ApiError("not_found", "No calendar feed at that address.", { field: "token" }));
  try {
    const services = buildServices(c.env);
    const feed = await services.calendarFeeds.feedByToken(token);
    if (!feed) return fail(new ApiError("not_found", "No calendar feed at that address (it may have been switched off)."));
    const ch = services.companiesHouse;
    const profile = await ch.getProfile(feed.company);
    if (!profile) return fail(new ApiError("not_found", "The company of this feed is no longer on the companies register."));
    const { deadlines } = await readDeadlines(services, profile, new Date().toISOString().slice(0, 10));
    const ics = deadlinesCalendar({ name: profile.name, number: profile.number }, deadlines, new URL(c.req.url).origin);
    return new Response(ics, {
      headers: {
        "content-type": "text/calendar; charset=utf-8",
        "content-disposition": `inline; filename="${profile.number}-deadlines.ics"`,
        "cache-control": "private, max-age=3600",
        "referrer-policy": "no-referrer",
      },
    });
  } catch (e) {
    return fail(e);
  }
}
