// node scripts/migrate.mjs [persist folder]: applies every database's D1 migrations to the local state (openLocal in
// scripts/lib.mjs: one local runtime, under the migrations lock). migrateLocal runs it as a child process for the
// scripts that go on to start a server of their own.
import { openLocal } from "./lib.mjs";

const local = await openLocal(process.argv[2] || undefined);
await local.dispose();
