import { readerByUrl } from "./common/reader";
import { CQC } from "./common/readers";

/** CQC reader, GET: the document at `?url=` (HTML or PDF) (SPEC §4.3). */
export const structureCqcReportByUrl = readerByUrl("structureCqcReportByUrl", CQC);
