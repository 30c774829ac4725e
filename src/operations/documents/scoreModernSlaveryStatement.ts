import { readerByText } from "./common/reader";
import { MODERN_SLAVERY } from "./common/readers";

/** MODERN_SLAVERY reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const scoreModernSlaveryStatement = readerByText("scoreModernSlaveryStatement", MODERN_SLAVERY);
