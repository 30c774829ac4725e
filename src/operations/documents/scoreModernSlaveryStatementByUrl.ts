import { readerByUrl } from "../../app/documents/reader";
import { MODERN_SLAVERY } from "../../app/documents/readers";

/** MODERN_SLAVERY reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const scoreModernSlaveryStatementByUrl = readerByUrl("scoreModernSlaveryStatementByUrl", MODERN_SLAVERY);
