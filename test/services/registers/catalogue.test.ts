/// <reference types="vite/client" />
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADAPTERS } from "../../../src/jobs/ingest/adapters";
import { getLicencesAndRegisters } from "../../../src/operations/risk/getLicencesAndRegisters";
import { getPublicRecord } from "../../../src/operations/risk/getPublicRecord";
import { upstreamsOf } from "../../../src/platform/status";
import { PUBLIC_RECORD_SOURCES, REGISTER_LABELS, TIMELINE_REGISTERS } from "../../../src/services/companies/publicRecord";
import { ORGANISATION_REGISTERS, REGISTER_CATALOGUE } from "../../../src/services/registers/catalogue";
import { CHANGE_RULES } from "../../../src/services/registers/rules";
import { REGISTER_SOURCES, type RegisterSource } from "../../../src/services/registers/types";
import { call, createTestKey, json } from "../../helpers";

/**
 * Issue 31 §1, a register is one entry: every list that names registers is derived from the register catalogue
 * (src/services/registers/catalogue.ts). For every entry, it is where its fields say (licences-and-registers and the
 * public record for an organisation register, the status page for its upstreams, `npm start` for its samples, an
 * ingest adapter, the docs), and no list names a source the catalogue does not have.
 */

const catalogueIds: readonly string[] = REGISTER_SOURCES;
const entries = REGISTER_SOURCES.map((source) => [source, REGISTER_CATALOGUE[source]] as const);
/** The shared upstreams of the status page, asked for every register (not a register's own). */
const SHARED_UPSTREAMS = ["companies-house", "the-gazette", "gov-uk-content"];

/**
 * What is wrong with a list derived from the catalogue: the ids it should name and does not, then the ids it names
 * that are not registers of the catalogue. Empty when the list is right.
 */
function gaps(list: string, named: readonly string[], expected: readonly string[]): string[] {
  return [
    ...expected.filter((id) => !named.includes(id)).map((id) => `${list} leaves out ${id}`),
    ...named.filter((id) => !catalogueIds.includes(id)).map((id) => `${list} names ${id}, which is not in the register catalogue`),
  ];
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

describe("the check itself can fail", () => {
  it("a list missing a register, or naming one the catalogue does not have, is reported", () => {
    expect(gaps("organisation registers", ORGANISATION_REGISTERS, ORGANISATION_REGISTERS)).toEqual([]);
    // A deliberately incomplete copy: the last organisation register left out, as a hand-kept list would.
    const incomplete = ORGANISATION_REGISTERS.slice(0, -1);
    expect(gaps("a hand-kept list", incomplete, ORGANISATION_REGISTERS)).toEqual([`a hand-kept list leaves out ${ORGANISATION_REGISTERS.at(-1)}`]);
    expect(gaps("a hand-kept list", [...ORGANISATION_REGISTERS, "ofsted"], ORGANISATION_REGISTERS)).toEqual([
      "a hand-kept list names ofsted, which is not in the register catalogue",
    ]);
  });
});

describe("every entry is complete", () => {
  it.each(entries)("%s: a label, change rules, a change identifier, samples; an organisation register has a register number", (source, e) => {
    expect(e.label.trim()).not.toBe("");
    expect(e.changes.kinds).toEqual(expect.arrayContaining(["added", "removed", "returned", "status"]));
    expect(CHANGE_RULES[source]).toBe(e.changes);
    expect(typeof e.changeIdentifier("x")).toBe("object");
    expect(e.samples.length, `${source} has no sample file for npm start`).toBeGreaterThan(0);
    if (e.organisation) expect(typeof e.registerNumber).toBe("function");
  });

  it("one label per register: no two registers share one", () => {
    const labels = entries.map(([, e]) => e.label);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
  });
});

describe("licences-and-registers asks exactly the organisation registers, in the catalogue's order", () => {
  const organisation = entries.filter(([, e]) => e.organisation).map(([s]) => s);

  it("the real operation's reply lists each (none loaded here, so each is `checked: false`)", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/licences-and-registers?company=01234567", { key });
    expect(r.status).toBe(200);
    const body = await json(r);
    const named = body.registers.map((x: { register: string }) => x.register) as string[];
    expect(gaps("licences-and-registers' reply", named, organisation)).toEqual([]);
    expect(named).toEqual(organisation);
    for (const x of body.registers) expect(x).toMatchObject({ checked: false, name: REGISTER_CATALOGUE[x.register as RegisterSource].title });
    // Its summary names each by its label.
    for (const s of organisation) expect(body.summary).toContain(`the ${REGISTER_CATALOGUE[s].label}`);
  });

  it("its documentation names each, by id and label", () => {
    const text = `${getLicencesAndRegisters.summary}\n${getLicencesAndRegisters.description}`;
    // The sentence that lists them: "… (SPEC §4.5): the HMRC … register (`aml`), …, plus the UK sanctions list."
    const listing = /\(SPEC §4\.5\): (.*?), plus the UK sanctions list/.exec(text)?.[1] ?? "";
    const named = [...listing.matchAll(/\(`([a-z-]+)`\)/g)].map((m) => m[1]);
    expect(gaps("licences-and-registers' description", named, organisation)).toEqual([]);
    for (const s of organisation) expect(text).toContain(REGISTER_CATALOGUE[s].label);
  });
});

describe("the public record shows the organisation registers' changes", () => {
  const organisation = entries.filter(([, e]) => e.organisation).map(([s]) => s);

  it("its registers, labels and event sources", () => {
    expect(gaps("the public record's registers", TIMELINE_REGISTERS, organisation)).toEqual([]);
    expect(gaps("the public record's labels", Object.keys(REGISTER_LABELS), organisation)).toEqual([]);
    const sourced = PUBLIC_RECORD_SOURCES.filter((s) => s.startsWith("register-")).map((s) => s.slice("register-".length));
    expect(gaps("the public record's sources", sourced, [...organisation, "companies"])).toEqual([]);
    for (const s of organisation) expect(REGISTER_LABELS[s as keyof typeof REGISTER_LABELS]).toBe(REGISTER_CATALOGUE[s].label);
  });

  it("its documentation names each by its label", () => {
    for (const s of organisation) expect(getPublicRecord.description).toContain(`the ${REGISTER_CATALOGUE[s].label}`);
  });
});

describe("the status page asks each register's upstreams", () => {
  it("every upstream an entry names, with its base URL, and no other but the shared ones", () => {
    const asked = upstreamsOf(env);
    const own = asked.filter((u) => !SHARED_UPSTREAMS.includes(u.name));
    const byName = new Map<string, string>(entries.flatMap(([source, e]) => e.upstreams.map((u) => [u.name, source] as const)));
    expect(gaps("the status page's register upstreams", [...new Set(own.map((u) => byName.get(u.name) ?? u.name))], [...new Set(byName.values())])).toEqual([]);
    for (const [, e] of entries)
      for (const u of e.upstreams) {
        expect(asked.map((a) => a.name)).toContain(u.name);
        expect(asked.find((a) => a.name === u.name)?.url).toBe((env as unknown as Record<string, string>)[u.urlVar]);
      }
  });
});

describe("npm start's samples, npm run reset and the ingest adapters", () => {
  it.each(entries)("%s: its sample files are on disk", async (_source, e) => {
    for (const s of e.samples) {
      expect(s.file).toMatch(/^test\/fixtures\//);
      const r = await fetch(`http://files.test/${s.file.slice("test/fixtures/".length)}`);
      expect(r.status, `${s.file} is not on disk`).toBe(200);
      await r.body?.cancel();
    }
  });

  it("the scripts name no register by hand: start and reset take them from the catalogue (src/cli/ingest.ts)", () => {
    const scripts = import.meta.glob<string>(["/scripts/start.mjs", "/scripts/reset.mjs"], { query: "?raw", import: "default", eager: true });
    expect(Object.keys(scripts)).toHaveLength(2);
    for (const [path, text] of Object.entries(scripts)) {
      const named = catalogueIds.filter((id) => text.includes(`"${id}"`));
      expect(named, `${path} names registers by hand`).toEqual([]);
    }
    expect(scripts["/scripts/start.mjs"]).toContain("sampleFiles()");
    expect(scripts["/scripts/reset.mjs"]).toContain("cli.REGISTER_SOURCES");
  });

  it("every register has an ingest adapter, and every adapter is a register's", () => {
    expect(gaps("the ingest adapters", Object.keys(ADAPTERS), catalogueIds)).toEqual([]);
  });
});

describe("the docs name every register", () => {
  it("the home page's licences table lists each register's title and attribution", async () => {
    const page = await (await call("/", { headers: { accept: "text/html" } })).text();
    const missing: string[] = entries.filter(([, e]) => !page.includes(escapeHtml(e.title)) || !page.includes(escapeHtml(e.attribution))).map(([s]) => s);
    expect(
      gaps(
        "the home page's licences table",
        catalogueIds.filter((s) => !missing.includes(s)),
        catalogueIds,
      ),
    ).toEqual([]);
  });
});
