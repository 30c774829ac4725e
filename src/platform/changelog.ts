// @ts-expect-error -- bundled as text by the [[rules]] entry in wrangler.toml
import changelog from "../../CHANGELOG.md";

/**
 * GET /changelog: the change log, a heading per version newest first ("## 1.15.0 — 2026-11-28"), as Markdown, or as
 * JSON when asked: `{ entries: [{ version, date, title, changes }] }`, where `date` is the newest date the heading
 * names (null when it names none), `title` the line under the heading, and `changes` the items, those of dated
 * sub-sections (### 2026-11-23) included.
 */
export function changelogResponse(accept: string | undefined): Response {
  const text = changelog as string;
  if (accept?.includes("application/json")) {
    const entries = text
      .split(/^## /m)
      .slice(1)
      .map((block) => {
        const [heading, ...lines] = block.split("\n");
        const dates = heading.match(/\d{4}-\d{2}-\d{2}/g) ?? [];
        return {
          version: heading.match(/^\d+\.\d+\.\d+/)?.[0] ?? null,
          date: dates.length ? dates[dates.length - 1] : null,
          title: lines.find((l) => l.trim() && !l.startsWith("- ") && !l.startsWith("#"))?.trim() ?? heading.trim(),
          changes: lines.filter((l) => l.startsWith("- ")).map((l) => l.slice(2)),
        };
      });
    return Response.json({ entries });
  }
  return new Response(text, { headers: { "content-type": "text/markdown; charset=utf-8" } });
}
