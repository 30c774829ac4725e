import { SQL } from "drizzle-orm";
import { type SQLiteTable, SQLiteSyncDialect, getTableConfig } from "drizzle-orm/sqlite-core";

/**
 * Compares drizzle table descriptions (src/db/schema.ts) with a migrated D1 database (test/db/schema.test.ts):
 * each table's columns by name, SQLite type affinity, NOT NULL, default and primary key, from `PRAGMA table_info`.
 */

interface MigratedColumn {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** A column as both sides are compared: the migrated database's, or drizzle's. */
interface Shape {
  affinity: string;
  notNull: boolean;
  default: string | null;
  /** Position in the primary key (1-based), 0 when not part of it. */
  pk: number;
}

/** SQLite's type affinity of a declared type (https://sqlite.org/datatype3.html §3.1). */
export function affinity(declared: string): string {
  const t = declared.toUpperCase();
  if (t.includes("INT")) return "INTEGER";
  if (/CHAR|CLOB|TEXT/.test(t)) return "TEXT";
  if (t === "" || t.includes("BLOB")) return "BLOB";
  if (/REAL|FLOA|DOUB/.test(t)) return "REAL";
  return "NUMERIC";
}

/** Tables SQLite, D1 and the migrations runner keep for themselves. */
const internal = (name: string) => name.startsWith("sqlite_") || name.startsWith("_cf_") || name === "d1_migrations";

/**
 * The migrated tables of a database with their columns, and its virtual (FTS5) tables, whose shadow tables
 * (`<name>_data`, `_idx`, `_content`, `_docsize`, `_config`) are left out with them.
 */
export async function migratedSchema(db: D1Database): Promise<{ tables: Map<string, Map<string, Shape>>; virtual: string[] }> {
  const { results } = await db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name`).all<{ name: string; sql: string }>();
  const virtual = results.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const tables = new Map<string, Map<string, Shape>>();
  for (const { name, sql: ddl } of results) {
    if (internal(name) || virtual.some((v) => name === v || name.startsWith(`${v}_`))) continue;
    if (!/^\w+$/.test(name)) throw new Error(`unexpected table name ${name}`);
    const { results: cols } = await db.prepare(`PRAGMA table_info("${name}")`).all<MigratedColumn>();
    const withoutRowid = /WITHOUT\s+ROWID\s*;?\s*$/i.test(ddl);
    const pkColumns = cols.filter((c) => c.pk > 0);
    const columns = new Map<string, Shape>();
    for (const c of cols) {
      // NOT NULL as SQLite enforces it: declared, or an INTEGER PRIMARY KEY (the rowid), or any primary key column of
      // a WITHOUT ROWID table. (Drizzle marks every primary key column not null.)
      const rowid = c.pk === 1 && pkColumns.length === 1 && c.type.toUpperCase() === "INTEGER";
      const notNull = c.notnull === 1 || rowid || (withoutRowid && c.pk > 0);
      columns.set(c.name, { affinity: affinity(c.type), notNull, default: c.dflt_value === null ? null : unwrapped(c.dflt_value), pk: c.pk });
    }
    tables.set(name, columns);
  }
  return { tables, virtual };
}

const dialect = new SQLiteSyncDialect();

/** An expression without the parentheses around it all: SQLite keeps `DEFAULT (unixepoch())` as `unixepoch()`. */
function unwrapped(expr: string): string {
  if (!expr.startsWith("(") || !expr.endsWith(")")) return expr;
  let depth = 0;
  for (let i = 0; i < expr.length - 1; i++) {
    depth += expr[i] === "(" ? 1 : expr[i] === ")" ? -1 : 0;
    if (depth === 0) return expr; // the first parenthesis closes before the end: `(a) + (b)`
  }
  return unwrapped(expr.slice(1, -1));
}

/** A drizzle default as SQLite keeps a DEFAULT clause: a string quoted, a number as is, SQL as its text. */
function defaultText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (value instanceof SQL) return unwrapped(dialect.sqlToQuery(value).sql);
  if (typeof value === "string") return `'${value.replaceAll("'", "''")}'`;
  if (typeof value === "boolean") return value ? "1" : "0";
  return String(value);
}

/** A drizzle table's columns, shaped as the migrated ones. */
export function describedColumns(table: SQLiteTable): Map<string, Shape> {
  const config = getTableConfig(table);
  const composite = config.primaryKeys.map((k) => k.columns.map((c) => c.name));
  if (composite.length > 1) throw new Error(`${config.name}: more than one primary key`);
  const columns = new Map<string, Shape>();
  for (const c of config.columns) {
    const pk = c.primary ? 1 : (composite[0]?.indexOf(c.name) ?? -1) + 1;
    columns.set(c.name, { affinity: affinity(c.getSQLType()), notNull: c.notNull, default: defaultText(c.default), pk });
  }
  return columns;
}

/** Every difference between a migrated database and a set of drizzle tables, one line each; none when they agree. */
export async function schemaDifferences(db: D1Database, described: Record<string, SQLiteTable>): Promise<string[]> {
  const { tables } = await migratedSchema(db);
  const out: string[] = [];
  const byName = new Map(Object.values(described).map((t) => [getTableConfig(t).name, t]));
  for (const name of tables.keys()) if (!byName.has(name)) out.push(`${name}: migrated, but has no drizzle description`);
  for (const [name, table] of byName) {
    const migrated = tables.get(name);
    if (!migrated) {
      out.push(`${name}: described, but not in the migrated database`);
      continue;
    }
    const mine = describedColumns(table);
    for (const column of migrated.keys()) if (!mine.has(column)) out.push(`${name}.${column}: migrated, but not described`);
    for (const [column, shape] of mine) {
      const m = migrated.get(column);
      if (!m) {
        out.push(`${name}.${column}: described, but not in the migrated database`);
        continue;
      }
      for (const k of ["affinity", "notNull", "default", "pk"] as const)
        if (m[k] !== shape[k]) out.push(`${name}.${column}: ${k} is ${JSON.stringify(m[k])} as migrated, ${JSON.stringify(shape[k])} as described`);
    }
  }
  return out;
}
