// The industry classifier's bench alone (also part of `npm run bench`): node --expose-gc scripts/bench/classifier.mjs
import { ROOT, importTs } from "../lib.mjs";

export async function benchClassifierItem() {
  return (await importTs("scripts/bench/classifier.ts")).benchClassifier(ROOT);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchClassifierItem(), null, 2));
  process.exit(0);
}
