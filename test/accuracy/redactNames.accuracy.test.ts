import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkCarbonPlan } from "../../src/services/documents/carbonPlan";
import { readCharityReport } from "../../src/services/documents/charityReport";
import { readCqcReport } from "../../src/services/documents/cqc";
import { Reading } from "../../src/services/documents/evidence";
import { readModernSlavery } from "../../src/services/documents/modernSlavery";
import { peopleOf, redactNames, redactQuotes } from "../../src/services/documents/names";
import { readOfstedReport } from "../../src/services/documents/ofsted";
import { type Corpus, type CorpusDoc, type Kind, type Measure, type Redactor, measure, peopleIn } from "./redactNamesMeasure";
import { loadCorpora } from "./redactNamesCorpora";
import { FIXTURE_PEOPLE_UNLISTED, nameKey } from "./redactNamesTruth";
import { BEFORE, BEFORE_READER } from "./redactorsBefore";

/**
 * Issue 31 "one redactNames": every name redactor the readers had (frozen in ./redactorsBefore: the CQC, Ofsted,
 * charity, modern slavery and carbon plan readers' own, and names.ts's last guard) and the one that replaced them
 * (services/documents/names.ts redactNames), run over every line (heading or sentence) of the real documents in
 * ../shared (Ofsted, charity, modern slavery statements, carbon reduction plans, and lines made from the CQC register's
 * real providers and homes; see redactNamesCorpora.ts) and of every reader's fixtures. For each: how many people's
 * names it takes out (wholly; partly), and how many runs it takes out that are no one's name ("false"), against the
 * ground truth of redactNamesTruth.ts. Logs `ACCURACY redact <corpus> <redactor> …` for `npm run accuracy`.
 *
 * On each corpus the unified redactor, as every reader now applies it (then the last guard, as every reply gets it),
 * must take out every name any former redactor took out there (whichever reader's it was), and take out no more runs
 * that are not names than the former redactor of that corpus's reader did (with the guard). Without ../shared, the
 * fixtures alone are measured.
 */
const get = async (path: string): Promise<Uint8Array | null> => {
  const [root, rest] = [path.slice(0, path.indexOf(":")), path.slice(path.indexOf(":") + 1)];
  const url = root === "shared" ? `http://shared.test/${rest}` : `http://files.test/${rest}`;
  // The test runtime's outbound connection is now and then lost under load: tried once more.
  const r = await fetch(url).catch(() => fetch(url));
  return r.status === 200 ? new Uint8Array(await r.arrayBuffer()) : null;
};

/** The names each document's layout shows (names.ts peopleOf), as Reading.people gives them to the readers. */
const known = new WeakMap<CorpusDoc, readonly string[]>();
const knownOf = (d: CorpusDoc) => {
  let k = known.get(d);
  if (!k) known.set(d, (k = peopleOf(d.lines.map((l) => l.text))));
  return k;
};

/**
 * The unified redactor as the readers apply it: a quote in its section, a section heading as a line of its own, with
 * the names the document's layout shows; then the last guard (redactQuotes) as every reply gets it.
 */
const AFTER: Redactor = {
  name: "redactNames+guard",
  quote: (t, l, d) => redactNames(redactNames(t, { section: l.section, known: knownOf(d) })),
  heading: (t, _l, d) => redactNames(redactNames(t, { line: true, known: knownOf(d) }), { line: true }),
};

const fmt = (m: Measure) => `names ${m.names}/${m.people} partial ${m.partial} false ${m.falseRuns}${m.unaligned ? ` unaligned ${m.unaligned}` : ""}`;

describe("accuracy: one redactNames for every reader (issue 31)", () => {
  it("takes out every name any former redactor took out, with no more false redactions than the reader's former one", async () => {
    const fixturePeople = new Set([...(JSON.parse(env.PERSON_NAMES || "[]") as string[]), ...FIXTURE_PEOPLE_UNLISTED].map(nameKey));
    const corpora = await loadCorpora(get, !!env.SHARED_PRESENT);
    const problems: string[] = [];
    for (const c of corpora) {
      const before = BEFORE.map((r) => [r, measure(c, r, fixturePeople)] as const);
      const reader = measure(c, BEFORE_READER[c.kind], fixturePeople);
      const after = measure(c, AFTER, fixturePeople);
      console.log(`ACCURACY redact ${c.name}: before (the ${c.kind} reader's replies) ${fmt(reader)}; after (redactNames) ${fmt(after)}`);
      for (const [r, m] of before) console.log(`  ${c.name}, before, ${r.name} alone: ${fmt(m)}`);
      // What was taken out though no one's name, shown for our fixtures only: a real document's text may name a person.
      if (after.falseTexts.size && c.name.startsWith("fixtures"))
        console.log(`  ${c.name}, after, taken out and no one's name: ${[...after.falseTexts].map(([t, n]) => (n > 1 ? `${t} ×${n}` : t)).join(" | ")}`);
      const anyBefore = new Set(before.flatMap(([, m]) => [...m.removed]));
      for (const id of reader.removed) anyBefore.add(id);
      // A real person is not named in a failure either: where, not who.
      const missed = [...anyBefore]
        .filter((id) => !after.removed.has(id))
        .map((id) => (c.name.startsWith("fixtures") ? after.occurrences.get(id) : `doc:line:offset ${id}`));
      if (missed.length) problems.push(`${c.name}: ${missed.length} names a former redactor took out are left: ${missed.join(" | ")}`);
      if (after.falseRuns > reader.falseRuns)
        problems.push(`${c.name}: ${after.falseRuns} false redactions, the ${c.kind} reader's former redactor made ${reader.falseRuns}`);
      if (after.unaligned) problems.push(`${c.name}: ${after.unaligned} outputs could not be read against their input`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it("the readers' replies (with their read passages) hold none of the names the redactor takes out of the document's lines", async () => {
    const fixturePeople = new Set([...(JSON.parse(env.PERSON_NAMES || "[]") as string[]), ...FIXTURE_PEOPLE_UNLISTED].map(nameKey));
    const corpora = (await loadCorpora(get, !!env.SHARED_PRESENT)).filter((c) => c.docs.every((d) => d.doc));
    const readers: Record<Kind, (r: Reading) => unknown> = {
      cqc: (r) => readCqcReport(r, { today: "2026-11-25" }),
      ofsted: (r) => readOfstedReport(r, { today: "2026-11-25" }),
      charity: (r) => readCharityReport(r, { today: "2026-11-25" }),
      modernSlavery: (r) => readModernSlavery(r, { today: "2026-11-25" }),
      carbonPlan: (r) => checkCarbonPlan(r, { today: "2026-11-25" }),
    };
    const leaks: string[] = [];
    const check = (c: Corpus) => {
      for (const d of c.docs) {
        // The names the redactor takes out somewhere in the document: none may stand anywhere in the reply.
        const names = new Set<string>();
        for (const l of d.lines) {
          const out = l.heading ? AFTER.heading(l.text, l, d) : AFTER.quote(l.text, l, d);
          for (const [a, b] of peopleIn(l.text, fixturePeople)) if (!out.includes(l.text.slice(a, b))) names.add(l.text.slice(a, b));
        }
        const reading = new Reading(d.doc!);
        const reply = JSON.stringify(redactQuotes({ report: readers[c.kind](reading), passages: reading.passages() }));
        for (const n of names)
          if (reply.includes(n)) leaks.push(`${c.name}, ${d.file}: ${c.name.startsWith("fixtures") ? n : `a name of ${n.length} characters`}`);
      }
    };
    for (const c of corpora) check(c);
    expect(leaks).toEqual([]);
  }, 600_000);
});
