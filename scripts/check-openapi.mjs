// node scripts/check-openapi.mjs
// The API description, as the service serves it (/openapi.json, built from the operation registry), checked by
// two independent tools: @apidevtools/swagger-parser (validate) and Redocly's linter (recommended rules, zero
// errors). Exits 1 on any error. CI runs it. No server is started: the app answers in-process.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { ROOT, importTs } from "./lib.mjs";

const { buildApp } = await importTs("src/platform/app.ts");
const res = await buildApp().request("https://api.example.co.uk/openapi.json");
const doc = await res.json();
let failed = false;

try {
  await SwaggerParser.validate(structuredClone(doc));
  console.log("swagger-parser: valid");
} catch (e) {
  failed = true;
  console.error(`swagger-parser: ${e.message}`);
}

const dir = mkdtempSync(join(tmpdir(), "ukbi-openapi-"));
try {
  const file = join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(doc));
  const lint = spawnSync(process.execPath, [join(ROOT, "node_modules/@redocly/cli/bin/cli.js"), "lint", file, "--extends=recommended", "--format=summary"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  const out = `${lint.stdout}${lint.stderr}`;
  console.log(out.trim().split("\n").slice(-15).join("\n"));
  if (lint.status !== 0) {
    failed = true;
    console.error(`redocly lint: exit ${lint.status}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
