/**
 * A realistic large workers register built from real rows, for the parse + diff benchmark
 * (SPEC §4.8 sponsor-licence feed; target 50,000 rows/s on 120,000 rows).
 */
import Papa from "papaparse";

/**
 * `rows` data rows cycling through the sample's rows; the first pass keeps them as they are, later
 * passes suffix the name with the pass number (" 2", " 3"…) so every key stays unique. Keeps the
 * sample's style: fully quoted (empty fields bare) with CRLF, or minimal quoting with LF.
 */
export function buildLargeSponsorsCsv(sampleCsv: string, rows: number): string {
  const text = sampleCsv.replace(/^\uFEFF/, "");
  const [header, ...body] = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
  const nameCol = header?.findIndex((h) => /^(organisation|sponsor) name$/i.test(h.trim())) ?? -1;
  if (nameCol < 0 || !body.length) throw new Error("buildLargeSponsorsCsv: the sample needs a sponsors header and at least one row");
  const allQuoted = text.startsWith('"');
  const newline = text.includes("\r\n") ? "\r\n" : "\n";
  const data: string[][] = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const src = body[i % body.length];
    const pass = Math.floor(i / body.length);
    if (pass === 0) data[i] = src;
    else {
      const row = src.slice();
      row[nameCol] = `${src[nameCol]} ${pass + 1}`;
      data[i] = row;
    }
  }
  const csv = Papa.unparse({ fields: header, data }, { newline, quotes: allQuoted ? (v: unknown) => v !== "" : false });
  return csv + newline;
}
