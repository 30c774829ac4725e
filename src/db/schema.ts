import { sql } from "drizzle-orm";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch())`);

/** Drizzle view of the platform tables (migrations/0001_platform.sql is the source of truth). */
export const orgs = sqliteTable("orgs", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan").notNull().default("team"),
  pooled: integer("pooled").notNull().default(1),
  createdAt: createdAt(),
});

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email"),
  mobile: text("mobile"),
  emailVerifiedAt: integer("email_verified_at"),
  mobileVerifiedAt: integer("mobile_verified_at"),
  plan: text("plan").notNull().default("free"),
  orgId: text("org_id"),
  createdAt: createdAt(),
});

export const apiKeys = sqliteTable("api_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  keyHash: text("key_hash").notNull(),
  prefix: text("prefix").notNull(),
  label: text("label"),
  active: integer("active").notNull().default(1),
  createdAt: createdAt(),
  disabledAt: integer("disabled_at"),
  creditsOverride: integer("credits_override"),
  creditsOverridePeriod: text("credits_override_period"),
});

export const signupChallenges = sqliteTable("signup_challenges", {
  id: text("id").primaryKey(),
  email: text("email").notNull(),
  mobile: text("mobile").notNull(),
  emailCodeHash: text("email_code_hash").notNull(),
  mobileCodeHash: text("mobile_code_hash").notNull(),
  attempts: integer("attempts").notNull().default(0),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
  createdAt: createdAt(),
});

export const idempotentReplies = sqliteTable(
  "idempotent_replies",
  {
    keyId: text("key_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestHash: text("request_hash").notNull(),
    status: integer("status").notNull().default(0),
    body: text("body"),
    headers: text("headers"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] })],
);
