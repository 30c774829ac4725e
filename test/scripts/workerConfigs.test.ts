/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";

/**
 * Issue 31: the two Workers' configurations (wrangler.toml, the API Worker; wrangler.readers.toml, the readers Worker
 * its READERS binding calls over RPC) state their compatibility date and flags each, and must state the same: the two
 * are served together by npm start and deployed side by side, and an RPC call between runtimes of different dates
 * or flags (nodejs_compat) behaves as neither file says. Wrangler has no way for one configuration to include or
 * extend another (workers-sdk issue 10381, closed in favour of a programmatic configuration still to come), so the
 * settings are written twice and this test fails when they differ: change both.
 */

const FILES = import.meta.glob<string>(["/wrangler.toml", "/wrangler.readers.toml"], { query: "?raw", import: "default", eager: true });

/** A top-level key's value (before the first [table]): a basic string or an array of them, as TOML writes them. */
function topLevel(toml: string, key: string): string | string[] | null {
  const head = toml.split(/^\s*\[/m)[0];
  const m = new RegExp(`^\\s*${key}\\s*=\\s*(.+?)\\s*(?:#.*)?$`, "m").exec(head);
  if (!m) return null;
  return JSON.parse(m[1].replace(/'([^']*)'/g, '"$1"').replace(/,\s*]$/, "]")) as string | string[];
}

describe("issue 31: the two Workers' configurations state one compatibility date and one set of flags", () => {
  const api = FILES["/wrangler.toml"];
  const readers = FILES["/wrangler.readers.toml"];

  it("reads both files and each key's value (so it cannot pass on nothing)", () => {
    expect(api).toMatch(/^main = "src\/index\.ts"$/m);
    expect(readers).toMatch(/^main = "src\/readers\.ts"$/m);
    expect(topLevel(api, "compatibility_date")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(topLevel(api, "compatibility_flags")).toEqual(expect.arrayContaining(["nodejs_compat"]));
    // The reader: comments, single quotes, a trailing comma, and a key that only a [table] below states.
    expect(topLevel(`a = 'x' # note\nb = ["p", 'q',]\n[t]\nc = "no"`, "a")).toBe("x");
    expect(topLevel(`a = 'x'\nb = ["p", 'q',]\n[t]\nc = "no"`, "b")).toEqual(["p", "q"]);
    expect(topLevel(`a = 'x'\n[t]\nc = "no"`, "c")).toBeNull();
  });

  it("compatibility_date is the same in wrangler.toml and wrangler.readers.toml", () => {
    expect(topLevel(readers, "compatibility_date"), "wrangler.readers.toml's compatibility_date must be wrangler.toml's: change both").toBe(
      topLevel(api, "compatibility_date"),
    );
  });

  it("compatibility_flags are the same in wrangler.toml and wrangler.readers.toml", () => {
    const sorted = (x: string | string[] | null) => (Array.isArray(x) ? [...x].sort() : x);
    expect(sorted(topLevel(readers, "compatibility_flags")), "wrangler.readers.toml's compatibility_flags must be wrangler.toml's: change both").toEqual(
      sorted(topLevel(api, "compatibility_flags")),
    );
  });
});
