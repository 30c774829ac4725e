// The document readers' bench alone (also item 10 of `npm run bench`): node --expose-gc scripts/bench/documents.mjs
import { importTs } from "../lib.mjs";

export async function benchDocumentReaders() {
  return (await importTs("scripts/bench/documents.ts")).benchDocuments();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchDocumentReaders(), null, 2));
  process.exit(0);
}
