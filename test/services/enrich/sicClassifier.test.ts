import { SHARED_PRESENT } from "../../support/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { parseActivityIndex, parseCondensedList, sicHierarchy } from "../../../src/services/enrich/sic";
import { type SicModel, SUPPLEMENT, buildSicModel, checkRegisteredCodes, classifyText, stem } from "../../../src/services/enrich/sicClassifier";

/**
 * The SIC 2007 text classifier of industry-classifier (issue 18). Models are built from the real lists
 * (../shared/data/sic-2007, at http://shared.test; skipped when absent) and from our sample files (test/fixtures/sic-2007).
 *
 * Accuracy is measured on homepage-like texts of UK small businesses written for this repo
 * (test/fixtures/sic-2007/sites/*.txt, first line `# sic: <known code> [other acceptable codes]`), in three sets:
 * - tuning (37 sites): written first; the classifier was developed on them;
 * - holdout (18 sites, `# set: holdout`): written next and measured before any change they prompted (the figures
 *   then were section 78%, division 78%, top-3 89%); the changes they prompted (mode cues, phrases of two words
 *   needing two words, supplement rows for used cars and bike shops) were then made, so they are no longer unseen;
 * - final (14 sites, `# set: final`): written after the classifier was frozen and not tuned on (one label corrected:
 *   a chimney sweep is 81223, which the writer did not know).
 */
const textOf = async (url: string) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`missing ${url}`);
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(await r.arrayBuffer());
};

async function modelFrom(base: string, opts?: { supplement?: boolean }): Promise<SicModel> {
  const list = parseCondensedList(await textOf(`${base}/SIC07_CH_condensed_list_en.csv`));
  const index = parseActivityIndex(await textOf(`${base}/ons_economic_activities_alphabetic_index.csv`));
  const ch = parseActivityIndex(await textOf(`${base}/ch_created_activity_sic_codes.csv`));
  return buildSicModel(list, [...index.rows, ...ch.rows], opts);
}

interface Site {
  name: string;
  known: string[];
  set: string;
  text: string;
}
const SITES: Site[] = Object.entries(import.meta.glob<string>("/test/fixtures/sic-2007/sites/*.txt", { query: "?raw", import: "default", eager: true }))
  .map(([path, raw]) => ({
    name: path.split("/").pop()!,
    known: /^# sic: (.*)$/m.exec(raw)![1].trim().split(/\s+/),
    set: /^# set: (\w+)$/m.exec(raw)?.[1] ?? "tuning",
    text: raw.replace(/^# (sic|set):.*\n/gm, ""),
  }))
  .sort((a, b) => (a.name < b.name ? -1 : 1));

interface Accuracy {
  sites: number;
  section: number;
  division: number;
  top3: number;
  misses: string[];
}

/** Top-1 section and division (of the first known code; any known code's division counts), and top-3 five-digit accuracy. */
function accuracy(model: SicModel, sites: Site[]): Accuracy {
  let section = 0;
  let division = 0;
  let top3 = 0;
  const misses: string[] = [];
  for (const s of sites) {
    const c = classifyText(s.text, model).candidates;
    if (c[0] && sicHierarchy(c[0].code)!.section.letter === sicHierarchy(s.known[0])!.section.letter) section++;
    if (c[0] && s.known.some((k) => k.slice(0, 2) === c[0].code.slice(0, 2))) division++;
    if (c.slice(0, 3).some((x) => s.known.includes(x.code))) top3++;
    else
      misses.push(
        `${s.name}: ${s.known.join("/")} → ${c
          .slice(0, 3)
          .map((x) => x.code)
          .join(", ")}`,
      );
  }
  const share = (n: number) => Math.round((n / sites.length) * 1000) / 1000;
  return { sites: sites.length, section: share(section), division: share(division), top3: share(top3), misses };
}

const bySet = (set: string) => SITES.filter((s) => s.set === set);

it("the labelled sites are there: 69 sites in three sets, every label a five-digit SIC 2007 code", () => {
  expect(SITES.length).toBe(69);
  expect(bySet("tuning").length).toBe(37);
  expect(bySet("holdout").length).toBe(18);
  expect(bySet("final").length).toBe(14);
  for (const s of SITES) for (const k of s.known) expect(sicHierarchy(k), `${s.name} ${k}`).not.toBeNull();
  // Many sections, not one trade over and over.
  expect(new Set(SITES.map((s) => sicHierarchy(s.known[0])!.section.letter)).size).toBeGreaterThanOrEqual(13);
});

describe.skipIf(!SHARED_PRESENT)("the classifier built from the real lists (issue 18)", () => {
  let model: SicModel;
  let plain: SicModel;
  beforeAll(async () => {
    const t = performance.now();
    model = await modelFrom("http://shared.test/data/sic-2007");
    const ms = performance.now() - t;
    plain = await modelFrom("http://shared.test/data/sic-2007", { supplement: false });
    const bytes = [
      model.idf,
      model.phraseCode,
      model.phraseWeight,
      model.phraseMode,
      model.phraseFlags,
      model.coreOff,
      model.coreTerms,
      model.extraOff,
      model.extraTerms,
      model.postOff,
      model.postPhrases,
      model.tcOff,
      model.tcCode,
      model.tcShare,
      model.codeMode,
    ].reduce((n, a) => n + a.byteLength, 0);
    console.log(
      `SIC model (real lists): parsed and built in ${ms.toFixed(0)} ms (workerd), ${model.stats.phrases} phrases, ${model.stats.terms} terms, typed arrays ${(bytes / 1e6).toFixed(2)} MB`,
    );
  });

  it("holds every phrase: 731 codes less CH's three, 43990 folded into 43999, the supplement's rows", () => {
    expect(model.codes.length).toBe(728);
    expect(model.codes).not.toContain("99999");
    expect(model.stats.unlistedCodes).toEqual(["43990"]);
    expect(model.stats.indexRows).toBe(15_955);
    expect(model.stats.phrases).toBeGreaterThan(16_000);
    expect(plain.stats.phrases).toBe(model.stats.phrases - SUPPLEMENT.length);
    // The supplement only adds what the index lacks, for codes the list has: no row has the words of an index phrase of its code.
    for (const r of SUPPLEMENT) expect(model.codes, r.phrase).toContain(r.code);
    const coreOf = (p: number) => [...model.coreTerms.subarray(model.coreOff[p], model.coreOff[p + 1])].sort().join(",");
    const indexed = new Set<string>();
    for (let p = 0; p < model.phraseCode.length; p++) if (!(model.phraseFlags[p] & 2)) indexed.add(`${model.phraseCode[p]}|${coreOf(p)}`);
    const repeats = [];
    for (let p = 0; p < model.phraseCode.length; p++)
      if (model.phraseFlags[p] & 2 && indexed.has(`${model.phraseCode[p]}|${coreOf(p)}`)) repeats.push(model.phraseText[p]);
    expect(repeats).toEqual([]);
  });

  it("classifies short phrases: the right code first", () => {
    const cases: [string, string][] = [
      ["Solicitors", "69102"],
      ["Dentist", "86230"],
      ["Plumber", "43220"],
      ["Roofing contractor", "43910"],
      ["Haulage contractor", "49410"],
      ["Hairdressing salon", "96020"],
      ["Primary school", "85200"],
      ["Landscape gardening", "81300"],
      ["Estate agents and lettings", "68310"],
      ["Children's day nursery", "88910"],
      ["Selling on Amazon", "47910"], // CH's own row
      ["We are a bakery shop selling bread and cakes", "47240"],
      ["Bakery making bread for supermarkets in our factory", "10710"],
      ["Residential care home for older people", "87300"],
      ["Boiler installation and central heating repairs", "43220"],
    ];
    for (const [text, code] of cases) expect(classifyText(text, model).candidates[0]?.code, text).toBe(code);
  });

  it("accuracy on the labelled sites: section, division, top-3 code (figures logged)", () => {
    const figures = Object.fromEntries(["tuning", "holdout", "final"].map((set) => [set, accuracy(model, bySet(set))]));
    const all = accuracy(model, SITES);
    const withoutSupplement = accuracy(plain, SITES);
    console.log("SIC classifier accuracy (real lists):", JSON.stringify({ ...figures, all, withoutSupplement }, null, 1));
    // Measured: all 69 sites 0.971 / 0.971 / 0.986; final 1 / 1 / 0.929; without the supplement 0.855 / 0.841 / 0.870.
    expect(all.section).toBeGreaterThanOrEqual(0.93);
    expect(all.division).toBeGreaterThanOrEqual(0.9);
    expect(all.top3).toBeGreaterThanOrEqual(0.93);
    expect(figures.final.section).toBeGreaterThanOrEqual(0.85);
    expect(figures.final.top3).toBeGreaterThanOrEqual(0.8);
    expect(withoutSupplement.section).toBeGreaterThanOrEqual(0.8);
    expect(withoutSupplement.division).toBeGreaterThanOrEqual(0.75);
    expect(withoutSupplement.top3).toBeGreaterThanOrEqual(0.8);
  });

  it("says what matched: every phrase given as evidence is one of the code's, every word is in the text", () => {
    const phrasesOf = new Map<string, Set<string>>();
    for (let p = 0; p < model.phraseCode.length; p++) {
      const code = model.codes[model.phraseCode[p]];
      if (!phrasesOf.has(code)) phrasesOf.set(code, new Set());
      phrasesOf.get(code)!.add(model.phraseText[p].replace(/\s+/g, " ").trim().toLowerCase());
    }
    for (const s of SITES) {
      const folded = s.text
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/['’]/g, "");
      for (const c of classifyText(s.text, model).candidates) {
        expect(c.matched.length + c.words.length, `${s.name} ${c.code}`).toBeGreaterThan(0);
        for (const m of c.matched) {
          expect(phrasesOf.get(c.code)!.has(m.phrase.toLowerCase()), `${s.name} ${c.code} ${m.phrase}`).toBe(true);
          for (const w of m.words) expect(folded, `${s.name} ${c.code} ${w}`).toContain(w);
        }
      }
    }
  });

  it("confidence means something: every high-confidence answer on the sites is right at code level (top 1)", () => {
    for (const s of SITES) {
      const r = classifyText(s.text, model);
      if (r.confidence === "high") expect(s.known, s.name).toContain(r.candidates[0].code);
      else expect(r.reason, s.name).toBeTruthy();
    }
  });

  it("a bakery shop is retail, a bakery supplying the trade is manufacture", () => {
    const shop = SITES.find((s) => s.name === "bakeryshop.txt")!;
    const maker = SITES.find((s) => s.name === "bakerymanufacture.txt")!;
    const a = classifyText(shop.text, model);
    const b = classifyText(maker.text, model);
    expect(a.candidates[0].code).toBe("47240");
    expect(a.reading.modes.retail).toBeGreaterThan(0);
    expect(b.candidates[0].code).toBe("10710");
    expect(b.reading.modes.manufacture).toBeGreaterThan(0);
  });

  it("checks registered codes against the text, in words", () => {
    const software = classifyText(SITES.find((s) => s.name === "software.txt")!.text, model).candidates;
    const checks = checkRegisteredCodes(["62012", "62020", "58290", "47240", "99999", "6202", "62012"], software);
    expect(checks.map((c) => [c.code, c.agreement])).toEqual([
      ["62012", "code"],
      ["62020", "group"],
      ["58290", "code"], // software publishing is the text's second reading
      ["47240", "none"],
      ["99999", "none"],
      ["6202", "none"],
    ]);
    expect(checks[0].words).toBe("The text reads first as 62012 (Software development), the registered code itself");
    expect(checks[1].words).toBe("The text reads first as 62012 (Software development), the same group as 62020");
    expect(checks[3].words).toMatch(/^The text does not read as 47240 \(wholesale and retail trade, repair of motor vehicles\): it reads as 62012/);
    expect(checks[4].words).toContain("dormant");
    expect(checks[5].words).toContain("not a SIC 2007 code");
    expect(checkRegisteredCodes(["62012"], [])[0]).toMatchObject({ agreement: "none", words: "The text gave no activity to check 62012 against" });
  });
});

describe("the classifier built from our sample files (issue 18)", () => {
  let model: SicModel;
  beforeAll(async () => {
    model = await modelFrom("http://files.test/sic-2007");
  });

  it("accuracy on the labelled sites (figures logged)", () => {
    const all = accuracy(model, SITES);
    console.log("SIC classifier accuracy (sample lists):", JSON.stringify(all));
    // Measured: 0.942 / 0.928 / 0.986.
    expect(all.section).toBeGreaterThanOrEqual(0.9);
    expect(all.division).toBeGreaterThanOrEqual(0.88);
    expect(all.top3).toBeGreaterThanOrEqual(0.9);
  });

  it("is deterministic: the same text gives the same answer, however often and in whatever order", () => {
    const texts = SITES.slice(0, 10).map((s) => s.text);
    const first = texts.map((t) => classifyText(t, model));
    const again = [...texts]
      .reverse()
      .map((t) => classifyText(t, model))
      .reverse();
    expect(again).toEqual(first);
    const rebuilt = buildSicModel(
      parseCondensedList("SIC Code,Description\r\n10710,Manufacture of bread"),
      parseActivityIndex("sic_code,activity_description\n10710,Bread (manufacture)").rows,
    );
    expect(classifyText("bread", rebuilt)).toEqual(classifyText("bread", rebuilt));
  });

  it("messy text gives no answer, or a low one, and says why", () => {
    const none: [string, RegExp][] = [
      ["", /empty/],
      ["   \n\t ", /empty/],
      ["0121 496 0000\n12345678\n£1,200 – £2,500", /no words/],
      ["Home | About | Contact | Privacy policy | Cookies", /no words|thin|no activity/],
      [
        "Willkommen bei Müller Bäckerei. Wir backen jeden Tag frisches Brot und Brötchen für unsere Kunden in München. Unsere Konditorei bietet Kuchen, Torten und Gebäck. Öffnungszeiten: Montag bis Samstag von 6 bis 18 Uhr.",
        /not read as English/,
      ],
      ["Coming soon!\nOur new website is under construction. Check back soon.\nAcme Holdings Ltd", /holding page/],
      ["example-plumbing.co.uk\nThis domain may be for sale. Buy this domain.\nRelated searches: Plumbing, Heating, Boilers", /holding page/],
    ];
    for (const [text, why] of none) {
      const r = classifyText(text, model);
      expect(r.confidence, text).toBe("low");
      expect(r.reason, text).toMatch(why);
      if (!/thin/.test(r.reason!)) expect(r.candidates, text).toEqual([]);
    }
  });

  it("without a model it says no list is loaded", () => {
    expect(classifyText("Solicitors in Leeds", null)).toEqual({
      candidates: [],
      confidence: "low",
      reason: expect.stringContaining("no SIC 2007 list is loaded"),
      reading: { words: 0, modes: {} },
    });
  });
});

describe("the classifier's rules, on a model of a few rows", () => {
  const list = parseCondensedList(
    'SIC Code,Description\r\n10710,Manufacture of bread; manufacture of fresh pastry goods and cakes\r\n47240,"Retail sale of bread, cakes, flour confectionery and sugar confectionery in specialised stores"\r\n87100,Residential nursing care facilities\r\n11111,Widgets\r\n22222,Widgets\r\n99999,Dormant Company',
  );
  const index = parseActivityIndex(
    "\uFEFFsic_code.string(),activity_description.string()\n10710,Bread (manufacture)\n47240,Bread (retail)\n87100,Nursing homes\n87100,Homes for the elderly with nursing care\n11111,Widget makers\n22222,Widget makers",
  ).rows;
  const model = buildSicModel(list, index, { supplement: false });

  it("ties are broken by code", () => {
    expect(classifyText("Widget makers of quality", model).candidates.map((c) => c.code)).toEqual(["11111", "22222"]);
  });

  it("the text's mode cues choose between a phrase's manufacture and retail readings", () => {
    expect(classifyText("Fresh bread every morning from our shop on the high street", model).candidates[0].code).toBe("47240");
    expect(classifyText("Fresh bread from our factory, own-label production for the trade", model).candidates[0].code).toBe("10710");
  });

  it("a phrase's words must stand together in one line: the menu's Home and a paragraph's nursing do not make a nursing home", () => {
    // "nursing homes" stands side by side in the phrase's order: that phrase scores first.
    expect(classifyText("Our nursing homes for the elderly", model).candidates[0]).toMatchObject({
      code: "87100",
      matched: [{ phrase: "Nursing homes" }, { phrase: "Homes for the elderly with nursing care" }],
    });
    const apart = classifyText("Home | About | Contact\nWe train staff in nursing skills for hospitals.", model).candidates;
    expect(apart.find((c) => c.code === "87100")?.matched ?? []).toEqual([]);
  });

  it("CH's no-activity codes are never answered", () => {
    expect(model.codes).not.toContain("99999");
    expect(classifyText("Dormant company", model).candidates.map((c) => c.code)).not.toContain("99999");
  });

  it("stems join agent and activity nouns", () => {
    expect(stem("plumber")).toBe(stem("plumbing"));
    expect(stem("dentist")).toBe(stem("dental"));
    expect(stem("electrician")).toBe(stem("electrical"));
    expect(stem("architect")).toBe(stem("architectural"));
    expect(stem("nursing")).not.toBe(stem("nursery"));
    expect(stem("care")).not.toBe(stem("car"));
  });
});
