import { and, eq } from "drizzle-orm";
import { fromBase64, toBase64 } from "../shared/bytes";
import { logoCompanies, logoFiles, logoImages, orm } from "./schema";

/**
 * Logos as images (migrations/0011_logos.sql, issue 32): the file found on a site, each image made from it, and a
 * company number's confirmed website. Bytes are kept as base64 text. Times are epoch milliseconds.
 */

/** Bytes this module stored as base64 (always base64: a row that is not was not written here). */
function storedBytes(text: string): Uint8Array {
  const bytes = fromBase64(text);
  if (!bytes) throw new Error("a logo row's bytes are not base64");
  return bytes;
}

/** The largest image kept in a row (base64 makes it 4/3 larger; D1 allows 2 MB a row). */
export const MAX_STORED_BYTES = 1_400_000;
/** The largest logo file kept (a larger one is fetched again for each size). */
export const MAX_STORED_FILE_BYTES = 1024 * 1024;

export interface StoredLogoImage {
  variant: string;
  domain: string;
  source: string;
  mime: string;
  etag: string;
  bytes: Uint8Array;
  madeAt: number;
}

export async function logoImage(db: D1Database, variant: string): Promise<StoredLogoImage | null> {
  const row = await orm(db).select().from(logoImages).where(eq(logoImages.variant, variant)).get();
  return row ? { ...row, bytes: storedBytes(row.bytes) } : null;
}

/** Keeps an image made (replacing an older one of the same variant); one over MAX_STORED_BYTES is not kept. */
export async function putLogoImage(db: D1Database, image: StoredLogoImage): Promise<boolean> {
  if (image.bytes.length > MAX_STORED_BYTES) return false;
  const values = { ...image, bytes: toBase64(image.bytes) };
  await orm(db)
    .insert(logoImages)
    .values(values)
    .onConflictDoUpdate({
      target: logoImages.variant,
      set: { source: values.source, mime: values.mime, etag: values.etag, bytes: values.bytes, madeAt: values.madeAt },
    })
    .run();
  return true;
}

export interface StoredLogoFile {
  domain: string;
  theme: string;
  url: string;
  source: string;
  mime: string;
  sha256: string;
  /** Null when the file was over MAX_STORED_FILE_BYTES. */
  bytes: Uint8Array | null;
  fetchedAt: number;
}

export async function logoFile(db: D1Database, domain: string, theme: string): Promise<StoredLogoFile | null> {
  const row = await orm(db)
    .select()
    .from(logoFiles)
    .where(and(eq(logoFiles.domain, domain), eq(logoFiles.theme, theme)))
    .get();
  return row ? { ...row, bytes: row.bytes === null ? null : storedBytes(row.bytes) } : null;
}

export async function putLogoFile(db: D1Database, file: StoredLogoFile): Promise<void> {
  const bytes = file.bytes && file.bytes.length <= MAX_STORED_FILE_BYTES ? toBase64(file.bytes) : null;
  const values = { ...file, bytes };
  await orm(db)
    .insert(logoFiles)
    .values(values)
    .onConflictDoUpdate({
      target: [logoFiles.domain, logoFiles.theme],
      set: { url: values.url, source: values.source, mime: values.mime, sha256: values.sha256, bytes, fetchedAt: values.fetchedAt },
    })
    .run();
}

export interface LogoCompany {
  companyNumber: string;
  domain: string | null;
  name: string;
  resolvedAt: number;
}

export async function logoCompany(db: D1Database, companyNumber: string): Promise<LogoCompany | null> {
  return (await orm(db).select().from(logoCompanies).where(eq(logoCompanies.companyNumber, companyNumber)).get()) ?? null;
}

export async function putLogoCompany(db: D1Database, row: LogoCompany): Promise<void> {
  await orm(db)
    .insert(logoCompanies)
    .values(row)
    .onConflictDoUpdate({ target: logoCompanies.companyNumber, set: { domain: row.domain, name: row.name, resolvedAt: row.resolvedAt } })
    .run();
}
