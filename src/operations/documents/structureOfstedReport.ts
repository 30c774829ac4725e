import { readerByText } from "../../app/documents/reader";
import { OFSTED } from "../../app/documents/readers";

/** OFSTED reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureOfstedReport = readerByText("structureOfstedReport", OFSTED);
