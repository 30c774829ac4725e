// npm run receipt-key: a new Ed25519 key for signing receipts (issue 33 §2), as the JWKs the Worker's configuration takes.
//   npm run receipt-key                 prints a new private key (with its kid) for the secret RECEIPT_SIGNING_KEY
//   npm run receipt-key -- --retire F   also prints RECEIPT_RETIRED_KEYS: the public key of the current private key in
//                                       file F (a JWK), added to the retired keys already listed in the second file, if any
// Production: `wrangler secret put RECEIPT_SIGNING_KEY` with the private key, and RECEIPT_RETIRED_KEYS (a var or
// secret) with every earlier public key, kept as long as receipts are (five years), so old receipts still verify.
// Locally: put RECEIPT_SIGNING_KEY='…' in .dev.vars (without it, a fixed local-development key signs, never in production).
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const { privateKey } = generateKeyPairSync("ed25519");
const kid = `${new Date().toISOString().slice(0, 10)}-${randomBytes(4).toString("hex")}`;
const jwk = { ...privateKey.export({ format: "jwk" }), kid };
console.log("RECEIPT_SIGNING_KEY (secret: the private key; keep it out of the repository):");
console.log(JSON.stringify(jwk));
const at = args.indexOf("--retire");
if (at >= 0) {
  const current = JSON.parse(readFileSync(args[at + 1], "utf8"));
  const { d: _private, ...publicKey } = current;
  const earlier = args[at + 2] ? JSON.parse(readFileSync(args[at + 2], "utf8")) : [];
  console.log("\nRECEIPT_RETIRED_KEYS (public keys only: publish them as long as receipts are kept):");
  console.log(JSON.stringify([publicKey, ...earlier]));
}
