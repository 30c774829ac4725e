import { describe, expect, it } from "vitest";
import { CRAWLERS, MAX_ROBOTS_BYTES, readRobots } from "../../src/services/web/robots";

/**
 * Issue 16 §4 groundwork: robots.txt for the AI and search crawlers, parsed by robots-parser (RFC 9309). The files
 * below are written the way real sites write them: a BOM, CRLF line ends, comments, several user-agents to a group,
 * mixed case, wildcards and `$`, an Allow that outranks a shorter Disallow, blank lines inside a group, sitemaps.
 */

const SITE = "https://www.example.co.uk/about";
const byToken = (r: ReturnType<typeof readRobots>) => Object.fromEntries(r.crawlers.map((c) => [c.token, c]));

const MIXED = [
  "\uFEFF# robots.txt for example.co.uk",
  "User-agent: GPTBot",
  "user-agent: ClaudeBot   # Anthropic",
  "Disallow: /",
  "",
  "User-Agent: google-extended",
  "Disallow: /",
  "",
  "User-agent: *",
  "Disallow: /admin/",
  "Disallow: /*.pdf$",
  "Allow: /admin/public/",
  "",
  "Sitemap: https://www.example.co.uk/sitemap.xml",
  "Sitemap: https://www.example.co.uk/news-sitemap.xml",
].join("\r\n");

describe("issue 16 §4 robots.txt for the known crawlers", () => {
  it("a file that blocks some AI crawlers by name and leaves search to the * group: each crawler's access, its group and the deciding line", () => {
    const r = readRobots(SITE, { status: 200, text: MIXED }, ["/", "/admin/settings", "/admin/public/help", "/report.pdf", "/report.pdf?x=1"]);
    expect(r.file).toBe("found");
    expect(r.sitemaps).toEqual(["https://www.example.co.uk/sitemap.xml", "https://www.example.co.uk/news-sitemap.xml"]);
    const c = byToken(r);
    expect(c.GPTBot).toMatchObject({ allowed: false, group: "own", decidedBy: { line: 4, text: "Disallow: /" } });
    expect(c.ClaudeBot).toMatchObject({ allowed: false, group: "own", decidedBy: { line: 4 } });
    expect(c["Google-Extended"]).toMatchObject({ allowed: false, group: "own", decidedBy: { line: 7 } }); // case-insensitive token
    expect(c.Googlebot).toMatchObject({ allowed: false, group: "*", disallowedPaths: ["/admin/settings", "/report.pdf"], decidedBy: null });
    expect(c.PerplexityBot.disallowedPaths).toEqual(["/admin/settings", "/report.pdf"]); // Allow /admin/public/ outranks Disallow /admin/; $ ends the match
    expect(r.crawlers.map((x) => x.token)).toEqual(CRAWLERS.map((x) => x.token));
  });

  it("a crawler's own group replaces the * group entirely (RFC 9309 §2.2.1): Googlebot allowed everywhere though * is blocked", () => {
    const text = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nUser-agent: Bingbot\nAllow: /\n";
    const c = byToken(readRobots(SITE, { status: 200, text }));
    expect(c.Googlebot).toMatchObject({ allowed: true, group: "own" });
    expect(c.Bingbot).toMatchObject({ allowed: true, group: "own" });
    expect(c.CCBot).toMatchObject({ allowed: false, group: "*", decidedBy: { line: 2, text: "Disallow: /" } });
  });

  it("an empty Disallow allows everything; a file with no group for anyone allows everything, said as no group", () => {
    expect(byToken(readRobots(SITE, { status: 200, text: "User-agent: *\nDisallow:\n" })).GPTBot).toMatchObject({ allowed: true, group: "*" });
    expect(byToken(readRobots(SITE, { status: 200, text: "# nothing here\nSitemap: /sitemap.xml\n" })).GPTBot).toMatchObject({
      allowed: true,
      group: "none",
      decidedBy: null,
    });
  });

  it("RFC 9309 §2.3.1: absent (4xx) allows everything; unreachable (5xx, or no answer) disallows everything", () => {
    const absent = readRobots(SITE, { status: 404, text: "<html>not found</html>" });
    expect(absent.file).toBe("absent");
    expect(absent.crawlers.every((c) => c.allowed)).toBe(true);
    for (const answer of [
      { status: 503, text: "" },
      { status: null, text: null },
    ] as const) {
      const down = readRobots(SITE, answer, ["/", "/contact"]);
      expect(down.file).toBe("unreachable");
      expect(down.crawlers.every((c) => !c.allowed && c.disallowedPaths.length === 2)).toBe(true);
    }
  });

  it("a file past 500 KiB is read to that point only, and says so", () => {
    const text = `User-agent: GPTBot\nDisallow: /\n${"# padding\n".repeat(Math.ceil(MAX_ROBOTS_BYTES / 10) + 10)}User-agent: CCBot\nDisallow: /\n`;
    const r = readRobots(SITE, { status: 200, text });
    expect(r.truncated).toBe(true);
    const c = byToken(r);
    expect(c.GPTBot.allowed).toBe(false);
    expect(c.CCBot.allowed).toBe(true); // its group lies past the limit
  });
});
