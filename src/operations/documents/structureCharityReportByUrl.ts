import { readerByUrl } from "../../app/documents/reader";
import { CHARITY } from "../../app/documents/readers";

/** CHARITY reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureCharityReportByUrl = readerByUrl("structureCharityReportByUrl", CHARITY);
