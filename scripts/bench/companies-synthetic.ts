/**
 * A Basic Company Data file of any size, built from real rows (../shared's sample, else our fixture in the
 * same format): every row is a real row's shape with a new company number, a name drawn from a Zipf-like
 * vocabulary (so the name index sees common words such as LIMITED, SERVICES, UK and many rare ones, as the
 * register does), and dates, postcode and SIC codes varied. Written as a stream, never held.
 */
import { createWriteStream } from "node:fs";
import Papa from "papaparse";

const COMMON = [
  "SERVICES",
  "UK",
  "HOLDINGS",
  "GROUP",
  "PROPERTY",
  "CONSULTING",
  "TRADING",
  "SOLUTIONS",
  "INTERNATIONAL",
  "DEVELOPMENTS",
  "LONDON",
  "INVESTMENTS",
  "MANAGEMENT",
  "GLOBAL",
  "CONSTRUCTION",
  "HOMES",
  "TECHNOLOGY",
  "MEDIA",
  "CAPITAL",
  "VENTURES",
];
const SYLLABLES = [
  "AL",
  "BAR",
  "CAN",
  "DEL",
  "EX",
  "FOR",
  "GRAN",
  "HAL",
  "IN",
  "JOR",
  "KEN",
  "LOR",
  "MAR",
  "NOR",
  "OAK",
  "PER",
  "QUIN",
  "ROS",
  "SAL",
  "TOR",
  "UL",
  "VAN",
  "WIN",
  "YAR",
  "ZEN",
  "BRO",
  "CHE",
  "DUN",
  "FEL",
  "GIL",
  "HAR",
  "LIN",
  "MOR",
  "PEN",
  "RIV",
  "STA",
  "TRE",
  "WEL",
  "ASH",
  "BEL",
];
const FORMS = ["LIMITED", "LTD", "LIMITED", "LIMITED", "LTD", "PLC", "LLP", "LIMITED"];
const STATUSES = ["Active", "Active", "Active", "Active", "Active", "Active", "Active", "Active", "Active - Proposal to Strike off", "Liquidation"];
const SICS = [
  "70229 - Management consultancy activities other than financial management",
  "62012 - Business and domestic software development",
  "68209 - Other letting and operating of own or leased real estate",
  "41100 - Development of building projects",
  "99999 - Dormant Company",
  "47910 - Retail sale via mail order houses or via Internet",
  "56101 - Licensed restaurants",
  "82990 - Other business support service activities n.e.c.",
];
const TOWNS = [
  ["LONDON", "EC1A 1BB"],
  ["MANCHESTER", "M1 3HU"],
  ["BIRMINGHAM", "B2 4QA"],
  ["LEEDS", "LS1 4AP"],
  ["BRISTOL", "BS1 5TY"],
  ["GLASGOW", "G1 1XQ"],
  ["CARDIFF", "CF10 2BU"],
  ["BELFAST", "BT1 5GS"],
];

/** A deterministic pseudo-random sequence (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A made-up word for rank r: rank 0 is the commonest; the vocabulary has about 60,000 words. */
const wordOf = (r: number) => SYLLABLES[r % 40] + SYLLABLES[Math.floor(r / 40) % 40] + (r >= 1600 ? SYLLABLES[Math.floor(r / 1600) % 40] : "");

const date = (n: number) => {
  const d = new Date(Date.UTC(1990, 0, 1) + (n % 12_000) * 86_400_000);
  return `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
};

/**
 * Writes `rows` companies in the real header's layout to `path` (every value quoted, as the real file
 * is). `sample` is the text of a real Basic Company Data file (header plus rows). Returns bytes written.
 */
export async function writeSyntheticBasicCompanyData(path: string, sample: string, rows: number, seed = 1): Promise<number> {
  const parsed = Papa.parse<string[]>(sample.trim(), { newline: "\n" }).data;
  const header = sample.slice(0, sample.indexOf("\n")).replace(/\r$/, "");
  const cols = parsed[0].map((h) => h.trim());
  const at = (name: string) => cols.indexOf(name);
  const real = parsed.slice(1).filter((r) => r.length >= 53);
  const random = rng(seed);
  const out = createWriteStream(path);
  let bytes = 0;
  const write = (s: string) =>
    new Promise<void>((resolve) => {
      bytes += Buffer.byteLength(s);
      if (out.write(s)) resolve();
      else out.once("drain", resolve);
    });
  await write(`${header}\n`);
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  let buf: string[] = [];
  for (let i = 0; i < rows; i++) {
    const row = [...real[i % real.length]];
    // Zipf-like: most names use a few hundred words, a long tail uses tens of thousands.
    const n = 1 + Math.floor(random() * 3);
    const words: string[] = [];
    for (let w = 0; w < n; w++) words.push(random() < 0.25 ? COMMON[Math.floor(random() * COMMON.length)] : wordOf(Math.floor(60_000 * random() ** 3)));
    row[at("CompanyName")] = `${words.join(" ")} ${FORMS[i % FORMS.length]}`;
    row[at("CompanyNumber")] = String(100_000 + i).padStart(8, "0");
    const [town, postcode] = TOWNS[i % TOWNS.length];
    row[at("RegAddress.PostTown")] = town;
    row[at("RegAddress.PostCode")] = postcode;
    row[at("CompanyStatus")] = STATUSES[i % STATUSES.length];
    row[at("IncorporationDate")] = date(i);
    row[at("SICCode.SicText_1")] = SICS[i % SICS.length];
    row[at("URI")] = `http://business.data.gov.uk/id/company/${row[at("CompanyNumber")]}`;
    buf.push(row.map(quote).join(","));
    if (buf.length === 5_000) {
      await write(`${buf.join("\n")}\n`);
      buf = [];
    }
  }
  if (buf.length) await write(`${buf.join("\n")}\n`);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  return bytes;
}

/** The most common made-up name words, for search benchmarks (one-word and three-word queries of real frequency). */
export const benchWords = (k: number) => Array.from({ length: k }, (_, r) => wordOf(r * 37 + 5));
