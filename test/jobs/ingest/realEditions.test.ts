import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { ingestEdition } from "../../../src/jobs/ingest/job";
import { call, createTestKey, json } from "../../helpers";
import { ingestPortsFor } from "../../../src/platform/jobPorts";

/**
 * The sponsors change feed on two real consecutive editions of the same slice of the workers register
 * (../shared/data/home-office-sponsors: every row before the first name starting with "B").
 *
 * The expected counts are worked out here from the raw CSV, by organisation, with this file's own
 * reading of the rows (not the service's parser): an organisation is the name before any "t/a",
 * lower-cased, punctuation and spacing dropped, "limited" = "ltd"; routes are compared under their
 * current names, using the renames seen between these two editions (written out below, independently of
 * the service's table); ratings are the text in brackets; towns are compared ignoring case and spacing.
 */
const SEP = "workers_2021-09-30_rows-to-A.csv";
const NOV = "workers_2021-11-02_rows-to-A.csv";

const RENAMED_IN_OCTOBER_2021: Record<string, string[]> = {
  "tier 2 general": ["skilled worker"],
  "voluntary workers": ["charity worker"],
  "creative & sporting": ["creative worker", "international sportsperson"],
  "t2 minister of religion": ["religious workers"],
  "t2 sportsperson": ["international sportsperson"],
  "international agreements": ["international agreement"],
};
const successors = (route: string) => new Set(RENAMED_IN_OCTOBER_2021[route] ?? [route]);

const TRADING_AS = /(?<![a-z0-9])(?:t\s*\/\s*as?|o\s*\/\s*a|trading\s+as)(?![a-z0-9])/i;
function organisation(raw: string): string {
  const name = raw.trim();
  let legal = name.split(TRADING_AS)[0];
  if (!legal.replace(/[\s,()]/g, "")) legal = name;
  return legal
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .replace(/\blimited$/, "ltd")
    .replace(/^the /, "");
}
const rating = (typeAndRating: string) => (/\((.*)\)/.exec(typeAndRating)?.[1] ?? typeAndRating).trim().toLowerCase();

interface Org {
  routes: Map<string, Set<string>>;
  towns: Set<string>;
}

function byOrganisation(csv: string): Map<string, Org> {
  const rows = Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true }).data;
  const out = new Map<string, Org>();
  for (const r of rows) {
    if (NOT_LOADED_AS_PEOPLE.has(r["Organisation Name"].trim())) continue;
    const o = organisation(r["Organisation Name"]);
    const org = out.get(o) ?? { routes: new Map(), towns: new Set() };
    const route = r.Route.trim().toLowerCase();
    const ratings = org.routes.get(route) ?? new Set();
    if (r["Type & Rating"].trim()) ratings.add(rating(r["Type & Rating"]));
    org.routes.set(route, ratings);
    const town = r["Town/City"].toLowerCase().replace(/\s+/g, "");
    if (town) org.towns.add(town);
    out.set(o, org);
  }
  return out;
}

function expectedCounts(before: Map<string, Org>, after: Map<string, Org>) {
  const counts = { added: 0, removed: 0, routes: 0, "re-rated": 0, moved: 0 };
  for (const o of after.keys()) if (!before.has(o)) counts.added++;
  for (const [o, a] of before) {
    const b = after.get(o);
    if (!b) {
      counts.removed++;
      continue;
    }
    const currentA = new Set([...a.routes.keys()].flatMap((r) => [...successors(r)]));
    const currentB = new Set([...b.routes.keys()].flatMap((r) => [...successors(r)]));
    const meets = (r: string, names: Set<string>) => [...successors(r)].some((n) => names.has(n));
    if ([...a.routes.keys()].some((r) => !meets(r, currentB)) || [...b.routes.keys()].some((r) => !meets(r, currentA))) counts.routes++;
    const rerated = [...a.routes].some(([r, ratings]) => {
      const there = [...b.routes].filter(([q]) => [...successors(q)].some((n) => successors(r).has(n)));
      if (!there.length) return false;
      const now = new Set(there.flatMap(([, s]) => [...s]));
      return now.size !== ratings.size || [...now].some((x) => !ratings.has(x));
    });
    if (rerated) counts["re-rated"]++;
    if (a.towns.size !== b.towns.size || [...a.towns].some((t) => !b.towns.has(t))) counts.moved++;
  }
  return counts;
}

/**
 * Rows the service does not load because they read as a person's own name (SPEC §1 rule 7; the list of
 * what the rule does on these files is asserted in test/services/people.test.ts). This file's reading
 * leaves them out too, so the counts compare the organisations the service holds.
 */
const NOT_LOADED_AS_PEOPLE = new Set(["Alexander J MacNeil", "Anderson Shaw", "Andrew Burke", "Andrew J. Dechet", "Archer Humphryes", "Arthur D. Little"]);

const text = async (file: string) => (await fetch(`http://shared.test/data/home-office-sponsors/${file}`)).text();

describe.skipIf(!env.SHARED_PRESENT)("SPEC §4.8 §6.3 the sponsors feed on two real editions (../shared)", () => {
  it("SPEC §6.3 reports sponsors, not rows: counts by kind equal the counts worked out from the raw CSV by organisation", async () => {
    const [sep, nov] = await Promise.all([text(SEP), text(NOV)]);
    const enc = new TextEncoder();
    const first = await ingestEdition(ingestPortsFor(env), { source: "sponsors", bytes: enc.encode(sep), fileName: SEP, url: null, editionDate: "2021-09-30" });
    expect(first).toMatchObject({ outcome: "loaded", changes: 0, editionDate: "2021-09-30" });
    expect(first.reason).toMatch(/^baseline: the first edition of sponsors\/workers/);
    const second = await ingestEdition(ingestPortsFor(env), {
      source: "sponsors",
      bytes: enc.encode(nov),
      fileName: NOV,
      url: null,
      editionDate: "2021-11-02",
    });
    expect(second.outcome).toBe("loaded");

    const { key } = await createTestKey({ plan: "enterprise", credits: 1000 });
    const changes: Array<Record<string, any>> = [];
    for (let cursor = ""; ; ) {
      const r = await call(`/api/v1/sponsor-licence/changes?since=2021-10-01&limit=500${cursor ? `&cursor=${cursor}` : ""}`, { key });
      expect(r.status).toBe(200);
      const page = await json(r);
      changes.push(...page.changes);
      if (!page.more) break;
      cursor = page.nextCursor;
    }
    const byKind: Record<string, number> = {};
    for (const c of changes) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;

    const expected = expectedCounts(byOrganisation(sep), byOrganisation(nov));
    expect(expected).toEqual({ added: 111, removed: 48, routes: 4, "re-rated": 0, moved: 8 }); // this file's own reading of the CSV
    expect(byKind).toEqual(Object.fromEntries(Object.entries(expected).filter(([, n]) => n > 0)));
    expect(second.byKind).toEqual(byKind);

    // The example from the report: a route renamed (Voluntary Workers → Charity Worker) is no change at all.
    expect(changes.filter((c) => /Lewis Grassic Gibbon/.test(c.name))).toEqual([]);
    // No organisation is both added and removed, and none has two changes of one kind.
    const seen = new Set(changes.map((c) => `${c.kind}|${organisation(c.name)}`));
    expect(seen.size).toBe(changes.length);
    const added = new Set(changes.filter((c) => c.kind === "added").map((c) => organisation(c.name)));
    expect(changes.filter((c) => c.kind === "removed" && added.has(organisation(c.name)))).toEqual([]);
    // A route change carries both route lists, under current names.
    const routes = changes.find((c) => c.kind === "routes")!;
    expect(routes.before.routes).toBeInstanceOf(Array);
    expect(routes.after.routes).toBeInstanceOf(Array);
  });
});

describe.skipIf(!env.SHARED_PRESENT)("issue 33 §1 asOf: the sponsors register as it stood on a date, from two real editions kept (../shared)", () => {
  it("a sponsor only in the older edition is listed as of a date before the newer one and gone after it; one only in the newer, the reverse; each reply names its edition and file", async () => {
    const [sep, nov] = await Promise.all([text(SEP), text(NOV)]);
    const enc = new TextEncoder();
    // Both editions, oldest first (already loaded when the test above ran first: then the older one is refused as older).
    for (const [file, csv, editionDate] of [
      [SEP, sep, "2021-09-30"],
      [NOV, nov, "2021-11-02"],
    ] as const)
      expect(
        (await ingestEdition(ingestPortsFor(env), { source: "sponsors", bytes: enc.encode(csv), fileName: file, url: null, editionDate })).outcome,
      ).toMatch(/loaded|unchanged|refused/);
    // Organisations in one edition only, by this file's own reading of the raw CSV, with a name as the file gives it.
    const rawName = (csv: string, org: string) =>
      Papa.parse<Record<string, string>>(csv, { header: true, skipEmptyLines: true })
        .data.find((r) => organisation(r["Organisation Name"]) === org)!
        ["Organisation Name"].trim();
    const [before, after] = [byOrganisation(sep), byOrganisation(nov)];
    const goneOrg = [...before.keys()].find((o) => !after.has(o) && !/\bt\s*\/\s*a\b/i.test(o))!;
    const newOrg = [...after.keys()].find((o) => !before.has(o))!;
    const gone = rawName(sep, goneOrg);
    const added = rawName(nov, newOrg);

    const { key } = await createTestKey({ plan: "enterprise", credits: 1000 });
    const check = async (company: string, asOf?: string) => {
      const r = await call(`/api/v1/sponsor-licence?${new URLSearchParams({ company, ...(asOf ? { asOf } : {}) })}`, { key });
      return { status: r.status, body: await json(r) };
    };
    const listed = (body: Record<string, any>) =>
      body.sponsors.filter((s: Record<string, any>) => organisation(s.name) === goneOrg || organisation(s.name) === newOrg);

    // The older sponsor on 15 October 2021: listed, from the September edition, and the reply says it left on 2 November.
    const october = await check(gone, "2021-10-15");
    expect(october.status, JSON.stringify(october.body)).toBe(200);
    expect(listed(october.body).map((s: Record<string, any>) => s.removedOn)).toEqual([null]);
    expect(october.body.asOf).toMatchObject({ date: "2021-10-15", editions: [{ part: "workers", editionDate: "2021-09-30", file: SEP }] });
    expect(october.body.asOf.entries.map((e: Record<string, any>) => e.leftOn)).toContain("2021-11-02");
    expect(october.body.registerDate).toBe("2021-09-30");
    expect(october.body.summary).toMatch(/^As the register stood on 2021-10-15 \(edition of 2021-09-30\): /);
    // On 5 November 2021 (the November edition): no longer listed.
    const november = await check(gone, "2021-11-05");
    if (november.status === 200) {
      expect(listed(november.body).every((s: Record<string, any>) => s.removedOn === "2021-11-02")).toBe(true);
      expect(november.body.licensed).toBe(false);
      expect(november.body.asOf.editions[0]).toMatchObject({ editionDate: "2021-11-02", file: NOV });
    } else expect(november.status).toBe(404);

    // The newer sponsor: not on the register of 15 October, listed on 5 November.
    expect((await check(added, "2021-10-15")).status).toBe(404);
    const listedLater = await check(added, "2021-11-05");
    expect(listedLater.status).toBe(200);
    expect(listed(listedLater.body).map((s: Record<string, any>) => s.removedOn)).toEqual([null]);
    expect(listedLater.body.asOf.entries[0].firstListed).toBe("2021-11-02");

    // Without asOf: today's answer, with no asOf part. A date before the first edition kept: 422 naming it; after today: 400.
    expect((await check(added)).body.asOf).toBeUndefined();
    const early = await check(added, "2021-09-29");
    expect([early.status, early.body.code, early.body.field]).toEqual([422, "date_out_of_range", "asOf"]);
    expect(early.body.message).toContain("2021-09-30");
    const future = await check(added, "2999-01-01");
    expect([future.status, future.body.code, future.body.field]).toEqual([400, "bad_request", "asOf"]);
  });
});
