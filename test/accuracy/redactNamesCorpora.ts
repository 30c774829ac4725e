/**
 * The corpora test/accuracy/redactNames.accuracy.test.ts measures name redactors over: the real documents in
 * ../shared/corpora (Ofsted, charity, modern slavery statements and carbon reduction plans; there is no real CQC report
 * there), report lines made from the real CQC register export in ../shared/data/cqc (a service's name, its address,
 * "Provided and run by: <provider>" as a location page gives it, and the provider's name as the CQC reader reads it),
 * and the repo's own fixtures for each reader. Files are read through `get` (the test's fetch; a script's disk read).
 */
import Papa from "papaparse";
import { type Doc, docFromHtml, docFromPdf, docFromText } from "../../src/services/documents/document";
import { readPdf } from "../../src/sources/documents/pdf";
import { type Corpus, type CorpusDoc, type Kind, linesOf } from "./redactNamesMeasure";
import { cqcProviderIsPerson } from "./redactNamesTruth";

/** A file's bytes by its path under ../shared ("shared:corpora/…") or test/fixtures ("fixtures:documents/…"), null when absent. */
export type Get = (path: string) => Promise<Uint8Array | null>;

const REAL: [name: string, kind: Kind, files: string[]][] = [
  ["real: Ofsted report", "ofsted", ["corpora/ofsted/farnham-heath-end-school-2016-s5.pdf"]],
  [
    "real: charity accounts",
    "charity",
    ["corpora/charity/ukpa-cc16a-receipts-payments-2022-23.pdf", "corpora/charity/ukpa-cc16a-receipts-payments-latest.pdf"],
  ],
  [
    "real: modern slavery statements",
    "modernSlavery",
    [
      "corpora/modern-slavery/statements/planned-ltd-modern-slavery.html",
      "corpora/modern-slavery/statements/edan-uk-mss-2024.pdf",
      "corpora/modern-slavery/statements/ridgestone-developments-mss.pdf",
      "corpora/modern-slavery/statements/cwiri-mss-2026.html",
      "corpora/modern-slavery/statements/wildfig-research-mss.html",
    ],
  ],
  [
    "real: carbon reduction plans",
    "carbonPlan",
    [
      "corpora/carbon-reduction-plans/planned-ltd-crp.html",
      "corpora/carbon-reduction-plans/register-dynamics-crp.md",
      "corpora/carbon-reduction-plans/apexiar-crp.pdf",
      "corpora/carbon-reduction-plans/edan-uk-crp-2023.pdf",
    ],
  ],
];

const FIXTURES: [name: string, kind: Kind, files: string[]][] = [
  [
    "fixtures: CQC",
    "cqc",
    [
      "brightway-home-care-2018-messy.txt",
      "location-1-123456789.html",
      "meadowbank-lodge-assessment-2024.txt",
      "oakwood-house-2019.pages.txt",
      "rosewood-court-2016.txt",
    ].map((f) => `documents/cqc/${f}`),
  ],
  [
    "fixtures: Ofsted",
    "ofsted",
    ["harrowden-vale-2024-s5.pdf.txt", "hollins-brook-2022-s5.pdf.txt", "ravenscar-lane-2026-report-card.html", "st-aidans-2022-s8.txt"].map(
      (f) => `documents/ofsted/${f}`,
    ),
  ],
  [
    "fixtures: charity",
    "charity",
    [
      ...[
        "eastgate-youth-project-2023.txt",
        "glenbrae-care-trust-2022.txt",
        "hollybrook-trustees-report-2024.pages.txt",
        "millbrook-village-hall-2023.txt",
      ].map((f) => `documents/charity/${f}`),
      ...["ashworth-arts-2025.pages.txt", "hilltop-cc17a-2025.pages.txt", "riverside-plain-2025.txt"].map((f) => `documents/charity-forms/${f}`),
    ],
  ],
  [
    "fixtures: modern slavery",
    "modernSlavery",
    [
      ...["group-statement.txt", "head-of-compliance.txt", "llp-designated-member.html", "messy.txt", "old-2019.txt"].map(
        (f) => `documents/modern-slavery/${f}`,
      ),
      "hosts/docs.test/modern-slavery-statement.html",
    ],
  ],
  [
    "fixtures: carbon reduction plans",
    "carbonPlan",
    ["carbon-neutral-2030.html", "complete-plan.pdf", "messy-plan.html", "net-zero-2055.txt", "scope3-six-seven-only.md"].map((f) => `documents/crp/${f}`),
  ],
];

async function docOf(path: string, bytes: Uint8Array): Promise<Doc> {
  if (path.endsWith(".pdf")) return docFromPdf(await readPdf(bytes));
  const text = new TextDecoder().decode(bytes);
  if (path.endsWith(".html")) return docFromHtml(text);
  // A PDF's pages written out as text: pages split at a form feed or a "--- page break ---" line.
  if (/\.(?:pages|pdf)\.txt$/.test(path)) {
    const pages = text.split(/\f|\n--- page break ---\n/).map((p) => p.replace(/^\n/, "").replace(/\n$/, ""));
    return docFromPdf({ pages, totalPages: pages.length, cut: false });
  }
  return docFromText(text);
}

async function docsOf(get: Get, root: "shared" | "fixtures", files: string[]): Promise<CorpusDoc[]> {
  const out: CorpusDoc[] = [];
  for (const f of files) {
    const bytes = await get(`${root}:${f}`);
    if (!bytes) throw new Error(`missing: ${root}:${f}`);
    const doc = await docOf(f, bytes);
    out.push({ file: f, lines: linesOf(doc), doc });
  }
  return out;
}

/** The 213 statements of the WikiRate training set, each as pasted text. */
async function wikirate(get: Get): Promise<Corpus> {
  const bytes = await get("shared:corpora/modern-slavery/wikirate-msa-training-labels-with-text.csv");
  if (!bytes) throw new Error("missing: the WikiRate statements");
  const rows = Papa.parse<Record<string, string>>(new TextDecoder().decode(bytes), { header: true, skipEmptyLines: true }).data;
  const docs = rows
    .filter((r) => r.Text)
    .map((r) => {
      const doc = docFromText(r.Text);
      return { file: `${r.Company} ${r.Year}`, lines: linesOf(doc), doc };
    });
  return { name: "real: modern slavery statements (WikiRate, 212)", kind: "modernSlavery", docs };
}

/** Report lines from the CQC register export's rows: the service's name (a heading), its address, its provider. */
async function cqcRegister(get: Get): Promise<Corpus> {
  const bytes = await get("shared:data/cqc/cqc-search-export_care-homes-deactivated_head3000.csv");
  if (!bytes) throw new Error("missing: the CQC register export");
  const rows = Papa.parse<Record<string, string>>(new TextDecoder().decode(bytes), { header: true, skipEmptyLines: true }).data;
  const docs: CorpusDoc[] = rows.map((r) => {
    const provider = r["Provider name"];
    const person = cqcProviderIsPerson(provider);
    const at = (line: string): [number, number][] => (person ? [[line.length - provider.length, line.length]] : []);
    const address = [r["Address 1"], r["Address 2"], r["Town/City"], r.County, r.Postcode].filter(Boolean).join(", ");
    const runBy = `Provided and run by: ${provider}`;
    return {
      file: r.Name,
      doc: null,
      lines: [
        // A home may bear its provider's own name.
        { text: r.Name, heading: true, section: r.Name, people: person && r.Name === provider ? [[0, r.Name.length]] : [] },
        { text: address, heading: false, section: r.Name, people: [] },
        { text: runBy, heading: false, section: r.Name, people: at(runBy) },
        { text: provider, heading: false, section: "", people: at(provider) },
      ],
    };
  });
  return { name: "real: CQC register (3,000 care homes)", kind: "cqc", docs };
}

/** Every corpus: the real ones only when ../shared is present (`shared` false: the fixtures alone). */
export async function loadCorpora(get: Get, shared: boolean): Promise<Corpus[]> {
  const out: Corpus[] = [];
  if (shared) {
    for (const [name, kind, files] of REAL) out.push({ name, kind, docs: await docsOf(get, "shared", files) });
    out.push(await wikirate(get), await cqcRegister(get));
  }
  for (const [name, kind, files] of FIXTURES) out.push({ name, kind, docs: await docsOf(get, "fixtures", files) });
  return out;
}
