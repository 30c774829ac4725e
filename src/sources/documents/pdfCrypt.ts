/**
 * Decryption of a PDF's streams for the measuring pass in pdf.ts (issue 29 §1), so that an encrypted PDF's streams
 * are measured by what they inflate to, as an unencrypted file's are, instead of by their raw size times the largest
 * ratio (which refused most encrypted PDFs over a few KB a stream).
 *
 * Only what PDF.js itself opens without being given a password: the Standard security handler with the empty user
 * password (the usual corporate PDF, encrypted with an owner password only to restrict printing or copying).
 * - V1/V2 (R2, R3): RC4 with a 40- to 128-bit file key;
 * - V4 (R4): crypt filters, RC4 (/V2) or AES-128-CBC (/AESV2), or /Identity and /None (streams not encrypted);
 * - V5 (R5, R6): AES-256-CBC (/AESV3), with R6's hardened hash (Algorithm 2.B of ISO 32000-2).
 * R2–R4 use a key per object (MD5 of the file key, the object's number and generation, and "sAlT" for AES); V5 uses
 * the file key for every object. The key length, the padding of short V4 keys and when /EncryptMetadata counts follow
 * PDF.js (pdf.js src/core/crypto.js), since what matters is that the measure sees the bytes PDF.js will inflate.
 *
 * Pure: the file's bytes in, keys and decrypted bytes out. Web Crypto does MD5 (Workers support it), SHA-2 and AES;
 * RC4 is written here. Anything else (the public-key handler /Adobe.PubSec, an unknown handler or version, a
 * dictionary this cannot read) is "unsupported", and pdf.ts then bounds the file's streams by their raw size times the
 * largest ratio, as before.
 */

const latin1 = new TextDecoder("latin1");

/** The 32 bytes a password is padded with (Algorithm 2, step a). */
const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c,
  0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

type Cipher = "none" | "rc4" | "aes128" | "aes256";

/** How a file's streams are encrypted, as far as the measuring pass needs to know. */
export type PdfEncryption =
  /** No /Encrypt dictionary. */
  | { state: "none" }
  /** Standard handler that the empty user password does not open: PDF.js refuses it too. */
  | { state: "password" }
  /** Encrypted in a way this module does not decrypt; `why` says which. */
  | { state: "unsupported"; why: string }
  | {
      state: "open";
      /** How streams are encrypted (the stream crypt filter's method; "none" for /Identity or /None). */
      cipher: Cipher;
      /** False when /EncryptMetadata is false (V4/V5): PDF.js reads the document's metadata stream as it stands. */
      encryptMetadata: boolean;
      /** The file key (R2–R4: before the per-object step). */
      key: Uint8Array;
    };

// ---------------------------------------------------------------------------------------------------------------
// Primitives.

const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const digest = async (alg: "MD5" | "SHA-256" | "SHA-384" | "SHA-512", data: Uint8Array): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest(alg, data));

/** RC4 (the key-scheduling and output loops of the cipher; encrypting and decrypting are the same). */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % key.length]) & 0xff;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]) & 0xff;
    const t = s[i];
    s[i] = s[j];
    s[j] = t;
    out[n] = data[n] ^ s[(s[i] + s[j]) & 0xff];
  }
  return out;
}

const aesKey = (key: Uint8Array, use: "encrypt" | "decrypt") => crypto.subtle.importKey("raw", key, "AES-CBC", false, [use]);

/**
 * AES-CBC decryption of whole blocks without a padding check (Web Crypto insists on valid PKCS#7 padding, PDF.js does
 * not): one block is added that decrypts to a full block of padding, so Web Crypto gives back every block given, their
 * own padding included. `data` is cut to whole blocks, as PDF.js ignores a last partial block.
 */
export async function aesCbcDecryptRaw(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const whole = data.subarray(0, data.length - (data.length % 16));
  if (whole.length === 0) return new Uint8Array(0);
  const last = whole.subarray(whole.length - 16);
  // Encrypting nothing with the last block as IV gives E(last XOR 16×0x10): the block that decrypts to a full pad.
  const extra = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: last }, await aesKey(key, "encrypt"), new Uint8Array(0)));
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-CBC", iv }, await aesKey(key, "decrypt"), concat(whole, extra)));
}

/** AES-CBC encryption of whole blocks, no padding added (Algorithm 2.B's step). */
async function aesCbcEncryptRaw(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const e = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv }, await aesKey(key, "encrypt"), data));
  return e.subarray(0, data.length);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the /Encrypt dictionary and the trailer's /ID.

type PdfValue = number | boolean | null | string | { name: string } | { ref: [number, number] } | PdfValue[] | PdfDict;
interface PdfDict {
  dict: Map<string, PdfValue>;
}

/** A small reader of one PDF object in text (latin1): enough for the /Encrypt dictionary and the /ID array. */
class ObjectReader {
  constructor(
    private s: string,
    public at: number,
  ) {}
  private skip() {
    for (;;) {
      const c = this.s[this.at];
      if (c === "%") {
        while (this.at < this.s.length && this.s[this.at] !== "\n" && this.s[this.at] !== "\r") this.at++;
      } else if (c !== undefined && " \t\r\n\f\0".includes(c)) this.at++;
      else return;
    }
  }
  value(depth = 0): PdfValue {
    if (depth > 8) throw new Error("too deep");
    this.skip();
    const s = this.s;
    const c = s[this.at];
    if (c === undefined) throw new Error("end of file");
    if (s.startsWith("<<", this.at)) {
      this.at += 2;
      const dict = new Map<string, PdfValue>();
      for (;;) {
        this.skip();
        if (s.startsWith(">>", this.at)) {
          this.at += 2;
          return { dict };
        }
        const key = this.value(depth + 1);
        if (!(key && typeof key === "object" && "name" in key)) throw new Error("dictionary key is not a name");
        dict.set(key.name, this.value(depth + 1));
      }
    }
    if (c === "[") {
      this.at++;
      const arr: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (s[this.at] === "]") {
          this.at++;
          return arr;
        }
        arr.push(this.value(depth + 1));
      }
    }
    if (c === "(") return this.literal();
    if (c === "<") {
      const end = s.indexOf(">", this.at);
      if (end < 0) throw new Error("unterminated hex string");
      const hex = s.slice(this.at + 1, end).replace(/[^0-9a-fA-F]/g, "");
      this.at = end + 1;
      let out = "";
      for (let i = 0; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex[i] + (hex[i + 1] ?? "0"), 16));
      return out;
    }
    if (c === "/") {
      const m = /^\/[^\s/<>[\]()%{}]*/.exec(s.slice(this.at, this.at + 256));
      this.at += m![0].length;
      return { name: m![0].slice(1).replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) };
    }
    const num = /^[+-]?(\d+\.?\d*|\.\d+)/.exec(s.slice(this.at, this.at + 64));
    if (num) {
      this.at += num[0].length;
      const ref = /^\s+(\d+)\s+R(?![^\s/<>[\]()%{}])/.exec(s.slice(this.at, this.at + 64));
      if (ref && /^\d+$/.test(num[0])) {
        this.at += ref[0].length;
        return { ref: [Number(num[0]), Number(ref[1])] };
      }
      return Number(num[0]);
    }
    const word = /^[^\s/<>[\]()%{}]+/.exec(s.slice(this.at, this.at + 64));
    if (!word) throw new Error(`unexpected ${JSON.stringify(c)}`);
    this.at += word[0].length;
    if (word[0] === "true") return true;
    if (word[0] === "false") return false;
    if (word[0] === "null") return null;
    throw new Error(`unexpected ${word[0]}`);
  }
  /** A literal string, escapes undone (ISO 32000 7.3.4.2). */
  private literal(): string {
    const s = this.s;
    let depth = 0;
    let out = "";
    for (this.at++; this.at < s.length; this.at++) {
      const c = s[this.at];
      if (c === "\\") {
        const n = s[++this.at];
        const esc: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", "(": "(", ")": ")", "\\": "\\" };
        if (n in esc) out += esc[n];
        else if (n >= "0" && n <= "7") {
          let oct = n;
          while (oct.length < 3 && s[this.at + 1] >= "0" && s[this.at + 1] <= "7") oct += s[++this.at];
          out += String.fromCharCode(parseInt(oct, 8) & 0xff);
        } else if (n === "\r") {
          if (s[this.at + 1] === "\n") this.at++;
        } else if (n !== "\n" && n !== undefined) out += n;
      } else if (c === "(") {
        depth++;
        out += c;
      } else if (c === ")") {
        if (depth === 0) {
          this.at++;
          return out;
        }
        depth--;
        out += c;
      } else out += c;
    }
    throw new Error("unterminated string");
  }
}

const bytesOf = (v: PdfValue | undefined): Uint8Array | null => (typeof v === "string" ? Uint8Array.from(v, (c) => c.charCodeAt(0)) : null);
const nameOf = (v: PdfValue | undefined): string | null => (v && typeof v === "object" && "name" in v ? v.name : null);
const dictOf = (v: PdfValue | undefined): Map<string, PdfValue> | null => (v && typeof v === "object" && "dict" in v ? v.dict : null);

/** The last match of `re` (global) in `s`. */
function lastMatch(re: RegExp, s: string): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(s); m; m = re.exec(s)) last = m;
  return last;
}

/**
 * The /Encrypt dictionary and the first /ID string, from the file's last trailer (or cross-reference stream
 * dictionary) that names them: the newest revision, which is the one PDF.js reads. The dictionary is direct or in an
 * object of the file (never in an object stream, ISO 32000-1 7.5.7).
 */
function findEncryption(text: string): { dict: Map<string, PdfValue>; id: Uint8Array } | { why: string } {
  const named = lastMatch(/\/Encrypt(?![^\s/<>[\]()%{}])/g, text);
  if (!named) return { why: "no /Encrypt dictionary found" };
  let value: PdfValue;
  try {
    value = new ObjectReader(text, named.index + named[0].length).value();
  } catch {
    return { why: "its /Encrypt entry cannot be read" };
  }
  if (value && typeof value === "object" && "ref" in value) {
    const [num, gen] = value.ref;
    const obj = lastMatch(new RegExp(`(?<![0-9])${num}\\s+${gen}\\s+obj`, "g"), text);
    if (!obj) return { why: `its /Encrypt object ${num} ${gen} is not in the file's top level` };
    try {
      value = new ObjectReader(text, obj.index + obj[0].length).value();
    } catch {
      return { why: "its /Encrypt dictionary cannot be read" };
    }
  }
  const dict = dictOf(value);
  if (!dict) return { why: "its /Encrypt entry is not a dictionary" };
  let id: Uint8Array = new Uint8Array(0);
  const idAt = lastMatch(/\/ID(?![^\s/<>[\]()%{}])/g, text);
  if (idAt) {
    try {
      const arr = new ObjectReader(text, idAt.index + idAt[0].length).value();
      if (Array.isArray(arr)) id = bytesOf(arr[0]) ?? id;
    } catch {
      // no /ID: PDF.js uses an empty one too
    }
  }
  return { dict, id };
}

// ---------------------------------------------------------------------------------------------------------------
// Keys.

/** Algorithm 2 (R2–R4): the file key from the padded (empty) password, /O, /P, the first /ID and /EncryptMetadata. */
async function fileKeyR2to4(o: Uint8Array, p: number, id: Uint8Array, r: number, bytes: number, encryptMetadata: boolean): Promise<Uint8Array> {
  const pBytes = Uint8Array.from([p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff]);
  let h = await digest(
    "MD5",
    concat(PAD, o.subarray(0, 32), pBytes, id, r >= 4 && !encryptMetadata ? Uint8Array.from([255, 255, 255, 255]) : new Uint8Array(0)),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) h = await digest("MD5", h.subarray(0, bytes));
  return h.slice(0, bytes);
}

/** Algorithms 4 and 5: whether `key` (from the empty password) makes /U, i.e. the empty user password opens the file. */
async function userKeyMatches(key: Uint8Array, u: Uint8Array, id: Uint8Array, r: number): Promise<boolean> {
  if (r === 2) {
    const x = rc4(key, PAD);
    return x.every((b, i) => u[i] === b);
  }
  let x = rc4(key, await digest("MD5", concat(PAD, id)));
  for (let i = 1; i <= 19; i++)
    x = rc4(
      key.map((b) => b ^ i),
      x,
    );
  return x.every((b, i) => u[i] === b);
}

/** Algorithm 2.B (R6): the hardened hash of a password with a salt (and /U's 48 bytes, for the owner; empty here). */
export async function hashR6(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Promise<Uint8Array> {
  let k = await digest("SHA-256", concat(password, salt, udata));
  let e: Uint8Array = new Uint8Array(0);
  for (let round = 0; round < 64 || e[e.length - 1] > round - 32; round++) {
    const once = concat(password, k, udata);
    const k1 = new Uint8Array(once.length * 64);
    for (let i = 0; i < 64; i++) k1.set(once, i * once.length);
    e = await aesCbcEncryptRaw(k.subarray(0, 16), k.subarray(16, 32), k1);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    k = await digest(sum % 3 === 0 ? "SHA-256" : sum % 3 === 1 ? "SHA-384" : "SHA-512", e);
    if (round > 2000) throw new Error("R6 hash does not end");
  }
  return k.subarray(0, 32);
}

/** V5: the file key from the empty user password (R5: SHA-256; R6: Algorithm 2.B), or null when it does not open. */
async function fileKeyV5(r: number, u: Uint8Array, ue: Uint8Array): Promise<Uint8Array | null> {
  const none = new Uint8Array(0);
  const hash = (salt: Uint8Array) => (r === 6 ? hashR6(none, salt, none) : digest("SHA-256", salt));
  const check = await hash(u.subarray(32, 40));
  if (!check.every((b, i) => u[i] === b)) return null;
  const intermediate = await hash(u.subarray(40, 48));
  return aesCbcDecryptRaw(intermediate.subarray(0, 32), new Uint8Array(16), ue.subarray(0, 32));
}

/**
 * The file's encryption as PDF.js would set it up with no password (pdf.js CipherTransformFactory): "open" with the
 * file key when the empty user password opens it, "password" when it does not, "unsupported" for what is not read here.
 */
export async function openEncryption(file: Uint8Array): Promise<PdfEncryption> {
  const text = latin1.decode(file);
  if (!/\/Encrypt(?![^\s/<>[\]()%{}])/.test(text)) return { state: "none" };
  const found = findEncryption(text);
  if ("why" in found) return { state: "unsupported", why: found.why };
  const { dict, id } = found;
  const filter = nameOf(dict.get("Filter"));
  if (filter !== "Standard") return { state: "unsupported", why: `security handler ${filter ?? "unnamed"}` };
  const v = dict.get("V");
  const r = dict.get("R");
  if (typeof v !== "number" || ![1, 2, 4, 5].includes(v)) return { state: "unsupported", why: `encryption version ${String(v)}` };
  if (typeof r !== "number" || r < 2 || r > 6) return { state: "unsupported", why: `revision ${String(r)}` };
  const o = bytesOf(dict.get("O"));
  const u = bytesOf(dict.get("U"));
  const p = dict.get("P");
  if (!o || !u || o.length < 32 || u.length < 32 || typeof p !== "number") return { state: "unsupported", why: "its /O, /U or /P cannot be read" };
  const encryptMetadata = (v === 4 || v === 5) && dict.get("EncryptMetadata") !== false;

  // The stream crypt filter (V4, V5): /Identity (or a filter with no /CFM or /CFM /None) leaves streams as they are.
  let cipher: Cipher = "rc4";
  let length = dict.get("Length");
  if (v >= 4) {
    const stmf = nameOf(dict.get("StmF")) ?? "Identity";
    const cf = dictOf(dictOf(dict.get("CF"))?.get(stmf));
    const cfm = nameOf(cf?.get("CFM"));
    cipher = !cfm || cfm === "None" ? "none" : cfm === "V2" ? "rc4" : cfm === "AESV2" ? "aes128" : cfm === "AESV3" ? "aes256" : (("?" + cfm) as Cipher);
    if (cipher.startsWith("?")) return { state: "unsupported", why: `crypt method ${cfm}` };
    if (length === undefined) {
      const l = cf?.get("Length");
      length = typeof l === "number" ? (l < 40 ? l * 8 : l) : 128;
    }
  }
  if (v === 5) {
    const ue = bytesOf(dict.get("UE"));
    if (u.length < 48 || !ue || ue.length < 32) return { state: "unsupported", why: "its /U or /UE cannot be read" };
    const key = await fileKeyV5(r, u, ue);
    return key ? { state: "open", cipher, encryptMetadata, key } : { state: "password" };
  }
  const bits = length === undefined ? 40 : length;
  if (typeof bits !== "number" || !Number.isInteger(bits) || bits < 40 || bits % 8 !== 0) return { state: "unsupported", why: `key length ${String(bits)}` };
  let key = await fileKeyR2to4(o, p, id, r, bits >> 3, encryptMetadata);
  if (!(await userKeyMatches(key, u, id, r))) return { state: "password" };
  if (v === 4 && key.length < 16) key = concat(key, new Uint8Array(16 - key.length)); // as PDF.js does
  return { state: "open", cipher, encryptMetadata, key };
}

/** Algorithm 1: the key of one object (R2–R4): MD5 of the file key, the object's number and generation [and "sAlT"]. */
async function objectKey(key: Uint8Array, num: number, gen: number, aes: boolean): Promise<Uint8Array> {
  const tail = Uint8Array.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
  const h = await digest("MD5", concat(key, tail, aes ? Uint8Array.from([0x73, 0x41, 0x6c, 0x54]) : new Uint8Array(0)));
  return h.subarray(0, Math.min(key.length + 5, 16));
}

/**
 * One stream's data decrypted, as PDF.js decrypts the stream of object `num gen` (the data from after `stream` to the
 * stream's end). AES data starts with its 16-byte IV; the padding of the last block is removed when it is well formed.
 */
export async function decryptStream(enc: Extract<PdfEncryption, { state: "open" }>, data: Uint8Array, num: number, gen: number): Promise<Uint8Array> {
  if (enc.cipher === "none") return data;
  if (enc.cipher === "rc4") return rc4(await objectKey(enc.key, num, gen, false), data);
  const key = enc.cipher === "aes256" ? enc.key : await objectKey(enc.key, num, gen, true);
  if (data.length < 32) return new Uint8Array(0);
  const plain = await aesCbcDecryptRaw(key, data.subarray(0, 16), data.subarray(16));
  const pad = plain[plain.length - 1];
  return pad >= 1 && pad <= 16 && plain.subarray(plain.length - pad).every((b) => b === pad) ? plain.subarray(0, plain.length - pad) : plain;
}
