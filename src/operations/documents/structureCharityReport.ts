import { readerByText } from "./common/reader";
import { CHARITY } from "./common/readers";

/** CHARITY reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureCharityReport = readerByText("structureCharityReport", CHARITY);
