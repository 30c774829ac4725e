/** One downloaded edition file of a register, as every source client returns it. */
export interface FetchedEdition {
  url: string;
  fileName: string | null;
  editionDate: string | null;
  /** Still compressed when the upstream is a zip/ODS. */
  bytes: Uint8Array;
}
