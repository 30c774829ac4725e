import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { getTableConfig, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { companiesTables, mainTables } from "../../src/db/schema";
import { affinity, migratedSchema, schemaDifferences } from "./schemaCheck";

/**
 * Issue 31: src/db/schema.ts is the one description of every table, and the migrations are the source of truth
 * (wrangler applies them). test/setup.ts applies migrations/ to env.DB and migrations/companies/ to
 * env.COMPANIES_DB, as for every test file; here each migrated table is compared with its drizzle description,
 * column by column: name, type affinity, NOT NULL, default and primary key (./schemaCheck.ts).
 */

describe("src/db/schema.ts describes every migrated table (issue 31)", () => {
  it("the main database (migrations/) matches mainTables, column by column", async () => {
    expect(await schemaDifferences(env.DB, mainTables)).toEqual([]);
    const { tables, virtual } = await migratedSchema(env.DB);
    expect(tables.size).toBe(27);
    // Left out on purpose: drizzle has no virtual tables, and FTS5 statements are raw SQL.
    expect(virtual).toEqual(["register_names_fts"]);
  });

  it("the companies register's database (migrations/companies/) matches companiesTables", async () => {
    expect(await schemaDifferences(env.COMPANIES_DB, companiesTables)).toEqual([]);
    const { tables, virtual } = await migratedSchema(env.COMPANIES_DB);
    expect(tables.size).toBe(7);
    expect(virtual).toEqual(["companies_fts"]);
  });

  it("both together describe the 34 tables the migrations create, each once", () => {
    const names = [...Object.values(mainTables), ...Object.values(companiesTables)].map((t) => getTableConfig(t).name);
    expect(new Set(names).size).toBe(34);
  });

  it("the checks see SQLite's rules: type affinity, and NOT NULL of a rowid or WITHOUT ROWID key", async () => {
    expect(["INTEGER", "TEXT", "REAL", "BLOB", "", "NUMERIC", "VARCHAR(10)", "BIGINT", "DOUBLE"].map(affinity)).toEqual([
      "INTEGER",
      "TEXT",
      "REAL",
      "BLOB",
      "BLOB",
      "NUMERIC",
      "TEXT",
      "INTEGER",
      "REAL",
    ]);
    const { tables } = await migratedSchema(env.COMPANIES_DB);
    // `id INTEGER PRIMARY KEY` and `code TEXT PRIMARY KEY … WITHOUT ROWID` are declared without NOT NULL; neither takes a NULL.
    expect(tables.get("companies")?.get("id")).toEqual({ affinity: "INTEGER", notNull: true, default: null, pk: 1 });
    expect(tables.get("sic_codes")?.get("code")).toEqual({ affinity: "TEXT", notNull: true, default: null, pk: 1 });
    expect(tables.get("company_staging")?.get("number")).toEqual({ affinity: "TEXT", notNull: true, default: null, pk: 2 });
  });

  it("fails on a wrong description: a table or column missing either side, a wrong type, nullability, default or key", async () => {
    const { orgs: _orgs, idempotentReplies: _replies, accounts: _accounts, ...rest } = mainTables;
    const wrong = {
      ...rest,
      // orgs left out entirely.
      // accounts: email NOT NULL, plan's default wrong, created_at's default missing, org_id left out, a column never migrated.
      accounts: sqliteTable("accounts", {
        id: text("id").primaryKey(),
        email: text("email").notNull(),
        mobile: text("mobile"),
        emailVerifiedAt: integer("email_verified_at"),
        mobileVerifiedAt: text("mobile_verified_at"),
        plan: text("plan").notNull().default("pro"),
        createdAt: integer("created_at").notNull(),
        nickname: text("nickname"),
      }),
      // idempotent_replies: its composite key in the wrong order.
      idempotentReplies: sqliteTable(
        "idempotent_replies",
        {
          keyId: text("key_id").notNull(),
          idempotencyKey: text("idempotency_key").notNull(),
          requestHash: text("request_hash").notNull(),
          status: integer("status").notNull().default(0),
          body: text("body"),
          headers: text("headers"),
          createdAt: integer("created_at").notNull().default(sql`(unixepoch())`),
        },
        (t) => [primaryKey({ columns: [t.idempotencyKey, t.keyId] })],
      ),
      // A table no migration creates.
      ghosts: sqliteTable("ghosts", { id: integer("id").primaryKey() }),
    };
    expect((await schemaDifferences(env.DB, wrong)).sort()).toEqual(
      [
        "orgs: migrated, but has no drizzle description",
        "ghosts: described, but not in the migrated database",
        "accounts.org_id: migrated, but not described",
        "accounts.nickname: described, but not in the migrated database",
        `accounts.email: notNull is false as migrated, true as described`,
        `accounts.mobile_verified_at: affinity is "INTEGER" as migrated, "TEXT" as described`,
        `accounts.plan: default is "'free'" as migrated, "'pro'" as described`,
        `accounts.created_at: default is "unixepoch()" as migrated, null as described`,
        "idempotent_replies.key_id: pk is 1 as migrated, 2 as described",
        "idempotent_replies.idempotency_key: pk is 2 as migrated, 1 as described",
      ].sort(),
    );
    // The companies database's tables are not the main database's.
    expect(await schemaDifferences(env.DB, companiesTables)).toContain("companies: described, but not in the migrated database");
  });
});
