import { readerByUrl } from "../../app/documents/reader";
import { CQC } from "../../app/documents/readers";

/** CQC reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureCqcReportByUrl = readerByUrl("structureCqcReportByUrl", CQC);
