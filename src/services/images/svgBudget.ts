/**
 * What an SVG would cost to draw, read from its markup before a renderer sees it (issue 32: an SVG logo is drawn as
 * pixels by src/sources/images/svg.ts). Pure: no parsing library, no I/O, and linear in the file's length: one
 * hand-written pass over its `<` tags (no regular expression that could backtrack), then one walk of the references
 * it found. A file is refused, with a sentence saying why, when it holds:
 * - more than SVG_LIMITS.maxBytes of text;
 * - more than SVG_LIMITS.maxElements elements;
 * - references that expand past SVG_LIMITS.maxExpandedElements: a `<use>` draws its target again, so ten levels of
 *   ten uses each are ten billion elements from a file of a hundred (a reference bomb). An element with an id counts
 *   the elements under it (itself included) and, for each reference inside it, its target's own expanded count,
 *   memoised (forward references resolved after the scan); a reference to an id that is not there adds nothing, and
 *   a cycle is refused. The document counts what it draws directly: the content of <defs>, <symbol> and the other
 *   containers drawn only when referenced counts only through its references. A reference is an `href="#x"` (or
 *   `xlink:href`) on any element (`<use>`, and a `<pattern>`, `<feImage>` or gradient that inherits from another) and
 *   a `url(#x)` in any attribute (a fill, clip-path, mask, filter or marker): counting them all over-counts a little,
 *   never under (but two gaps: a marker is drawn at each vertex of a path and counted once, and a `url(#x)` in a
 *   <style> sheet is not counted);
 * - embedded images (an `<image>` or `<feImage>` whose href is a `data:` URI) that are not a PNG, JPEG, GIF or WebP
 *   the image probe (./probe.ts) accepts, or that hold more than SVG_LIMITS.maxEmbeddedBytes decoded, or whose
 *   pixels, counted once for each time a reference draws them again, are more than SVG_LIMITS.maxEmbeddedPixels.
 *   An image that is not a data: URI is left alone: the renderer loads nothing from outside the file;
 * - entities (a DOCTYPE's `<!ENTITY>`) that hold markup or other references, or parameter entities: the elements an
 *   entity would add are not in the markup scanned. Entities of plain text (Illustrator declares its namespaces so)
 *   are allowed, and expanded in ids and references, but all their uses together may not add more than maxBytes.
 * Malformed markup (a tag, comment or section not closed) is refused here too; the renderer refuses the rest.
 */
import { fromBase64 } from "../../shared/bytes";
import { IMAGE_LIMITS, probeImage } from "./probe";

export const SVG_LIMITS = {
  /** The most text taken: a logo is rarely over 100 KiB. */
  maxBytes: 1024 * 1024,
  /** Elements in the markup. */
  maxElements: 20_000,
  /** Elements with every reference expanded: what the renderer would draw. */
  maxExpandedElements: 100_000,
  /** Bytes of all embedded (data: URI) images, decoded from their base64. */
  maxEmbeddedBytes: 5 * 1024 * 1024,
  /** Pixels of the embedded images, each counted as often as references draw it: one of the largest raster logos. */
  maxEmbeddedPixels: IMAGE_LIMITS.maxPixels,
} as const;

export type SvgBudget = { ok: true; elements: number } | { ok: false; message: string };

const refuse = (message: string): SvgBudget => ({ ok: false, message });
const n = (x: number) => x.toLocaleString("en-GB");
const NOT_DRAWN = "it was not drawn.";

/** The text's length in UTF-8 bytes. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Where a name ends: white space, `/`, `>`, `=`, a quote, or the end. */
function nameEnd(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e || c === 0x3d || c === 0x22 || c === 0x27) break;
    i++;
  }
  return i;
}
const skipSpace = (text: string, i: number) => {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
};
const localName = (name: string) => name.slice(name.lastIndexOf(":") + 1).toLowerCase();

const PREDEFINED = new Map([
  ["lt", "<"],
  ["gt", ">"],
  ["amp", "&"],
  ["quot", '"'],
  ["apos", "'"],
]);

/**
 * The `;` that ends the reference starting with the `&` at `amp`, or -1. A reference's name is short: looking in the
 * next 64 characters only keeps every scan for references linear.
 */
function referenceEnd(text: string, amp: number): number {
  for (let j = amp + 1; j < Math.min(text.length, amp + 66); j++) if (text.charCodeAt(j) === 0x3b) return j;
  return -1;
}

/** An attribute's value with its character and entity references replaced (an unknown one is left as it is). */
function dereference(value: string, entities: Map<string, string>): string {
  if (!value.includes("&")) return value;
  let out = "";
  let from = 0;
  for (let amp = value.indexOf("&"); amp >= 0; amp = value.indexOf("&", amp + 1)) {
    const semi = referenceEnd(value, amp);
    if (semi < 0) continue;
    const name = value.slice(amp + 1, semi);
    let replaced: string | undefined;
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      if (Number.isFinite(code) && code >= 0 && code <= 0x10ffff) replaced = String.fromCodePoint(code);
    } else replaced = PREDEFINED.get(name) ?? entities.get(name);
    if (replaced === undefined) continue;
    out += value.slice(from, amp) + replaced;
    from = semi + 1;
    amp = semi;
  }
  return out + value.slice(from);
}

/** Base64 to bytes, white space skipped; null when it holds anything else (or padding before its end). */
const base64Bytes = (s: string): Uint8Array | null => fromBase64(s.replace(/[\t\n\r ]+/g, ""));

/** A URL's percent-encoded data to bytes (other characters as UTF-8). */
function percentBytes(s: string): Uint8Array {
  const hex = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1);
  const out: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 && i + 2 < s.length && hex(s.charCodeAt(i + 1)) >= 0 && hex(s.charCodeAt(i + 2)) >= 0) {
      out.push(hex(s.charCodeAt(i + 1)) * 16 + hex(s.charCodeAt(i + 2)));
      i += 2;
    } else if (c < 0x80) out.push(c);
    else {
      const end = c >= 0xd800 && c <= 0xdbff ? i + 2 : i + 1;
      for (const b of utf8.encode(s.slice(i, end))) out.push(b);
      i = end - 1;
    }
  }
  return Uint8Array.from(out);
}

/** Containers whose content is drawn only when something references it (or them). */
const HIDING = new Set(["defs", "symbol", "clippath", "mask", "pattern", "marker", "lineargradient", "radialgradient", "filter"]);

const DRAWN_INSIDE = new Set(["png", "jpeg", "gif", "webp"]);

/** An embedded image's bytes and pixels, or why it is refused. */
function embedded(uri: string): { bytes: number; pixels: number } | { message: string } {
  const comma = uri.indexOf(",");
  if (comma < 0) return { message: `The SVG embeds an image whose data: URI has no data; ${NOT_DRAWN}` };
  const meta = uri.slice(5, comma).trim().toLowerCase();
  const data = uri.slice(comma + 1);
  const bytes = meta.endsWith(";base64") ? base64Bytes(data) : percentBytes(data);
  if (!bytes) return { message: `The SVG embeds an image whose base64 data is malformed; ${NOT_DRAWN}` };
  const probe = probeImage(bytes);
  if (!probe.ok) return { message: `The SVG embeds an image that was refused (${probe.message.replace(/\.$/, "")}); ${NOT_DRAWN}` };
  const { format, width, height } = probe.image;
  if (!DRAWN_INSIDE.has(format) || width === null || height === null)
    return { message: `The SVG embeds an image of format ${format}; only PNG, JPEG, GIF and WebP images are drawn inside an SVG, so ${NOT_DRAWN}` };
  return { bytes: bytes.length, pixels: width * height };
}

/** The position just after `close`, searched from `from`; -1 when it is not there. */
const after = (text: string, close: string, from: number) => {
  const at = text.indexOf(close, from);
  return at < 0 ? -1 : at + close.length;
};

/** Past a quoted string starting at `i` (its opening quote); -1 when it is not closed. */
const pastQuoted = (text: string, i: number) => after(text, text[i], i + 1);

const CUT_SHORT = `The SVG's markup is cut short or malformed (a tag, comment or declaration is not closed); ${NOT_DRAWN}`;

/**
 * The DOCTYPE at `start` (its `<!DOCTYPE`): where it ends, and its internal subset's general entities of plain text.
 * Refused: an entity whose text holds markup or a reference, a parameter entity.
 */
function doctype(text: string, start: number, entities: Map<string, string>): number | { message: string } {
  let i = start + 9;
  while (i < text.length) {
    const c = text[i];
    if (c === ">") return i + 1;
    if (c === '"' || c === "'") {
      i = pastQuoted(text, i);
      if (i < 0) return { message: CUT_SHORT };
      continue;
    }
    if (c !== "[") {
      i++;
      continue;
    }
    // The internal subset, up to its `]`.
    i++;
    for (;;) {
      i = skipSpace(text, i);
      if (i >= text.length) return { message: CUT_SHORT };
      if (text[i] === "]") {
        i++;
        break;
      }
      if (text[i] === "%") return { message: `The SVG's DOCTYPE uses parameter entities; ${NOT_DRAWN}` };
      if (text.startsWith("<!--", i)) i = after(text, "-->", i + 4);
      else if (text.startsWith("<?", i)) i = after(text, "?>", i + 2);
      else if (text.startsWith("<!", i)) {
        const isEntity = text.startsWith("<!ENTITY", i);
        let j = i + 2;
        let value: string | null = null;
        let name = "";
        let external = false;
        if (isEntity) {
          j = skipSpace(text, i + 8);
          if (text[j] === "%") return { message: `The SVG's DOCTYPE declares a parameter entity; ${NOT_DRAWN}` };
          const e = nameEnd(text, j);
          name = text.slice(j, e);
          j = skipSpace(text, e);
          // An external entity (SYSTEM or PUBLIC, its quoted strings an address) is not loaded: nothing to keep.
          external = text.startsWith("SYSTEM", j) || text.startsWith("PUBLIC", j);
        }
        // To the declaration's `>`, over its quoted strings.
        while (j < text.length && text[j] !== ">") {
          if (text[j] === '"' || text[j] === "'") {
            const end = pastQuoted(text, j);
            if (end < 0) return { message: CUT_SHORT };
            if (value === null) value = text.slice(j + 1, end - 1);
            j = end;
          } else j++;
        }
        if (j >= text.length) return { message: CUT_SHORT };
        if (isEntity && value !== null && !external) {
          if (/[<&%]/.test(value))
            return { message: `The SVG's DOCTYPE declares an entity ("${name.slice(0, 40)}") that holds markup or other references; ${NOT_DRAWN}` };
          if (!entities.has(name)) entities.set(name, value);
        }
        i = j + 1;
      } else return { message: CUT_SHORT };
      if (i < 0) return { message: CUT_SHORT };
    }
  }
  return { message: CUT_SHORT };
}

/** The most text the declared entities add, counted at each reference to one anywhere after the DOCTYPE. */
function entityGrowth(text: string, from: number, entities: Map<string, string>): number {
  let grown = 0;
  for (let amp = text.indexOf("&", from); amp >= 0; amp = text.indexOf("&", amp + 1)) {
    const semi = referenceEnd(text, amp);
    if (semi < 0) continue;
    const value = entities.get(text.slice(amp + 1, semi));
    if (value !== undefined) grown += value.length;
  }
  return grown;
}

/** The ids of `url(#id)` references in an attribute's value. */
function urlRefs(value: string, out: string[]): void {
  for (let at = value.indexOf("url(", 0); at >= 0; at = value.indexOf("url(", at + 4)) {
    let i = skipSpace(value, at + 4);
    if (value[i] === '"' || value[i] === "'") i++;
    if (value[i] !== "#") continue;
    let e = i + 1;
    while (e < value.length && value[e] !== ")" && value[e] !== '"' && value[e] !== "'" && !isSpace(value.charCodeAt(e))) e++;
    out.push(value.slice(i + 1, e));
  }
}

/**
 * The total weight of what the document draws, every reference expanded. An element's expanded weight is its subtree's
 * own (`prefix` sums the elements' weights in document order) plus, for each reference inside it, its target's
 * expanded weight (a target is an element index, -1 when missing: nothing added). The document's own total is
 * `rootWeight` (the elements drawn directly: those outside <defs> and the other containers drawn only when
 * referenced, `hidden`) plus its targets' for the references on those elements.
 *
 * Linear: each target is expanded once (memoised), iteratively (a chain of 10,000 references would overflow a
 * recursive walk's stack). The references inside an element are a run of `refAt` (ascending element indices), each
 * resolved once: a "next not yet resolved" pointer (union-find) skips those done, and a Fenwick tree sums a run. Totals
 * are capped just over `limit`, where the walk stops. "cycle" when a target's expansion needs itself.
 */
function expand(
  elements: number,
  end: Int32Array,
  prefix: Float64Array,
  rootWeight: number,
  refAt: number[],
  refTarget: Int32Array,
  hidden: Uint8Array,
  limit: number,
): number | "cycle" {
  const refs = refAt.length;
  const cap = limit + 1;
  const value = new Float64Array(refs);
  const known = new Uint8Array(refs);
  const fenwick = new Float64Array(refs + 1);
  const next = Int32Array.from({ length: refs + 1 }, (_, i) => i);
  const find = (i: number) => {
    let r = i;
    while (next[r] !== r) r = next[r];
    while (next[i] !== r) [next[i], i] = [r, next[i]];
    return r;
  };
  const sumTo = (i: number) => {
    let s = 0;
    for (; i > 0; i -= i & -i) s += fenwick[i];
    return s;
  };
  const set = (r: number, v: number) => {
    value[r] = v;
    known[r] = 1;
    for (let i = r + 1; i <= refs; i += i & -i) fenwick[i] += v;
    next[r] = r + 1;
  };
  const firstRefFrom = (element: number) => {
    let [lo, hi] = [0, refs];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (refAt[mid] < element) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const memo = new Float64Array(elements);
  const state = new Uint8Array(elements); // 0 not reached, 1 being expanded, 2 done
  // A frame: a target being expanded, the run of references inside it (`first` to `hi`), the next to look at (`lo`).
  const stack: { el: number; first: number; lo: number; hi: number }[] = [];
  /** Reference r resolved if its target's total is known; else its target's frame pushed. */
  const resolve = (r: number): "cycle" | undefined => {
    const t = refTarget[r];
    if (t < 0) set(r, 0);
    else if (state[t] === 2) set(r, memo[t]);
    else if (state[t] === 1) return "cycle";
    else {
      state[t] = 1;
      const [first, hi] = [firstRefFrom(t), firstRefFrom(end[t])];
      stack.push({ el: t, first, lo: first, hi });
    }
  };
  let root = rootWeight;
  let rootAt = 0;
  for (;;) {
    const f = stack[stack.length - 1];
    if (!f) {
      // The document's own references, in order; those on hidden elements count only through their targets.
      for (; rootAt < refs && (known[rootAt] || hidden[refAt[rootAt]]); rootAt++) if (!hidden[refAt[rootAt]]) root += value[rootAt];
      if (root > limit) return cap;
      if (rootAt >= refs) return root;
      if (resolve(rootAt)) return "cycle";
      continue;
    }
    const r = find(f.lo);
    if (r < f.hi) {
      f.lo = r;
      if (resolve(r)) return "cycle";
      continue;
    }
    stack.pop();
    const total = Math.min(cap, prefix[end[f.el]] - prefix[f.el] + sumTo(f.hi) - sumTo(f.first));
    if (total > limit) return total;
    memo[f.el] = total;
    state[f.el] = 2;
  }
}

/** Checks an SVG's markup against the limits, before anything draws it. */
export function checkSvgBudget(text: string): SvgBudget {
  const tooBig = `The SVG is more than ${SVG_LIMITS.maxBytes / 1024 / 1024} MiB of text, the limit for a logo; ${NOT_DRAWN}`;
  if (text.length > SVG_LIMITS.maxBytes || utf8Length(text) > SVG_LIMITS.maxBytes) return refuse(tooBig);

  const entities = new Map<string, string>();
  const ids = new Map<string, number>();
  const refAt: number[] = [];
  const refName: string[] = [];
  // Per element: where its subtree ends (the index after its last descendant), and whether it is drawn only by reference.
  const end: number[] = [];
  const hidden: number[] = [];
  const open: number[] = [];
  let hiding = 0; // open containers whose content is drawn only when referenced
  const imagePixels = new Map<number, number>();
  let embeddedBytes = 0;
  let elements = 0;
  let afterDoctype = 0;

  let i = 0;
  for (;;) {
    const lt = text.indexOf("<", i);
    if (lt < 0) break;
    if (text.startsWith("<!--", lt)) i = after(text, "-->", lt + 4);
    else if (text.startsWith("<![CDATA[", lt)) i = after(text, "]]>", lt + 9);
    else if (text.startsWith("<?", lt)) i = after(text, "?>", lt + 2);
    else if (text.startsWith("<!DOCTYPE", lt)) {
      const d = doctype(text, lt, entities);
      if (typeof d !== "number") return refuse(d.message);
      i = afterDoctype = d;
    } else if (text.startsWith("<!", lt)) i = after(text, ">", lt + 2);
    else if (text[lt + 1] === "/") {
      i = after(text, ">", lt + 2);
      const k = open.pop();
      if (k !== undefined) {
        end[k] = elements;
        if (hidden[k] & 2) hiding--;
      }
    } else {
      // A start tag: its name, then its attributes up to `>` or `/>`.
      const nameAt = lt + 1;
      const nameStop = nameEnd(text, nameAt);
      if (nameStop === nameAt) return refuse(CUT_SHORT);
      const tag = localName(text.slice(nameAt, nameStop));
      const k = elements++;
      if (elements > SVG_LIMITS.maxElements) return refuse(`The SVG has more than ${n(SVG_LIMITS.maxElements)} elements, the limit for a logo; ${NOT_DRAWN}`);
      hidden[k] = hiding > 0 ? 1 : 0;
      let j = nameStop;
      let closed = false;
      for (;;) {
        j = skipSpace(text, j);
        if (j >= text.length) return refuse(CUT_SHORT);
        if (text[j] === ">") {
          j++;
          break;
        }
        if (text[j] === "/" && text[j + 1] === ">") {
          j += 2;
          closed = true;
          break;
        }
        const attrStop = nameEnd(text, j);
        if (attrStop === j) return refuse(CUT_SHORT);
        const attr = localName(text.slice(j, attrStop));
        j = skipSpace(text, attrStop);
        if (text[j] !== "=") return refuse(CUT_SHORT);
        j = skipSpace(text, j + 1);
        if (text[j] !== '"' && text[j] !== "'") return refuse(CUT_SHORT);
        const valueEnd = pastQuoted(text, j);
        if (valueEnd < 0) return refuse(CUT_SHORT);
        const raw = text.slice(j + 1, valueEnd - 1);
        j = valueEnd;
        if (attr === "id") {
          const id = dereference(raw, entities).trim();
          if (!ids.has(id)) ids.set(id, k);
        } else if (attr === "href") {
          const href = dereference(raw, entities).trim();
          if (href.startsWith("#")) {
            refAt.push(k);
            refName.push(href.slice(1));
          } else if ((tag === "image" || tag === "feimage") && href.slice(0, 5).toLowerCase() === "data:") {
            const img = embedded(href);
            if ("message" in img) return refuse(img.message);
            embeddedBytes += img.bytes;
            if (embeddedBytes > SVG_LIMITS.maxEmbeddedBytes)
              return refuse(`The SVG's embedded images are more than ${SVG_LIMITS.maxEmbeddedBytes / 1024 / 1024} MiB, the limit for a logo; ${NOT_DRAWN}`);
            imagePixels.set(k, Math.max(imagePixels.get(k) ?? 0, img.pixels));
          }
        } else if (raw.includes("url(")) {
          const found: string[] = [];
          urlRefs(dereference(raw, entities), found);
          for (const id of found) {
            refAt.push(k);
            refName.push(id);
          }
        }
      }
      i = j;
      if (closed) end[k] = k + 1;
      else {
        open.push(k);
        // Bit 2: its content is hidden (the element itself, a <defs> or a <clipPath>, draws nothing either way).
        if (HIDING.has(tag)) {
          hidden[k] |= 2;
          hiding++;
        }
      }
    }
    if (i < 0) return refuse(CUT_SHORT);
  }
  // Elements left open (the renderer refuses such a file): each ends with the document.
  for (const k of open) end[k] = elements;

  if (entities.size && entityGrowth(text, afterDoctype, entities) > SVG_LIMITS.maxBytes)
    return refuse(`The SVG's entities expand to more than ${SVG_LIMITS.maxBytes / 1024 / 1024} MiB of text; ${NOT_DRAWN}`);

  // Forward references resolved now that every id is known.
  const refTarget = Int32Array.from(refName, (id) => ids.get(id) ?? -1);
  const ends = Int32Array.from(end);
  const isHidden = Uint8Array.from(hidden, (h) => h & 1);
  const ones = Float64Array.from({ length: elements + 1 }, (_, x) => x);
  const direct = isHidden.reduce((sum, h) => sum + (h ? 0 : 1), 0);
  const drawn = expand(elements, ends, ones, direct, refAt, refTarget, isHidden, SVG_LIMITS.maxExpandedElements);
  const cycle = `The SVG's references form a cycle (an element that draws itself, directly or through others); ${NOT_DRAWN}`;
  if (drawn === "cycle") return refuse(cycle);
  if (drawn > SVG_LIMITS.maxExpandedElements)
    return refuse(
      `The SVG's references (<use> and others) expand to more than ${n(SVG_LIMITS.maxExpandedElements)} elements, the limit for a logo; ${NOT_DRAWN}`,
    );
  if (imagePixels.size) {
    const prefix = new Float64Array(elements + 1);
    for (let x = 0; x < elements; x++) prefix[x + 1] = prefix[x] + (imagePixels.get(x) ?? 0);
    let direct = 0;
    for (const [x, px] of imagePixels) if (!isHidden[x]) direct += px;
    const pixels = expand(elements, ends, prefix, direct, refAt, refTarget, isHidden, SVG_LIMITS.maxEmbeddedPixels);
    if (pixels === "cycle") return refuse(cycle);
    if (pixels > SVG_LIMITS.maxEmbeddedPixels)
      return refuse(
        `The SVG's embedded images, drawn as often as its references draw them, are more than ${n(SVG_LIMITS.maxEmbeddedPixels)} pixels, the limit for a logo; ${NOT_DRAWN}`,
      );
  }
  return { ok: true, elements };
}
