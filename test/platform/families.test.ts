import { describe, expect, it } from "vitest";
import { operations } from "../../src/operations";
import { FAMILIES } from "../../src/platform/families";
import { FAVICON_SVG, KEY_HINT } from "../../src/platform/pages/assets";
import { call } from "../helpers";

/**
 * Issue 31, the pages a newcomer meets: the families of operations are named once (src/platform/families.ts), and the
 * landing page, the OpenAPI tags and the reference's sidebar all come from there; the reference lists operations by
 * their short titles; every page has an icon; the reference's key field says what goes in it.
 */
const html = { headers: { accept: "text/html" } };

describe("the families of operations, named once", () => {
  it("every operation's family is one of FAMILIES, and every family has an operation", () => {
    const used = new Set(operations.map((o) => o.family));
    for (const o of operations) expect(Object.keys(FAMILIES), o.operationId).toContain(o.family);
    expect([...used].sort()).toEqual(Object.keys(FAMILIES).sort());
  });

  it("the landing page lists every family (a link to its table of prices) and every operation", async () => {
    const text = await (await call("/", html)).text();
    for (const [id, f] of Object.entries(FAMILIES)) {
      expect(text, id).toContain(`<a href="#family-${id}">${f.title.replace(/&/g, "&amp;")}</a>`);
      expect(text, id).toContain(`<table id="family-${id}">`);
    }
    for (const o of operations) expect(text, o.operationId).toContain(`${o.method.toUpperCase()} ${o.path}`);
  });

  it("OpenAPI: a tag per family with its sentence; each operation's summary is its short title, its sentence opens the description", async () => {
    const doc = (await (await call("/openapi.json")).json()) as {
      tags: { name: string; description: string }[];
      paths: Record<string, Record<string, { operationId: string; summary: string; description: string; tags: string[] }>>;
    };
    expect(doc.tags).toEqual(Object.entries(FAMILIES).map(([name, f]) => ({ name, description: f.description })));
    const byId = new Map(operations.map((o) => [o.operationId, o]));
    const described = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(described).toHaveLength(operations.length);
    for (const d of described) {
      const o = byId.get(d.operationId)!;
      expect(d.summary, d.operationId).toBe(o.title);
      expect(d.summary.length, d.operationId).toBeLessThanOrEqual(60);
      expect(d.description.startsWith(`${o.summary}\n\n`), d.operationId).toBe(true);
      expect(d.tags).toEqual([o.family]);
    }
  });
});

describe("the icon and the reference's key field", () => {
  it("every page links /favicon.svg, which is served as SVG", async () => {
    for (const path of ["/", "/signup", "/status", "/docs"])
      expect(await (await call(path, html)).text(), path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    const r = await call("/favicon.svg");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/svg+xml");
    expect(await r.text()).toBe(FAVICON_SVG);
  });

  it("the reference's script swaps the renderer's demo token in the key field for a hint", async () => {
    const js = await (await call("/assets/docs-a11y.js")).text();
    expect(js).toContain("input[placeholder='QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT']");
    expect(js).toContain(JSON.stringify(KEY_HINT));
  });
});

describe("the PDF limits are stated where PDFs are read", () => {
  it("every document reader and the carbon reduction plan check state PDF_LIMITS_TEXT, which names each budget pdf.ts counts", async () => {
    const { PDF_LIMITS_TEXT } = await import("../../src/services/documents/document");
    const readers = operations.filter((o) => o.family === "documents" && /\burl\b/i.test(o.description));
    expect(readers.length).toBeGreaterThan(5);
    for (const o of readers) expect(o.description, o.operationId).toContain(PDF_LIMITS_TEXT);
    for (const said of [
      "16 MiB decoded a stream",
      "64 MiB a document",
      "50,000 text items a page",
      "500,000 in all",
      "4,000,000 characters",
      "10 s of reading",
      "2,000 pages in one node",
      "10,000 pages in all",
    ])
      expect(PDF_LIMITS_TEXT).toContain(said);
  });
});
