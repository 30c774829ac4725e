/**
 * The SIC 2007 industry classifier (issue 18, industry-classifier), for `npm run bench` (scripts/bench/index.mjs calls
 * `benchClassifier(ROOT)`; `node --expose-gc scripts/bench/classifier.mjs` runs it alone):
 *  - the model's build time from the real lists (../shared/data/sic-2007; our sample files when absent): the first
 *    build (cold) and the median of five more, parse included;
 *  - its memory: the live heap it holds (after GC; run with --expose-gc), and its typed arrays' bytes;
 *  - classification time per site text (p50, p99);
 *  - accuracy on the labelled fixture sites (test/fixtures/sic-2007/sites): top-1 section, top-1 division and top-3
 *    code, per set (tuning, holdout, final) and in all, with and without the supplement.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseActivityIndex, parseCondensedList, sicHierarchy } from "../../src/services/enrich/sic";
import { type SicModel, buildSicModel, classifyText } from "../../src/services/enrich/sicClassifier";

const NAMES = ["SIC07_CH_condensed_list_en.csv", "ons_economic_activities_alphabetic_index.csv", "ch_created_activity_sic_codes.csv"];

function build(dir: string, supplement = true): SicModel {
  const [list, index, ch] = NAMES.map((n) => readFileSync(join(dir, n), "utf8"));
  return buildSicModel(parseCondensedList(list), [...parseActivityIndex(index).rows, ...parseActivityIndex(ch).rows], { supplement });
}

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => (gc?.(), process.memoryUsage().heapUsed);

export function benchClassifier(root: string) {
  const real = join(root, "..", "shared", "data", "sic-2007");
  const dir = existsSync(real) ? real : join(root, "test", "fixtures", "sic-2007");
  const from = dir === real ? "the real lists (../shared/data/sic-2007)" : "our sample files (test/fixtures/sic-2007): ../shared is not beside the repo";

  // Build time: cold (first in this process, stems not yet memoised), then the median of five.
  let t = performance.now();
  build(dir);
  const coldMs = performance.now() - t;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    build(dir);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);

  // Memory: the heap one more model holds, with the file texts already read and dropped.
  const before = heap();
  const model = build(dir);
  const heldMB = (heap() - before) / 1e6;
  const typedBytes = [
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

  const sitesDir = join(root, "test", "fixtures", "sic-2007", "sites");
  const sites = readdirSync(sitesDir)
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => {
      const raw = readFileSync(join(sitesDir, f), "utf8");
      return {
        name: f,
        known: /^# sic: (.*)$/m.exec(raw)![1].trim().split(/\s+/),
        set: /^# set: (\w+)$/m.exec(raw)?.[1] ?? "tuning",
        text: raw.replace(/^# (sic|set):.*\n/gm, ""),
      };
    });

  const classifyMs: number[] = [];
  for (const s of sites) {
    t = performance.now();
    classifyText(s.text, model);
    classifyMs.push(performance.now() - t);
  }
  classifyMs.sort((a, b) => a - b);
  const q = (xs: number[], p: number) => +xs[Math.floor(p * (xs.length - 1))].toFixed(2);

  const accuracy = (m: SicModel, set?: string) => {
    const chosen = sites.filter((s) => !set || s.set === set);
    let section = 0;
    let division = 0;
    let top3 = 0;
    for (const s of chosen) {
      const c = classifyText(s.text, m).candidates;
      if (c[0] && sicHierarchy(c[0].code)!.section.letter === sicHierarchy(s.known[0])!.section.letter) section++;
      if (c[0] && s.known.some((k) => k.slice(0, 2) === c[0].code.slice(0, 2))) division++;
      if (c.slice(0, 3).some((x) => s.known.includes(x.code))) top3++;
    }
    const pct = (n: number) => `${Math.round((1000 * n) / chosen.length) / 10}%`;
    return { sites: chosen.length, top1Section: pct(section), top1Division: pct(division), top3Code: pct(top3) };
  };
  const plain = build(dir, false);
  return {
    builtFrom: from,
    phrases: model.stats.phrases,
    terms: model.stats.terms,
    codes: model.stats.codes,
    buildMs: { cold: Math.round(coldMs), median: Math.round(times[2]) },
    memory: { heldHeapMB: gc ? +heldMB.toFixed(2) : "run with --expose-gc", typedArraysMB: +(typedBytes / 1e6).toFixed(2) },
    classifyMs: { p50: q(classifyMs, 0.5), p99: q(classifyMs, 0.99), sites: sites.length },
    accuracy: {
      all: accuracy(model),
      tuning: accuracy(model, "tuning"),
      holdout: accuracy(model, "holdout"),
      final: accuracy(model, "final"),
      withoutSupplement: accuracy(plain),
    },
  };
}
