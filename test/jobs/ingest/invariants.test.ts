import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffEdition, snapshotOf } from "../../../src/services/registers/diff";
import { CHANGE_RULES } from "../../../src/services/registers/rules";
import { ROUTE_RENAMES } from "../../../src/services/registers/sponsorRoutes";
import { REGISTER_SOURCES, type RegisterChange, type RegisterRecord, type RegisterSource } from "../../../src/services/registers/types";
import { parseSponsors } from "../../../src/sources/sponsors/parse";

/**
 * Invariants of every register's change feed (SPEC §6.3), over random editions:
 * - no entity (organisation) is both added and removed, or gets two changes of one kind, in one edition;
 * - every kind reported is one its feed documents;
 * - an edition that only rewrites labels (routes renamed, letter case, spacing, row order, rows repeated,
 *   keys of rows re-made under the same organisation) gives no change at all;
 * - organisations really added or removed are reported exactly once each.
 */

const ENTRY_KINDS = new Set(["added", "removed", "returned", "deregistered"]);

function checkInvariants(source: RegisterSource, changes: RegisterChange[]) {
  const kinds = CHANGE_RULES[source].kinds as readonly string[];
  for (const c of changes) expect(kinds).toContain(c.kind);
  const perKind = new Set(changes.map((c) => `${c.kind}|${c.key}`));
  expect(perKind.size).toBe(changes.length);
  const comings = new Map<string, string[]>();
  for (const c of changes) if (ENTRY_KINDS.has(c.kind)) comings.set(c.key, [...(comings.get(c.key) ?? []), c.kind]);
  for (const [entity, ks] of comings) expect({ entity, kinds: ks }).toEqual({ entity, kinds: [ks[0]] });
}

// ---------------------------------------------------------------- every register, at the diff level

const STATUSES: Record<RegisterSource, string[]> = {
  aml: ["Approved", "Applied", "Expired"],
  sra: ["authorised", "authorised with conditions", "ceased", "revoked", "intervened"],
  sponsors: ["listed", "Subject to Action Plan"],
  cqc: ["Registered", "Deregistered"],
  charity: ["Registered", "Removed"],
  companies: ["Active", "Liquidation", "Active - Proposal to Strike off"],
  sanctions: ["designated"],
  "payment-practices": ["published"],
  contracts: ["active", "pending", "cancelled"],
  "gender-pay-gap": ["reported", "reported-late"],
};
const PARTS: Record<RegisterSource, (string | null)[]> = {
  aml: ["WR6", "SW1A", "CF14", "N1"],
  sra: [null],
  sponsors: ["Skilled Worker", "Intra-company Routes", "Charity Worker", "Seasonal Worker"],
  cqc: [null],
  charity: [null],
  companies: [null],
  sanctions: [null],
  "payment-practices": ["2025-01-01/2025-06-30", "2025-07-01/2025-12-31"],
  contracts: ["GB-COH-04142000", "GB-CFS-307558", "GB-PPON-PABC-1234-WXYZ"],
  "gender-pay-gap": ["2025"],
};

const entityArb = (source: RegisterSource) =>
  fc.record({
    id: fc.integer({ min: 1, max: 40 }),
    rows: fc.array(
      fc.record({
        part: fc.constantFrom(...PARTS[source]),
        status: fc.constantFrom(...STATUSES[source]),
        rating: fc.constantFrom(null, "A rating", "B rating", "Good", "Inadequate"),
        town: fc.constantFrom(null, "Leeds", "York"),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });

/** A record as the diff reads it (never its `data`). */
type Rec = Omit<RegisterRecord, "data">;

/** An edition: entities, each with rows; row keys are made from a salt so they can be re-made. */
function records(
  source: RegisterSource,
  entities: { id: number; rows: { part: string | null; status: string; rating: string | null; town: string | null }[] }[],
  salt: string,
): Rec[] {
  const seen = new Set<number>();
  const out: Rec[] = [];
  for (const e of entities) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    const entity = `E${e.id}`;
    // One entity has one status on these registers.
    e.rows.forEach((r, i) =>
      out.push({
        source,
        key: `${entity}|${salt}|${i}`,
        entity,
        part: r.part,
        name: `Org ${e.id}`,
        companyNumber: null,
        altNames: [],
        status: e.rows[0].status,
        rating: r.rating,
        town: r.town,
      }),
    );
  }
  return out;
}

/** The same edition with its labels rewritten: case, spacing, order, a repeated row, row keys re-made. */
const relabel = (recs: Rec[], order: number[]): Rec[] => {
  if (!recs.length) return [];
  const shuffled = order.map((i) => recs[i % recs.length]).filter((r, i, a) => a.indexOf(r) === i);
  const missing = recs.filter((r) => !shuffled.includes(r));
  return [...shuffled, ...missing, ...recs.slice(0, 1)].map((r) => ({
    ...r,
    key: r.key.replace(/\|s1\|/, "|s2|"),
    name: r.name.toUpperCase(),
    status: ` ${r.status.toUpperCase()} `,
    town: r.town && `${r.town.toLowerCase()}  `,
    rating: r.rating && r.rating.replace(" ", "  "),
  }));
};

describe("SPEC §6.3 invariants of every register's feed (property tests over random editions)", () => {
  for (const source of REGISTER_SOURCES) {
    it(`SPEC §6.3 ${source}: no organisation both added and removed; kinds documented; relabelling is no change`, () => {
      fc.assert(
        fc.property(
          fc.array(entityArb(source), { maxLength: 12 }),
          fc.array(entityArb(source), { maxLength: 12 }),
          fc.array(fc.nat(50), { maxLength: 30 }),
          (a, b, order) => {
            const before = records(source, a, "s1");
            const after = records(source, b, "s1");
            const { changes } = diffEdition(before.map(snapshotOf), after, { source });
            checkInvariants(source, changes);
            // The same edition relabelled changes nothing.
            const same = diffEdition(before.map(snapshotOf), relabel(before, order), { source });
            expect(same.changes).toEqual([]);
            // Organisations only in one edition are added or removed, once each, and nothing else happens to them.
            const ids = (x: typeof a) => new Set(x.map((e) => `E${e.id}`));
            const listedIn = (recs: Rec[]) =>
              new Set(recs.filter((r) => !CHANGE_RULES[source].offStatuses.includes(r.status.toLowerCase().replace(/\s+/g, ""))).map((r) => r.entity));
            const [was, now] = [listedIn(before), listedIn(after)];
            for (const e of ids(b)) if (!ids(a).has(e) && now.has(e)) expect(changes.filter((c) => c.key === e).map((c) => c.kind)).toEqual(["added"]);
            for (const e of ids(a))
              if (!ids(b).has(e) && was.has(e)) expect(changes.filter((c) => c.key === e).map((c) => c.kind)).toEqual([CHANGE_RULES[source].gone]);
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});

// ---------------------------------------------------------------- sponsors, from CSV to feed

const HEADER = "Organisation Name,Town/City,County,Type & Rating,Route";
const ORGS = [
  "Acme Care Homes Ltd",
  "Bayside Hotel Group Ltd",
  "Cedar Cricket Club",
  "Delta Freight Limited",
  "Elm Lodge Nursing Home Ltd",
  "Fenwick Logistics Ltd",
  "Green & Sons Ltd",
  "Harbour View Dental Practice Ltd",
];
const TOWNS = ["London", "Leeds", "Milton Keynes", "St Albans"];
const OLD_ROUTES = ROUTE_RENAMES.filter((r) => r.to.length === 1 && r.from !== "Students").map((r) => [r.from, r.to[0]] as const);
const ROUTES = ["Skilled Worker", "Intra-company Routes", "Seasonal Worker", ...OLD_ROUTES.map(([, to]) => to)];

interface Row {
  org: number;
  town: number;
  route: number;
  rating: "A rating" | "B rating";
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const line = (name: string, town: string, rating: string, route: string) => [name, town, "", `Worker (${rating})`, route].map(csvField).join(",");

/** One sponsor row as an earlier edition would write it: old route names, other casing and spacing. */
function asOlderEdition(r: Row, variant: number): string {
  const route = ROUTES[r.route];
  const old = OLD_ROUTES.find(([, to]) => to === route);
  const name = ORGS[r.org];
  const names = [
    name,
    name.toUpperCase(),
    ` ${name.replace(/ /g, "  ")} `,
    / Ltd$/.test(name) ? name.replace(/ Ltd$/, " Limited") : name.replace(/ Limited$/, " Ltd"),
  ];
  return line(
    names[variant % names.length],
    variant % 2 ? TOWNS[r.town].toUpperCase() : `${TOWNS[r.town]} `,
    r.rating,
    variant % 3 === 0 && old ? old[0] : route,
  );
}

async function sponsorRecords(csv: string): Promise<RegisterRecord[]> {
  const out: RegisterRecord[] = [];
  for await (const r of parseSponsors(csv).records) out.push(r);
  return out;
}

const rowArb = fc.record({
  org: fc.nat(ORGS.length - 1),
  town: fc.nat(TOWNS.length - 1),
  route: fc.nat(ROUTES.length - 1),
  rating: fc.constantFrom("A rating" as const, "B rating" as const),
});

describe("SPEC §4.8 §6.3 sponsors: random editions from CSV to feed (property tests)", () => {
  it("SPEC §6.3 routes renamed, names re-cased and re-spaced, Ltd/Limited, rows reordered and repeated: no change", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(rowArb, { minLength: 1, maxLength: 25 }),
        fc.array(fc.nat(7), { minLength: 25, maxLength: 25 }),
        fc.array(fc.nat(100), { maxLength: 40 }),
        async (rows, variants, order) => {
          // One town and one rating per sponsor and route, as the register has.
          const unique = [...new Map(rows.map((r) => [`${r.org}|${r.route}`, { ...r, town: rows.find((x) => x.org === r.org)!.town }])).values()];
          const now = [HEADER, ...unique.map((r) => line(ORGS[r.org], TOWNS[r.town], r.rating, ROUTES[r.route]))].join("\r\n");
          const older = unique.map((r, i) => asOlderEdition(r, variants[i % variants.length]));
          const shuffled = [...new Set([...order.map((i) => older[i % older.length]), ...older])];
          const then = [HEADER, ...shuffled, ...older.slice(0, 2)].join("\n");
          const { changes } = diffEdition((await sponsorRecords(then)).map(snapshotOf), await sponsorRecords(now), { source: "sponsors" });
          expect(changes).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("SPEC §6.3 sponsors that come and go are added or removed once each, whatever their rows; rating and town changes are one event each", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 25 }), fc.array(rowArb, { minLength: 1, maxLength: 25 }), async (a, b) => {
        const edition = (rows: Row[]) => {
          const unique = [...new Map(rows.map((r) => [`${r.org}|${r.route}`, { ...r, town: rows.find((x) => x.org === r.org)!.town }])).values()];
          return [HEADER, ...unique.map((r) => line(ORGS[r.org], TOWNS[r.town], r.rating, ROUTES[r.route]))].join("\n");
        };
        const { changes } = diffEdition((await sponsorRecords(edition(a))).map(snapshotOf), await sponsorRecords(edition(b)), { source: "sponsors" });
        checkInvariants("sponsors", changes);
        const orgs = (rows: Row[]) => new Set(rows.map((r) => ORGS[r.org]));
        const [was, now] = [orgs(a), orgs(b)];
        const named = (kind: string) =>
          changes
            .filter((c) => c.kind === kind)
            .map((c) => c.name)
            .sort();
        expect(named("added")).toEqual([...now].filter((o) => !was.has(o)).sort());
        expect(named("removed")).toEqual([...was].filter((o) => !now.has(o)).sort());
        for (const c of changes) if (!["added", "removed"].includes(c.kind)) expect(was.has(c.name) && now.has(c.name)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
