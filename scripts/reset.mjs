// npm run reset -- [source ...]
// Empties registers in the local database that `npm start` serves: every edition, change and run of
// each source named (the sources of src/services/registers/catalogue.ts), or of all of them when none
// is named. Use it to load a register's history oldest first, or to drop the sample data before loading
// real editions (though the first real edition replaces the sample data by itself). Safe while the
// server runs. `tenders` (tender-match's notices) and `sic` (the industry classifier's SIC lists) are tables, not
// registers: they are emptied only when named.
import { importTs, localEnv, migrateLocal } from "./lib.mjs";

const cli = await importTs("src/cli/ingest.ts");
const SOURCES = cli.REGISTER_SOURCES;
const args = process.argv.slice(2);
const TABLES = ["tenders", "sic"];
const bad = args.filter((a) => !SOURCES.includes(a) && !TABLES.includes(a));
if (bad.length) {
  console.error(`unknown source ${bad.join(", ")}; usage: npm run reset -- [${[...SOURCES, ...TABLES].join("|")} ...]`);
  process.exit(2);
}
const tables = args.filter((a) => TABLES.includes(a));
const sources = args.length ? args.filter((a) => SOURCES.includes(a)) : SOURCES;
migrateLocal();
const proxy = await localEnv();
try {
  const removed = await cli.resetRegisters(proxy.env, sources);
  for (const [s, n] of Object.entries(removed)) console.log(`${s}: emptied (${n} entries removed)`);
  for (const [t, n] of Object.entries(await cli.resetTables(proxy.env, tables))) console.log(`${t}: emptied (${n} rows removed)`);
} finally {
  await proxy.dispose();
}
