// @ts-expect-error -- bundled as text by the [[rules]] entry in wrangler.toml
import changelog from "../../CHANGELOG.md";

/** GET /changelog: the dated change log, newest first, as Markdown (or JSON when asked). */
export function changelogResponse(accept: string | undefined): Response {
  const text = changelog as string;
  if (accept?.includes("application/json")) {
    const entries = text
      .split(/^## /m)
      .slice(1)
      .map((block) => {
        const [heading, ...lines] = block.split("\n");
        const date = heading.match(/^(\d{4}-\d{2}-\d{2})/)?.[1] ?? null;
        return { date, title: heading.replace(/^\S+\s+—\s+/, "").trim(), changes: lines.filter((l) => l.startsWith("- ")).map((l) => l.slice(2)) };
      });
    return Response.json({ entries });
  }
  return new Response(text, { headers: { "content-type": "text/markdown; charset=utf-8" } });
}
