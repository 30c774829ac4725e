import { describe, expect, it } from "vitest";
import { createGazetteClient, linkedDataCompanyNumber } from "../../src/sources/gazette/client";
import { memoryHttpCache } from "../../src/shared/ports";
import { UpstreamError } from "../../src/shared/errors";

/** Issue 13 §1 the Gazette's notice feed, read for one company: paging, linked data, caching, failures. */

const entry = (id: number, title: string, content: string) => ({
  id: `https://www.thegazette.co.uk/id/notice/${id}`,
  "f:notice-code": "2450",
  title,
  link: [{ "@href": `https://www.thegazette.co.uk/notice/${id}` }],
  published: "2026-03-09T00:00:00",
  content,
});

/** A Gazette that has `total` notices titled ACME WIDGETS LIMITED, none stating a number, served in pages. */
function fakeGazette(total: number, opts: { linked?: Record<string, string> } = {}) {
  const calls: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const u = new URL(String(input));
    calls.push(u.pathname + u.search);
    const linked = /^\/notice\/(\d+)\/data\.json$/.exec(u.pathname);
    if (linked) {
      const n = opts.linked?.[linked[1]];
      return n ? Response.json({ "@graph": [{ "gazorg:companyNumber": { "@value": n } }] }) : new Response("not found", { status: 404 });
    }
    const page = Number(u.searchParams.get("results-page"));
    const size = Number(u.searchParams.get("results-page-size"));
    const ids = Array.from({ length: total }, (_, i) => 9000 + i).slice((page - 1) * size, page * size);
    return Response.json({
      title: "Notices",
      "f:total": String(total),
      link: page * size < total ? [{ "@rel": "next", "@href": "x" }] : [],
      entry: ids.map((id) => entry(id, "ACME WIDGETS LIMITED", "<p>A petition ...</p>")),
    });
  }) as typeof fetch;
  return { calls, fetchImpl };
}

const company = { number: "01234567", name: "Acme Widgets Limited", postcode: "BS1 4QA" };

describe("the Gazette client", () => {
  it("searches category 24 by the quoted name, newest first; reads up to three pages and says when there were more", async () => {
    const g = fakeGazette(350);
    const r = await createGazetteClient({ baseUrl: "https://gazette.example", fetchImpl: g.fetchImpl }).insolvencyNotices(company);
    const searches = g.calls.filter((c) => c.startsWith("/insolvency/"));
    expect(searches).toHaveLength(3);
    const q = new URLSearchParams(searches[0].split("?")[1]);
    expect(Object.fromEntries(q)).toEqual({
      categorycode: "24",
      text: '"Acme Widgets Limited"',
      "results-page-size": "100",
      "results-page": "1",
      "sort-by": "latest-date",
    });
    expect(r).toMatchObject({ read: 300, truncated: true, matched: [] });
    // Same name, no number: at most five notices' linked data are read.
    expect(g.calls.filter((c) => c.startsWith("/notice/"))).toHaveLength(5);
  });

  it("a notice's linked data gives its company number: matched by number; answers are cached", async () => {
    const g = fakeGazette(2, { linked: { "9001": "1234567", "9000": "07654321" } });
    const client = createGazetteClient({ baseUrl: "https://gazette.example", fetchImpl: g.fetchImpl, cache: memoryHttpCache() });
    const r = await client.insolvencyNotices(company);
    expect(r.matched.map((m) => [m.notice.id, m.matchedBy])).toEqual([["9001", "company number"]]);
    const before = g.calls.length;
    await client.insolvencyNotices(company);
    expect(g.calls.length).toBe(before);
  });

  it("an answer that is not a notice feed, or an error status, throws UpstreamError (never 'no notices')", async () => {
    for (const res of [() => new Response("<html>maintenance</html>"), () => new Response("busy", { status: 503 })]) {
      const client = createGazetteClient({ baseUrl: "https://gazette.example", fetchImpl: (async () => res()) as typeof fetch });
      await expect(client.insolvencyNotices(company)).rejects.toBeInstanceOf(UpstreamError);
    }
  });

  it("linked data: the company number at any depth, as a string or a typed value", () => {
    expect(linkedDataCompanyNumber(JSON.stringify({ "@graph": [{ x: { "gazorg:companyNumber": "SC 12345" } }] }))).toBe("SC012345");
    expect(linkedDataCompanyNumber(JSON.stringify({ "https://www.thegazette.co.uk/def/organisation#companyNumber": [{ "@value": "00445790" }] }))).toBe(
      "00445790",
    );
    expect(linkedDataCompanyNumber("not json")).toBeNull();
    expect(linkedDataCompanyNumber("{}")).toBeNull();
  });
});
