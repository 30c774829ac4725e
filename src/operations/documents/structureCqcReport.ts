import { readerByText } from "./common/reader";
import { CQC } from "./common/readers";

/** CQC reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureCqcReport = readerByText("structureCqcReport", CQC);
