import { Hono } from "hono";
import type { Env } from "./env";

export { KeyLedger } from "./ledger/KeyLedger";

const app = new Hono<{ Bindings: Env }>();
app.get("/", (c) => c.json({ ok: true }));

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
