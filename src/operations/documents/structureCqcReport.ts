import { readerByText } from "../../app/documents/reader";
import { CQC } from "../../app/documents/readers";

/** CQC reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureCqcReport = readerByText("structureCqcReport", CQC);
