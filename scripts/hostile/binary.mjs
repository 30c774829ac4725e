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
 * `endobj`, or a `{ dict, data }` stream whose `/Length` is set here. Classic xref table and trailer (`trailerExtra`
 * is added to the trailer dictionary: /Encrypt and /ID).
 */
function buildPdf(objects, trailerExtra = "") {
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
  parts.push(enc.encode(`${xref}trailer\n<< /Size ${objects.length} /Root 1 0 R${trailerExtra} >>\nstartxref\n${offset}\n%%EOF\n`));
  return concat(parts);
}

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
const page = (contents, font = 3) =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`;

/** A one-page PDF whose page is the given (already compressed, FlateDecode) content stream. */
function onePagePdf(compressedContent) {
  return buildPdf([
    null,
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    FONT,
    page(5),
    { dict: "/Filter /FlateDecode", data: compressedContent },
  ]);
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

// ---------------------------------------------------------------------------------------------------------------
// Encrypted PDFs (Standard security handler, empty user password, an owner password), written from ISO 32000-1 7.6.3
// and ISO 32000-2 7.6.4 (Algorithms 1–5, 2.A, 2.B, 8–10). Web Crypto does AES and SHA-2 (node and workerd alike);
// MD5 (which node's Web Crypto does not do) and RC4 are written here, apart from the reader's own code.

/** MD5 (RFC 1321). */
export function md5(data) {
  const K = new Uint32Array(64);
  for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0;
  const S = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
  const n = data.length;
  const padded = new Uint8Array(((n + 8) >> 6) * 64 + 64);
  padded.set(data);
  padded[n] = 0x80;
  const dv = new DataView(padded.buffer);
  dv.setUint32(padded.length - 8, (n * 8) >>> 0, true);
  dv.setUint32(padded.length - 4, Math.floor((n * 8) / 2 ** 32), true);
  let a0 = 0x67452301,
    b0 = 0xefcdab89,
    c0 = 0x98badcfe,
    d0 = 0x10325476;
  for (let off = 0; off < padded.length; off += 64) {
    let a = a0,
      b = b0,
      c = c0,
      d = d0;
    for (let i = 0; i < 64; i++) {
      let f, g;
      if (i < 16) (f = (b & c) | (~b & d)), (g = i);
      else if (i < 32) (f = (d & b) | (~d & c)), (g = (5 * i + 1) % 16);
      else if (i < 48) (f = b ^ c ^ d), (g = (3 * i + 5) % 16);
      else (f = c ^ (b | ~d)), (g = (7 * i) % 16);
      const x = (a + f + K[i] + dv.getUint32(off + g * 4, true)) >>> 0;
      a = d;
      d = c;
      c = b;
      const r = S[(i >> 4) * 4 + (i % 4)];
      b = (b + ((x << r) | (x >>> (32 - r)))) >>> 0;
    }
    a0 = (a0 + a) >>> 0;
    b0 = (b0 + b) >>> 0;
    c0 = (c0 + c) >>> 0;
    d0 = (d0 + d) >>> 0;
  }
  const out = new Uint8Array(16);
  const ov = new DataView(out.buffer);
  [a0, b0, c0, d0].forEach((w, i) => ov.setUint32(i * 4, w, true));
  return out;
}

function rc4(key, data) {
  const s = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    [s[i], s[j]] = [s[j], s[i]];
    out[k] = data[k] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}

const PASSWORD_PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c,
  0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
const padPassword = (pw) => concat([pw.subarray(0, 32), PASSWORD_PAD.subarray(0, 32 - Math.min(32, pw.length))]);
const le = (v, bytes) => Uint8Array.from({ length: bytes }, (_, i) => (v >>> (8 * i)) & 255);
const hex = (b) => `<${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}>`;
/** Bytes that look random and are the same every run (AES IVs, salts, the V5 file key). */
function fixedBytes(seed, n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 16) out.set(md5(enc.encode(`${seed}:${i}`)).subarray(0, Math.min(16, n - i)), i);
  return out;
}

async function aesCbc(key, iv, data, pad) {
  const k = await crypto.subtle.importKey("raw", key, "AES-CBC", false, ["encrypt"]);
  const e = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, k, data));
  return pad ? e : e.subarray(0, data.length); // Web Crypto always pads; for whole blocks the pad is the last block
}
const sha = async (alg, data) => new Uint8Array(await crypto.subtle.digest(alg, data));

/** Algorithm 2.B (ISO 32000-2): R6's hash of a password with a salt (and, for the owner, /U's 48 bytes). */
async function hash2B(pw, salt, udata) {
  let k = await sha("SHA-256", concat([pw, salt, udata]));
  let e = new Uint8Array(0);
  for (let round = 0; round < 64 || e[e.length - 1] > round - 32; round++) {
    const once = concat([pw, k, udata]);
    e = await aesCbc(k.subarray(0, 16), k.subarray(16, 32), concat(Array.from({ length: 64 }, () => once)), false);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    k = await sha(["SHA-256", "SHA-384", "SHA-512"][sum % 3], e);
  }
  return k.subarray(0, 32);
}

const METHODS = {
  "rc4-40": { v: 1, r: 2, bits: 40, cipher: "rc4" },
  "rc4-128": { v: 2, r: 3, bits: 128, cipher: "rc4" },
  "aes-128": { v: 4, r: 4, bits: 128, cipher: "aes128" },
  "aes-256": { v: 5, r: 6, bits: 256, cipher: "aes256" },
};

/**
 * The /Encrypt dictionary and file key for `method`, with the user password `user` (empty: opens without asking)
 * and the owner password `owner`; `id` is the first /ID string. P = -3904: printing, copying and changing refused.
 */
async function standardSecurity(method, user, owner, id) {
  const m = METHODS[method];
  const P = -3904;
  if (m.v === 5) {
    const key = fixedBytes(`file key ${method}`, 32);
    const [uvs, uks, ovs, oks] = [1, 2, 3, 4].map((i) => fixedBytes(`salt ${i}`, 8));
    const U = concat([await hash2B(user, uvs, new Uint8Array(0)), uvs, uks]);
    const UE = await aesCbc(await hash2B(user, uks, new Uint8Array(0)), new Uint8Array(16), key, false);
    const O = concat([await hash2B(owner, ovs, U), ovs, oks]);
    const OE = await aesCbc(await hash2B(owner, oks, U), new Uint8Array(16), key, false);
    const perms = concat([le(P, 4), Uint8Array.from([255, 255, 255, 255]), enc.encode("Tadb"), fixedBytes("perms", 4)]);
    const Perms = await aesCbc(key, new Uint8Array(16), perms, false); // one block: ECB
    const dict =
      `<< /Filter /Standard /V 5 /R 6 /Length 256 /P ${P} /O ${hex(O)} /U ${hex(U)} /OE ${hex(OE)} /UE ${hex(UE)} /Perms ${hex(Perms)} ` +
      "/CF << /StdCF << /CFM /AESV3 /AuthEvent /DocOpen /Length 32 >> >> /StmF /StdCF /StrF /StdCF >>";
    return { dict, key, m };
  }
  const n = m.bits / 8;
  // Algorithm 3: /O from the owner password.
  let h = md5(padPassword(owner));
  if (m.r >= 3) for (let i = 0; i < 50; i++) h = md5(h);
  const ownerKey = h.subarray(0, n);
  let O = rc4(ownerKey, padPassword(user));
  if (m.r >= 3)
    for (let i = 1; i <= 19; i++)
      O = rc4(
        ownerKey.map((b) => b ^ i),
        O,
      );
  // Algorithm 2: the file key.
  let key = md5(concat([padPassword(user), O, le(P, 4), id]));
  if (m.r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
  key = key.slice(0, n);
  // Algorithms 4 and 5: /U.
  let U;
  if (m.r === 2) U = rc4(key, PASSWORD_PAD);
  else {
    let x = rc4(key, md5(concat([PASSWORD_PAD, id])));
    for (let i = 1; i <= 19; i++)
      x = rc4(
        key.map((b) => b ^ i),
        x,
      );
    U = concat([x, new Uint8Array(16)]);
  }
  const cf = m.v === 4 ? " /CF << /StdCF << /CFM /AESV2 /AuthEvent /DocOpen /Length 16 >> >> /StmF /StdCF /StrF /StdCF" : "";
  const dict = `<< /Filter /Standard /V ${m.v} /R ${m.r} /Length ${m.bits} /P ${P} /O ${hex(O)} /U ${hex(U)}${cf} >>`;
  return { dict, key, m };
}

/** A stream's data encrypted for object `num` (generation 0): Algorithm 1's key for R2–R4, the file key for V5. */
async function encryptStream(sec, num, data) {
  const { m, key } = sec;
  if (m.cipher === "aes256") return concat([fixedBytes(`iv ${num}`, 16), await aesCbc(key, fixedBytes(`iv ${num}`, 16), data, true)]);
  const salt = m.cipher === "aes128" ? enc.encode("sAlT") : new Uint8Array(0);
  const objKey = md5(concat([key, le(num, 3), le(0, 2), salt])).subarray(0, Math.min(key.length + 5, 16));
  if (m.cipher === "rc4") return rc4(objKey, data);
  const iv = fixedBytes(`iv ${num}`, 16);
  return concat([iv, await aesCbc(objKey, iv, data, true)]);
}

/**
 * A page's content stream showing `text` in lines cut at spaces, all on the page (PDF.js drops text placed off it):
 * 12-point lines of 90 characters, or for a long text 2-point lines of 450 (about 60 KB a page at most). Letters,
 * digits, spaces and punctuation but parentheses and backslashes, which would need escaping.
 */
function textPage(text) {
  const small = text.length > 3000;
  const [size, width, lead] = small ? [2, 450, 2.5] : [12, 90, 15];
  const lines = [];
  let line = "";
  for (const w of text.split(" ")) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return `BT /F1 ${size} Tf ${lead} TL 36 760 Td\n${lines.map((l) => `(${l}) Tj T*`).join("\n")}\nET`;
}

/**
 * A PDF of `pages` pages of ordinary sentences (FlateDecode content streams), encrypted by `method` with an empty
 * user password and the owner password "owner" (as corporate PDFs restricting printing and copying are), or with
 * `userPassword` when given (a PDF that cannot be opened without it). "none" gives the same document unencrypted,
 * to compare with. With `bombBytes`, page 1 shows a second content stream inflating to that many bytes of text
 * operators (BOMB_LINE repeated). Async: AES and SHA-2 come from Web Crypto.
 *
 * @param {{ method: "rc4-40" | "rc4-128" | "aes-128" | "aes-256" | "none", pages?: number, text?: string, bombBytes?: number, userPassword?: string }} opts
 * @returns {Promise<Uint8Array>}
 */
export async function encryptedPdf(opts) {
  const pages = opts.pages ?? 2;
  const text = opts.text ?? "Modern slavery statement. We assess our supply chain for risks of forced labour";
  const objects = [null, "<< /Type /Catalog /Pages 2 0 R >>", "", FONT];
  const kids = [];
  const bomb = opts.bombBytes ? objects.push(null) - 1 : 0; // filled below
  for (let i = 0; i < pages; i++) {
    const c = objects.length;
    objects.push({ dict: "/Filter /FlateDecode", data: zlibSync(enc.encode(textPage(`${text}, page ${i + 1}. We train our staff every year.`))) });
    const contents = i === 0 && bomb ? `[${c} 0 R ${bomb} 0 R]` : `${c} 0 R`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} >>`);
    kids.push(`${c + 1} 0 R`);
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.join(" ")}] /Count ${pages} >>`;
  if (bomb) objects[bomb] = { dict: "/Filter /FlateDecode", data: compressRepeated(Zlib, BOMB_LINE, opts.bombBytes, {}) };
  if (opts.method === "none") return buildPdf(objects);
  const id = fixedBytes(`id ${opts.method} ${pages} ${text}`, 16);
  const sec = await standardSecurity(opts.method, enc.encode(opts.userPassword ?? ""), enc.encode("owner"), id);
  for (let i = 1; i < objects.length; i++) {
    const o = objects[i];
    if (typeof o !== "string") objects[i] = { dict: o.dict, data: await encryptStream(sec, i, o.data) };
  }
  const encNum = objects.push(sec.dict) - 1;
  return buildPdf(objects, ` /Encrypt ${encNum} 0 R /ID [${hex(id)} ${hex(id)}]`);
}
