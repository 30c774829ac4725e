import { readerByText } from "../../app/documents/reader";
import { MODERN_SLAVERY } from "../../app/documents/readers";

/** MODERN_SLAVERY reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const scoreModernSlaveryStatement = readerByText("scoreModernSlaveryStatement", MODERN_SLAVERY);
