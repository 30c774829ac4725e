import { readerByUrl } from "./common/reader";
import { OFSTED } from "./common/readers";

/** OFSTED reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureOfstedReportByUrl = readerByUrl("structureOfstedReportByUrl", OFSTED);
