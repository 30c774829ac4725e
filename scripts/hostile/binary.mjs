/**
 * Hostile binary inputs for the readers (issue 29 §1): PDFs, zips and gzip bodies that are small on the wire and huge
 * (or endless in work) once read. Plain ES module with no node-only imports (fflate only, a dependency), so node
 * scripts (fixtures, the live-server harness) and the tests (vitest in workerd) make the same bytes. Every
 * compressed stream is built by streaming through fflate, a chunk at a time, so memory stays at the size of the
 * output, never of the inflated size.
 */
import { Gzip, Zip, ZipDeflate, Zlib, zlibSync } from "fflate";

const enc = new TextEncoder();
const CHUNK = 1 << 20; // 1 MiB of input pushed at a time

/** Concatenates byte chunks. */
function concat(parts) {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Streams `total` bytes made of `unit` repeated (cut at `total`) through a fflate streaming compressor, collecting its
 * output. Memory: one 1 MiB input chunk plus the compressed output.
 */
function compressRepeated(Stream, unit, total, opts) {
  const parts = [];
  const z = new Stream({ level: 9, mem: 8, ...opts }, (data) => parts.push(data));
  const u = typeof unit === "string" ? enc.encode(unit) : unit;
  const block = new Uint8Array(Math.max(u.length, Math.floor(CHUNK / u.length) * u.length));
  for (let i = 0; i < block.length; i += u.length) block.set(u.subarray(0, Math.min(u.length, block.length - i)), i);
  let left = total;
  while (left > block.length) {
    z.push(block, false);
    left -= block.length;
  }
  z.push(block.subarray(0, left), true);
  return concat(parts);
}

/**
 * A PDF file from its objects (index = object number; 0 unused). An object is the text between `N 0 obj` and
 * `endobj`, or a `{ dict, data }` stream whose `/Length` is set here. Classic xref table and trailer.
 */
function buildPdf(objects) {
  const parts = [concat([enc.encode("%PDF-1.7\n%"), new Uint8Array([0xe2, 0xe3, 0xcf, 0xd3, 0x0a])])];
  let offset = parts[0].length;
  const offsets = [];
  for (let i = 1; i < objects.length; i++) {
    const o = objects[i];
    offsets[i] = offset;
    const bytes =
      typeof o === "string"
        ? enc.encode(`${i} 0 obj\n${o}\nendobj\n`)
        : concat([enc.encode(`${i} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`), o.data, enc.encode("\nendstream\nendobj\n")]);
    parts.push(bytes);
    offset += bytes.length;
  }
  let xref = `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let i = 1; i < objects.length; i++) xref += `${String(offsets[i]).padStart(10, "0")} 00000 n \n`;
  parts.push(enc.encode(`${xref}trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return concat(parts);
}

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
const page = (contents, font = 3) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`;

/** A one-page PDF whose page is the given (already compressed, FlateDecode) content stream. */
function onePagePdf(compressedContent) {
  return buildPdf([null, "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [4 0 R] /Count 1 >>", FONT, page(5), { dict: "/Filter /FlateDecode", data: compressedContent }]);
}

/** The text-showing line the bombs repeat (55 bytes). */
export const BOMB_LINE = "BT /F1 12 Tf 72 720 Td (slavery slavery slavery) Tj ET\n";

/**
 * A valid one-page PDF whose one content stream (FlateDecode) inflates to `inflatedBytes` of text operators
 * (BOMB_LINE repeated). 512 MiB makes a file of about 1.5 MB. With `asContents: false` the big stream is an object
 * no page uses, and the page shows one ordinary sentence (what a reader that measures every stream must still
 * refuse, or read when it is under the budget).
 *
 * @param {number} inflatedBytes
 * @param {{ asContents?: boolean }} [opts]
 * @returns {Uint8Array}
 */
export function flateBombPdf(inflatedBytes, opts = {}) {
  const bomb = compressRepeated(Zlib, BOMB_LINE, inflatedBytes, {});
  if (opts.asContents !== false) return onePagePdf(bomb);
  const text = "BT /F1 12 Tf 72 720 Td (Modern slavery statement. We assess our supply chain for risks of forced labour.) Tj ET";
  return buildPdf([
    null,
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    FONT,
    page(5),
    { dict: "/Filter /FlateDecode", data: zlibSync(enc.encode(text)) },
    { dict: "/Filter /FlateDecode", data: bomb },
  ]);
}

/**
 * A PDF of `pages` pages, each with one short sentence of text (uncompressed content streams, as the probe's
 * fixture): 20,000 pages is about 5 MB.
 *
 * @param {number} pages
 * @param {{ text?: string }} [opts]
 * @returns {Uint8Array}
 */
export function manyPagesPdf(pages, opts = {}) {
  const text = opts.text ?? "Modern slavery statement";
  const objects = [null, "<< /Type /Catalog /Pages 2 0 R >>", "", FONT];
  const kids = [];
  for (let i = 0; i < pages; i++) {
    const c = objects.length;
    const s = `BT /F1 12 Tf 72 720 Td (${text} page ${i + 1}. The organisation takes modern slavery seriously.) Tj ET`;
    objects.push({ dict: "", data: enc.encode(s) });
    objects.push(page(c));
    kids.push(`${c + 1} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  return buildPdf(objects);
}

/**
 * One page with `textItems` text-showing operators (each on its own line, so its own text item), compressed: the
 * page is small on the wire and its text is not. 1,000,000 items is about 33 MB of operators in a file of about 0.1 MB.
 *
 * @param {number} textItems
 * @returns {Uint8Array}
 */
export function hugePagePdf(textItems) {
  // Each item is placed on its own line of the page (a text matrix per item, cycling down the page, so PDF.js keeps
  // every one: it drops text placed off the page); one BT … ET around them all.
  const lines = [];
  for (let y = 760; y > 40; y -= 14) lines.push(`1 0 0 1 72 ${y} Tm (slavery) Tj\n`);
  const head = enc.encode("BT /F1 12 Tf\n");
  const tail = enc.encode("ET\n");
  const parts = [];
  const z = new Zlib({ level: 9, mem: 8 }, (d) => parts.push(d));
  z.push(head, false);
  const unit = enc.encode(lines.join(""));
  const per = Math.floor(CHUNK / unit.length);
  const block = new Uint8Array(per * unit.length);
  for (let i = 0; i < per; i++) block.set(unit, i * unit.length);
  let left = Math.floor(textItems / lines.length);
  while (left > 0) {
    const n = Math.min(per, left);
    z.push(block.subarray(0, n * unit.length), false);
    left -= n;
  }
  const rest = textItems % lines.length;
  if (rest) z.push(enc.encode(lines.slice(0, rest).join("")), false);
  z.push(tail, true);
  return onePagePdf(concat(parts));
}

/**
 * A PDF with `pages` ordinary pages of real sentences (compressed content streams): the control case a reader must
 * still read whole.
 *
 * @param {number} pages
 * @returns {Uint8Array}
 */
export function plainPdf(pages = 2) {
  const objects = [null, "<< /Type /Catalog /Pages 2 0 R >>", "", FONT];
  const kids = [];
  for (let i = 0; i < pages; i++) {
    const c = objects.length;
    const s =
      `BT /F1 12 Tf 72 720 Td (Modern slavery statement, page ${i + 1}.) Tj 0 -16 Td ` +
      "(We assess our supply chain for risks of forced labour and we train our staff every year.) Tj ET";
    objects.push({ dict: "/Filter /FlateDecode", data: zlibSync(enc.encode(s)) });
    objects.push(page(c));
    kids.push(`${c + 1} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  return buildPdf(objects);
}

/**
 * A zip holding one entry (`name`, default `bomb.csv`) that inflates to `inflatedBytes` (a CSV-looking line
 * repeated), written through fflate's streaming Zip. `entries` > 1 adds that many more small entries first.
 *
 * @param {number} inflatedBytes
 * @param {{ name?: string, entries?: number }} [opts]
 * @returns {Uint8Array}
 */
export function zipBomb(inflatedBytes, opts = {}) {
  const parts = [];
  let done = false;
  const zip = new Zip((err, data, final) => {
    if (err) throw err;
    parts.push(data);
    if (final) done = true;
  });
  for (let i = 0; i < (opts.entries ?? 0); i++) {
    const e = new ZipDeflate(`filler-${i}.txt`, { level: 1 });
    zip.add(e);
    e.push(enc.encode("x"), true);
  }
  const entry = new ZipDeflate(opts.name ?? "bomb.csv", { level: 9, mem: 8 });
  zip.add(entry);
  const unit = enc.encode("00000000,AAAAAAAA LIMITED,,,,,,,,,,,,\n");
  const block = new Uint8Array(Math.floor(CHUNK / unit.length) * unit.length);
  for (let i = 0; i < block.length; i += unit.length) block.set(unit, i);
  let left = inflatedBytes;
  while (left > block.length) {
    entry.push(block, false);
    left -= block.length;
  }
  entry.push(block.subarray(0, left), true);
  zip.end();
  if (!done) throw new Error("zip did not finish");
  return concat(parts);
}

/**
 * A gzip body that inflates to `inflatedBytes` of spaces (as the probe's 1 GiB bomb), for a server that sends it
 * with `Content-Encoding: gzip`.
 *
 * @param {number} inflatedBytes
 * @returns {Uint8Array}
 */
export function gzipBomb(inflatedBytes) {
  return compressRepeated(Gzip, " ", inflatedBytes, {});
}
