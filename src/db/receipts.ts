import { and, eq } from "drizzle-orm";
import { orm, receipts } from "./schema";

/** Signed receipts and the replies they cover (migrations/0012_receipts.sql, issue 33 §2). Times are epoch milliseconds. */

export type ReceiptRow = typeof receipts.$inferSelect;

export async function putReceipt(db: D1Database, row: ReceiptRow): Promise<void> {
  await orm(db).insert(receipts).values(row).run();
}

/** One of the account's receipts, or null (another account's receipt is not found). */
export async function receiptOf(db: D1Database, accountId: string, id: string): Promise<ReceiptRow | null> {
  return (
    (await orm(db)
      .select()
      .from(receipts)
      .where(and(eq(receipts.id, id), eq(receipts.accountId, accountId)))
      .get()) ?? null
  );
}
