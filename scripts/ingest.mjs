// npm run ingest -- <source> <file-or-url> [--date YYYY-MM-DD] [--sample]
// Loads one register edition into the local database that `npm start` serves, through the same
// pipeline as the Worker's daily job. Sources: those of src/services/registers/catalogue.ts.
// The first real edition of a register is its baseline (no changes); if the register held our sample
// data, that edition replaces it. Editions after it are diffed in date order: to load history, empty
// the register (npm run reset -- <source>) and load the oldest edition first. --sample marks our own
// sample files (npm start uses it); sample data is never loaded over real data.
// charity: give publicextract.charity.txt (or .zip, as downloaded); the other tables beside it
// (publicextract.<table>.txt or .zip) are read too, all as streams.
// companies: give BasicCompanyDataAsOneFile-YYYY-MM-01.zip (or the CSV inside it, or its address); it is
// read as a stream (the real file is 2.7 GB of CSV), and the edition date comes from its name or --date.
// payment-practices: give the export CSV (or its address, https://check-payment-practices.service.gov.uk/export/csv/);
// its edition date is its latest filing date unless --date is given.
// gender-pay-gap: give one reporting year's CSV ("UK Gender Pay Gap Data - 2021 to 2022.csv", or its address
// https://gender-pay-gap.service.gov.uk/viewing/download-data/2021); each year is its own scope, dated by the file's
// newest submission unless --date is given.
// contracts: give an OCDS release package, record package, release or JSON array of releases (dated by the newest
// publishedDate or release date), or a Find a Tender / Contracts Finder search URL, whose pages are all read.
// tenders: the same OCDS forms, read for their tender notices (issue 18 tender-match; not a register: a table of
// notices updated in place, src/jobs/tenders.ts); a search URL is read with its stages as given (e.g. stages=tender).
// cqc: give the HSCA Active Locations .ods (or API detail JSON); CQC's ratings file (<date>_Latest_ratings.ods) beside
// it is joined to it (the five key questions and the date of each rating), else the current one from CQC_RATINGS_URL.
// sic: the SIC 2007 lists of the industry classifier, not a register: npm run ingest -- sic <folder | files…> (scripts/sic.mjs).
import { createReadStream, existsSync, openSync, readFileSync, readSync, readdirSync, closeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { ROOT, importTs, localEnv, migrateLocal } from "./lib.mjs";

/** The sources and the charity extract's tables come from the register catalogue, through the CLI module. */
let cli;
/** The CLI bundle (src/cli/ingest.ts), built once per process. */
const loadCli = () => (cli ??= importTs("src/cli/ingest.ts"));

/** The sample files `npm start` loads, from the register catalogue: `{ source, file, date }`, `date` null where the file carries its own. */
export const sampleFiles = async () => (await loadCli()).SAMPLE_FILES;

/** wrangler.toml's [vars] (`NAME = "value"`): the proxy's env holds the databases only, and an adapter may read an upstream (CQC's ratings file). */
const wranglerVars = () =>
  Object.fromEntries([...readFileSync(join(ROOT, "wrangler.toml"), "utf8").matchAll(/^([A-Z][A-Z0-9_]*)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));

/** Whether a file starts like a zip archive (a local file header). */
function isZipFile(path) {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads one file (or address) of a register into the local database. `local`: databases a script already opened
 * (openLocal in scripts/lib.mjs), kept open after; without it they are opened and closed for this one file.
 */
export async function ingest(source, target, { date = null, persistTo, quiet = false, sample = false, local = null } = {}) {
  const cli = await loadCli();
  if (!cli.REGISTER_SOURCES.includes(source) && source !== "tenders")
    throw new Error(`unknown source ${source}; sources: ${[...cli.REGISTER_SOURCES, "tenders"].join(", ")}`);
  if (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error("--date must be YYYY-MM-DD");
  let bytes = null;
  let fileName;
  let url = null;
  const tables = {};
  let open;
  let ratings;
  if (source === "companies") {
    // Never held whole: a stream of the CSV (inflated when the file is a zip), opened afresh for each chunk.
    const remote = /^https?:\/\//.test(target);
    if (!remote && !existsSync(target)) throw new Error(`no file ${target}`);
    fileName = basename(remote ? new URL(target).pathname : target);
    url = remote ? target : null;
    const body = async () => {
      if (!remote) return Readable.toWeb(createReadStream(target));
      const r = await fetch(target);
      if (!r.ok || !r.body) throw new Error(`${target} answered ${r.status}`);
      return r.body;
    };
    const zipped = remote ? /\.zip$/i.test(fileName) : isZipFile(target);
    open = async function* () {
      const stream = await body();
      yield* zipped ? cli.csvOfZip(stream) : stream;
    };
  } else if ((source === "contracts" || source === "tenders") && /^https?:\/\//.test(target)) {
    // An OCDS search address (Find a Tender or Contracts Finder): every page, following links.next, Retry-After honoured.
    const pages = source === "tenders" ? await cli.fetchTenderUrl(target) : await cli.fetchOcdsUrl(target);
    bytes = new TextEncoder().encode(JSON.stringify({ publishedDate: pages.publishedDate, releases: pages.releases }));
    fileName = basename(new URL(target).pathname);
    url = target;
  } else if (/^https?:\/\//.test(target)) {
    const r = await fetch(target);
    if (!r.ok) throw new Error(`${target} answered ${r.status}`);
    bytes = new Uint8Array(await r.arrayBuffer());
    fileName = basename(new URL(target).pathname);
    url = target;
  } else {
    if (!existsSync(target)) throw new Error(`no file ${target}`);
    fileName = basename(target);
    if (source === "charity") {
      for (const t of cli.REGISTER_CATALOGUE.charity.tables) {
        const txt = join(dirname(target), `publicextract.${t}.txt`);
        const zip = join(dirname(target), `publicextract.${t}.zip`);
        if (existsSync(txt)) tables[t] = () => createReadStream(txt);
        else if (existsSync(zip)) tables[t] = () => cli.unzipMember(Readable.toWeb(createReadStream(zip)), `publicextract.${t}.txt`, `charity: ${t}`);
      }
      if (!tables.charity) throw new Error(`charity: give publicextract.charity.txt or .zip (found ${fileName})`);
      fileName = "publicextract.charity.txt";
    } else bytes = new Uint8Array(readFileSync(target));
    const beside = source === "cqc" ? cli.ratingsFileBeside(fileName, readdirSync(dirname(target))) : null;
    if (beside) {
      ratings = new Uint8Array(readFileSync(join(dirname(target), beside)));
      if (!quiet) console.log(`  cqc: ratings from ${beside}`);
    }
  }
  const proxy = local ?? (await localEnv(persistTo));
  try {
    if (source === "tenders") return await cli.ingestTenders(proxy.env, bytes, { fileName, url, sample });
    const result = await cli.ingestFile({ ...wranglerVars(), ...proxy.env }, source, bytes, {
      open,
      fileName,
      url,
      editionDate: date,
      sample,
      tables,
      ratings,
      onProgress: quiet ? undefined : (m) => process.stdout.write(`  ${m}\n`),
    });
    return result;
  } finally {
    if (!local) await proxy.dispose();
  }
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1])) && process.argv[2] === "sic") {
  await (await import("./sic.mjs")).main(process.argv.slice(3));
} else if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const args = process.argv.slice(2);
  const sample = args.includes("--sample");
  const rest = args.filter((a) => a !== "--sample");
  const i = rest.indexOf("--date");
  const date = i >= 0 ? rest[i + 1] : null;
  const [source, target] = i >= 0 ? rest.filter((_, j) => j !== i && j !== i + 1) : rest;
  if (!source || !target) {
    const { REGISTER_SOURCES } = await loadCli();
    console.error(`usage: npm run ingest -- <${[...REGISTER_SOURCES, "tenders"].join("|")}> <file-or-url> [--date YYYY-MM-DD] [--sample]`);
    process.exit(2);
  }
  migrateLocal();
  try {
    const started = Date.now();
    const r = await ingest(source, target, { date, sample });
    const notes = r.notes
      ? Object.entries(r.notes)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ")
      : "";
    console.log(
      `${r.source}${r.scope ? `/${r.scope}` : ""}: ${r.outcome}, edition ${r.editionDate ?? "(today)"}, ${r.rowsRead} rows, ${r.changes} changes` +
        `${
          Object.keys(r.byKind).length
            ? ` (${Object.entries(r.byKind)
                .map(([k, n]) => `${k} ${n}`)
                .join(", ")})`
            : ""
        }` +
        `${notes ? `; left out or changed: ${notes}` : ""}${r.reason ? `; ${r.reason}` : ""} [${((Date.now() - started) / 1000).toFixed(1)} s]`,
    );
    if (r.outcome === "failed" || r.outcome === "refused") process.exitCode = 1;
  } catch (e) {
    console.error(`ingest failed: ${e.message}`);
    process.exitCode = 1;
  }
}
