import { readerByText } from "./common/reader";
import { OFSTED } from "./common/readers";

/** OFSTED reader, POST: `{ text?, url? }`, the text read first (SPEC §4.3). */
export const structureOfstedReport = readerByText("structureOfstedReport", OFSTED);
