import type { Env } from "./env";
import { buildApp } from "./platform/app";

export { KeyLedger } from "./ledger/KeyLedger";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
