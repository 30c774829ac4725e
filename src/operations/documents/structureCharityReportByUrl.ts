import { readerByUrl } from "./common/reader";
import { CHARITY } from "./common/readers";

/** CHARITY reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureCharityReportByUrl = readerByUrl("structureCharityReportByUrl", CHARITY);
