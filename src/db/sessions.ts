/**
 * Reads of the registers through D1's Sessions API (read replication): a request's register and search reads go to
 * whichever copy of the database is nearest, and the reply carries a bookmark the caller may send back so that its
 * next read is at least as new as this one (docs/architecture.md "Reads worldwide: consistency").
 *
 * Only reads that the request path never writes go through a session: the registers, the companies register, the
 * contract awards and open tenders, the SIC lists, the Bank Rate (all written by the ingest and the cron). Keys,
 * accounts, credits, the watch list, limits and caches are read and written on the primary, as before.
 *
 * The header holds one bookmark per database, `name=bookmark` pairs joined by commas (opaque to callers: send back what
 * the last reply gave). An unknown name is ignored; a bookmark that is not one is refused before anything runs or is
 * charged (400 bad_request naming the header).
 */

import { InputError } from "../shared/errors";

/** The request and reply header. */
export const BOOKMARK_HEADER = "x-d1-bookmark";

/** The databases read through sessions, by the name used in the header. */
export const SESSION_DATABASES = ["ukbi", "ukbi-companies"] as const;
export type SessionDatabase = (typeof SESSION_DATABASES)[number];

/** D1 bookmarks are hexadecimal groups joined by dashes (e.g. 0000005a-00000004-00004fd8-4ad1…). */
const BOOKMARK = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){0,7}$/i;
const MAX_HEADER = 1024;

const refused = (message: string) => new InputError("bad_request", message, { field: BOOKMARK_HEADER });

/** The header's bookmarks by database; throws InputError (400 bad_request, the header named) on a malformed one. */
export function parseBookmarks(header: string | null | undefined): Partial<Record<SessionDatabase, string>> {
  if (!header) return {};
  if (header.length > MAX_HEADER) throw refused(`\`${BOOKMARK_HEADER}\`: at most ${MAX_HEADER} characters (send back the value the last reply gave)`);
  const out: Partial<Record<SessionDatabase, string>> = {};
  for (const part of header.split(",")) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf("=");
    const name = eq < 0 ? "" : p.slice(0, eq).trim();
    const value = eq < 0 ? "" : p.slice(eq + 1).trim();
    if (!name || !BOOKMARK.test(value))
      throw refused(`\`${BOOKMARK_HEADER}\`: not a bookmark this service gave (send back the value the last reply gave, or nothing)`);
    if ((SESSION_DATABASES as readonly string[]).includes(name)) out[name as SessionDatabase] = value;
  }
  return out;
}

/** A session used where the db modules take a D1Database: reads (prepare, batch) only. */
function asDatabase(session: D1DatabaseSession): D1Database {
  const refuse = (what: string) => () => {
    throw new Error(`${what} is not available on a read session`);
  };
  return {
    prepare: (q: string) => session.prepare(q),
    batch: (s: D1PreparedStatement[]) => session.batch(s),
    exec: refuse("exec"),
    dump: refuse("dump"),
    withSession: refuse("withSession"),
  } as unknown as D1Database;
}

export interface ReadSessions {
  /** The main database's register reads, through its session (made on first use). */
  readonly main: D1Database;
  /** The companies register's reads, through its session (made on first use). */
  readonly companies: D1Database;
  /** The header for the reply: a bookmark for each database this request read, or null when it read neither. */
  header(): string | null;
}

/**
 * Sessions on the two databases, each started at the caller's bookmark for it, or where the nearest copy is
 * (`first-unconstrained`) without one. Where a binding has no Sessions API (an older local runtime, a test double) the
 * database itself is read.
 */
export function readSessions(dbs: Record<SessionDatabase, D1Database>, bookmarks: Partial<Record<SessionDatabase, string>>): ReadSessions {
  const sessions: Partial<Record<SessionDatabase, D1DatabaseSession>> = {};
  const views: Partial<Record<SessionDatabase, D1Database>> = {};
  const view = (name: SessionDatabase): D1Database => {
    const existing = views[name];
    if (existing) return existing;
    const db = dbs[name];
    if (typeof db.withSession !== "function") return (views[name] = db);
    const s = db.withSession(bookmarks[name] ?? "first-unconstrained");
    sessions[name] = s;
    return (views[name] = asDatabase(s));
  };
  return {
    get main() {
      return view("ukbi");
    },
    get companies() {
      return view("ukbi-companies");
    },
    header() {
      const parts = SESSION_DATABASES.flatMap((name) => {
        const b = sessions[name]?.getBookmark() ?? bookmarks[name] ?? null;
        return b ? [`${name}=${b}`] : [];
      });
      return parts.length ? parts.join(", ") : null;
    },
  };
}
