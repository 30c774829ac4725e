import { readerByUrl } from "../../app/documents/reader";
import { OFSTED } from "../../app/documents/readers";

/** OFSTED reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureOfstedReportByUrl = readerByUrl("structureOfstedReportByUrl", OFSTED);
