// Enrichment's bench alone (also part of `npm run bench`): node scripts/bench/enrichment.mjs
import { importTs } from "../lib.mjs";

export async function benchEnrichmentCore() {
  return (await importTs("scripts/bench/enrichment.ts")).benchEnrichment();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchEnrichmentCore(), null, 2));
  process.exit(0);
}
