/**
 * The shared data folder (real files some tests read): `../shared` beside the repository, or the folder `SHARED_DIR`
 * names (relative to the repository root). Tests that read it skip cleanly when it is absent or empty: pointing
 * SHARED_DIR at an empty folder shows what skips without it (docs/testing.md).
 *
 * Node only: vitest.config.ts reads it to serve http://shared.test and set the Workers lane's `env.SHARED_PRESENT`,
 * and Node-lane tests import SHARED_PRESENT from here. Inside workerd a test must use `env.SHARED_PRESENT`: this
 * module's file-system view there is not the machine's, so it refuses to load rather than skip in silence.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

if (typeof navigator !== "undefined" && navigator.userAgent === "Cloudflare-Workers")
  throw new Error("test/support/shared.ts is for the Node lane and vitest.config.ts; in the Workers lane use env.SHARED_PRESENT");

/** The repository's root folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The shared data folder, absolute. */
export const SHARED_DIR = resolve(ROOT, process.env.SHARED_DIR || "../shared");

/** Whether the shared data folder is there: a folder with something in it (an empty one counts as absent). */
export const SHARED_PRESENT = existsSync(SHARED_DIR) && statSync(SHARED_DIR).isDirectory() && readdirSync(SHARED_DIR).length > 0;

/** A file of the shared folder (path relative to it), as bytes. */
export const sharedBytes = (path: string): Uint8Array => new Uint8Array(readFileSync(join(SHARED_DIR, path)));

/** A file of the shared folder (path relative to it), as UTF-8 text. */
export const sharedText = (path: string): string => readFileSync(join(SHARED_DIR, path), "utf8");
