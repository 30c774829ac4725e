import type { OpContext } from "../../platform/registry";
import type { Services } from "../../platform/services";
import { REGISTER_CATALOGUE as REGISTERS } from "../../services/registers/catalogue";
import type { RegisterSource } from "../../services/registers/types";

/**
 * What a register answer rests on, for the call's signed receipt (issue 33 §2): each part's edition as the reads see it
 * (published, or as of a date), with the file it was loaded from and that file's SHA-256.
 */
export async function citeEditions(ctx: OpContext, reads: Services["registers"], source: RegisterSource, scopes?: string[]): Promise<void> {
  if (!ctx.cite) return;
  for (const e of await reads.editionsSeen(source, scopes?.length ? scopes : undefined))
    ctx.cite({
      source: REGISTERS[source].title,
      kind: "register-edition",
      part: e.scope || null,
      editionDate: e.editionDate,
      file: e.fileName,
      url: e.url,
      sha256: e.sha256,
      fetchedAt: e.loadedAt,
    });
}

/** Companies House, read for the answer (from its cache of a few hours at most): the company profile, or what else is named. */
export function citeCompaniesHouse(ctx: OpContext, what = "company profile"): void {
  ctx.cite?.({ source: `Companies House public data API (${what})`, kind: "upstream-read", fetchedAt: ctx.now.toISOString() });
}
