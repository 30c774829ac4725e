// Copies the third-party browser files the pages use (the API reference renderer) from node_modules into
// public/vendor/, which Workers Static Assets serves from the Worker's own origin: no CDN, so the pages work
// offline and under a strict Content-Security-Policy. Run by wrangler's build step (dev and deploy) and by
// the tests. public/vendor/ is not committed.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { axeSource, linkChromium } from "./browser-prep.mjs";
import { ROOT } from "./lib.mjs";

const require = createRequire(join(ROOT, "package.json"));
const FILES = [
  // Scalar API Reference (MIT): one self-contained script, styles included.
  ["@scalar/api-reference/browser/standalone.js", "public/vendor/scalar/standalone.js"],
];

for (const [from, to] of FILES) {
  const src = require.resolve(from);
  const dest = join(ROOT, to);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(src, dest);
}

// The accessibility audit's axe-core (embedded in the Worker) and, locally, the browser miniflare launches.
axeSource();
linkChromium();
