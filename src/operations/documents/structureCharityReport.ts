import { readerByText } from "../../app/documents/reader";
import { CHARITY } from "../../app/documents/readers";

/** CHARITY reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureCharityReport = readerByText("structureCharityReport", CHARITY);
