/**
 * The Worker the tests run: the API Worker (src/index.ts) and, in the same Worker, the readers Worker's entrypoint
 * (src/readers.ts). vitest.config.ts binds READERS to this Worker's own `Readers` entrypoint, so every PDF read and
 * every render of the tests crosses a real Workers RPC boundary, as deployed, with one Worker to run.
 */
export { default, KeyLedger } from "../src/index";
export { Readers } from "../src/readers";
