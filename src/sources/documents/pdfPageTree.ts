/**
 * A PDF's page tree, followed ahead of PDF.js, and regrouped where PDF.js would hold the whole document to open it.
 *
 * PDF.js (pinned through unpdf) looks a page up by walking the tree from the top. On opening it fetches the last page;
 * on any lookup it fetches every kid of the top node at once (its page-dictionary cache), and pushes every kid of each
 * node on the way. Every dictionary it fetches stays in its cross-reference cache. So a document whose pages sit in one
 * flat /Kids array costs memory in proportion to all its pages, however few are read: 20,000 pages in a 5 MB file
 * took the readers' workerd past 128 MB (a hostile case of issue 29), and a 15 MiB file holds about 60,000. A wrong
 * top-level /Count does the same another way: the last page is not found, and PDF.js falls back to fetching the
 * dictionary of every page.
 *
 * So, before PDF.js opens the file, this module indexes the objects the measuring pass (pdf.ts) has already passed
 * over (top-level objects in the text between streams, and the objects of each object stream), follows the tree from
 * the trailer's /Root, and counts the pages under every node as PDF.js would find them (a kid is a page when it is a
 * dictionary of /Type /Page or without /Kids). Where a node has more than MAX_PAGE_TREE_KIDS kids, or a /Count that is
 * not the count of its pages, the node is written again in an incremental update appended to the copy PDF.js reads:
 * its kids regrouped under new intermediate nodes of at most PAGE_TREE_GROUP kids each, with true counts. The node
 * keeps its object number and its other entries (what pages inherit from it), so every page reads as before; the pages
 * read are then found by fetching a few dozen nodes and the pages themselves. A tree that needs nothing is not touched.
 *
 * A tree that cannot be followed (an object not found, a kid that is not a page or a node, a node met twice) is left to
 * PDF.js as it stands, unless the file shows a node of more than MAX_UNFOLLOWED_KIDS kids or more than
 * MAX_UNFOLLOWED_PAGES page objects (services/documents/document.ts), which is refused (pdf.ts): it would cost what the
 * regrouping exists to avoid.
 */

const latin1 = new TextDecoder("latin1");

/** A node with more kids than this is regrouped. */
export const MAX_PAGE_TREE_KIDS = 256;
/** Kids of each intermediate node written by the regrouping. */
export const PAGE_TREE_GROUP = 32;

type Entries = Map<string, string>;
/** An object of the file as the page tree sees it: a page (a leaf), a node (with its entries), or anything else. */
type Indexed = { gen: number; kind: "leaf" } | { gen: number; kind: "node" | "catalog"; entries: Entries } | { gen: number; kind: "other" };

const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number) =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;

/** The index after white space and comments from `i`. */
function skipWhite(t: string, i: number): number {
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (isWhite(c)) i++;
    else if (c === 0x25) while (i < t.length && t.charCodeAt(i) !== 0x0a && t.charCodeAt(i) !== 0x0d) i++;
    else break;
  }
  return i;
}

/** The end of the token (a name's body, a number, a keyword) starting at `i`. */
function tokenEnd(t: string, i: number): number {
  while (i < t.length && !isWhite(t.charCodeAt(i)) && !isDelimiter(t.charCodeAt(i))) i++;
  return i;
}

/** The end of a literal string whose "(" is at `i` (balanced parentheses, backslash escapes); -1 if it never ends. */
function stringEnd(t: string, i: number): number {
  let depth = 0;
  for (let k = i; k < t.length; k++) {
    const c = t[k];
    if (c === "\\") k++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return k + 1;
  }
  return -1;
}

/**
 * The end of the value starting at `i` (a dictionary, array, string, name, number, reference `N G R` or keyword); -1
 * when it is malformed or runs off the text. Containers are skipped by counting, without recursion, so nesting of any
 * depth costs no stack.
 */
function valueEnd(t: string, i: number): number {
  const c = t[i];
  if (c === undefined) return -1;
  if (c === "(") return stringEnd(t, i);
  if (c === "/") return tokenEnd(t, i + 1);
  if (c === "<" && t[i + 1] !== "<") {
    const k = t.indexOf(">", i);
    return k < 0 ? -1 : k + 1;
  }
  if (c === "[" || c === "<") {
    let depth = 0;
    for (let k = i; k < t.length; ) {
      const d = t[k];
      if (d === "(") {
        k = stringEnd(t, k);
        if (k < 0) return -1;
        continue;
      }
      if (d === "%") {
        k = skipWhite(t, k);
        continue;
      }
      if (d === "<" && t[k + 1] === "<") {
        depth++;
        k += 2;
      } else if (d === ">" && t[k + 1] === ">") {
        depth--;
        k += 2;
      } else if (d === "<") {
        const e = t.indexOf(">", k);
        if (e < 0) return -1;
        k = e + 1;
      } else if (d === "[" || d === "]") {
        depth += d === "[" ? 1 : -1;
        k++;
      } else k++;
      if (depth === 0) return k;
    }
    return -1;
  }
  const end = tokenEnd(t, i);
  if (end === i) return -1;
  // A number may be the first of a reference: `12 0 R`.
  const ref = /\s+\d+\s+R(?![^\s()<>[\]{}/%])/y;
  ref.lastIndex = end;
  return /^[+-]?\d+$/.test(t.slice(i, end)) && ref.exec(t) ? ref.lastIndex : end;
}

/** A name's text with `#xx` escapes undone (PDF.js reads `/Ty#70e` as /Type). */
const unescapeName = (s: string) => s.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
/** A name written so that any reader reads it back as `s`. */
const nameOut = (s: string) => "/" + s.replace(/[^!-~]|[#()<>[\]{}/%]/g, (c) => `#${c.charCodeAt(0).toString(16).padStart(2, "0")}`);

/** The dictionary whose "<<" is at `i`: its entries (keys unescaped, values as written) and where it ends; null if malformed. */
function parseDict(t: string, i: number): { entries: Entries; end: number } | null {
  if (!t.startsWith("<<", i)) return null;
  const entries: Entries = new Map();
  let k = i + 2;
  for (;;) {
    k = skipWhite(t, k);
    if (t.startsWith(">>", k)) return { entries, end: k + 2 };
    if (t[k] !== "/") return null;
    const keyEnd = tokenEnd(t, k + 1);
    const key = unescapeName(t.slice(k + 1, keyEnd));
    const v = skipWhite(t, keyEnd);
    const end = valueEnd(t, v);
    if (end < 0) return null;
    entries.set(key, t.slice(v, end));
    k = end;
  }
}

const refOf = (v: string | undefined): { num: number; gen: number } | null => {
  const m = v ? /^(\d+)\s+(\d+)\s+R$/.exec(v) : null;
  return m ? { num: Number(m[1]), gen: Number(m[2]) } : null;
};
const nameValue = (v: string | undefined) => (v?.startsWith("/") ? unescapeName(v.slice(1)) : null);
/** The references of an array of references only (`[4 0 R 6 0 R]`); null for anything else. */
function refArray(v: string | undefined): { num: number; gen: number }[] | null {
  if (!v?.startsWith("[")) return null;
  const refs: { num: number; gen: number }[] = [];
  const rest = v.slice(1, -1).replace(/(\d+)\s+(\d+)\s+R(?![^\s()<>[\]{}/%])/g, (_, n: string, g: string) => {
    refs.push({ num: Number(n), gen: Number(g) });
    return " ";
  });
  return rest.trim() === "" ? refs : null;
}

/** The objects of a file, as far as its page tree goes; fed by the measuring pass (pdf.ts) in file order. */
export class PdfObjectIndex {
  private readonly objects = new Map<number, Indexed>();
  /** Trailer dictionaries and cross-reference streams' dictionaries, in file order. */
  readonly trailers: Entries[] = [];
  /** The last `startxref` of the file. */
  startxref: number | null = null;
  maxNum = 0;
  /** Page objects (/Type /Page) met, and the most kids any node lists: the measures of a tree that cannot be followed. */
  pageObjects = 0;
  maxKids = 0;

  get(num: number): Indexed | undefined {
    return this.objects.get(num);
  }

  private add(num: number, gen: number, dict: Entries | null, isStream: boolean): void {
    this.maxNum = Math.max(this.maxNum, num);
    if (!dict || isStream) {
      this.objects.set(num, { gen, kind: "other" });
      if (dict && nameValue(dict.get("Type")) === "XRef") this.trailers.push(dict);
      return;
    }
    const type = nameValue(dict.get("Type"));
    if (type === "Page") this.pageObjects++;
    if (dict.has("Kids")) this.maxKids = Math.max(this.maxKids, (dict.get("Kids")!.match(/\bR\b/g) ?? []).length);
    // PDF.js takes a kid for a page when it is /Type /Page or has no /Kids.
    if (type === "Page" || !dict.has("Kids")) {
      this.objects.set(num, type === "Catalog" ? { gen, kind: "catalog", entries: dict } : { gen, kind: "leaf" });
      return;
    }
    this.objects.set(num, { gen, kind: "node", entries: dict });
  }

  /**
   * Top-level text of the file (`text`: latin1, between streams or after the last): its objects, trailers and
   * `startxref`. With `streamFollows`, the text ends where a stream's data begins, so its last object is a stream.
   * Each object is read only up to the next marker (an object, a trailer, `startxref`) or its `endobj`, so a
   * malformed one cannot make the reading of the others run to the end of the text: the work is linear in the text.
   */
  addTopLevel(text: string, streamFollows: boolean): void {
    const markers: { at: number; body: number; obj?: { num: number; gen: number }; startxref?: number }[] = [];
    const re = /(?<![\d.+-])(\d+)\s+(\d+)\s+obj\b|\btrailer\b|\bstartxref\s+(\d+)/g;
    for (let m = re.exec(text); m; m = re.exec(text))
      markers.push({
        at: m.index,
        body: m.index + m[0].length,
        obj: m[1] !== undefined ? { num: Number(m[1]), gen: Number(m[2]) } : undefined,
        startxref: m[3] !== undefined ? Number(m[3]) : undefined,
      });
    const ends: number[] = [];
    for (let k = text.indexOf("endobj"); k >= 0; k = text.indexOf("endobj", k + 6)) ends.push(k);
    let e = 0;
    markers.forEach((mk, i) => {
      if (mk.startxref !== undefined) {
        this.startxref = mk.startxref;
        return;
      }
      while (e < ends.length && ends[e] < mk.body) e++;
      const bound = Math.min(markers[i + 1]?.at ?? text.length, ends[e] ?? text.length);
      const region = text.slice(mk.body, bound);
      const at = skipWhite(region, 0);
      const dict = parseDict(region, at);
      if (!mk.obj) {
        if (dict) this.trailers.push(dict.entries);
        return;
      }
      const after = dict ? skipWhite(region, dict.end) : -1;
      const last = bound === text.length;
      const isStream = dict !== null && ((streamFollows && last && after === region.length) || region.startsWith("stream", after));
      this.add(mk.obj.num, mk.obj.gen, dict?.entries ?? null, isStream);
    });
  }

  /** The objects of an object stream: `dict` its dictionary's text (names unescaped), `data` its decoded content. */
  addObjectStream(dict: string, data: Uint8Array): void {
    const first = /\/First\s+(\d+)/.exec(dict);
    const n = /\/N\s+(\d+)/.exec(dict);
    if (!first || !n) return;
    const text = latin1.decode(data);
    const start = Number(first[1]);
    const head = text.slice(0, start).trim().split(/\s+/).map(Number);
    const count = Math.min(Number(n[1]), Math.floor(head.length / 2));
    const objects: { num: number; at: number }[] = [];
    for (let i = 0; i < count; i++) {
      const num = head[2 * i];
      const at = start + head[2 * i + 1];
      if (Number.isInteger(num) && num >= 0 && Number.isInteger(at) && at >= start && at <= text.length) objects.push({ num, at });
    }
    // Each object is read up to the next one's offset (offsets in order), so none is read past its neighbour.
    const starts = [...new Set(objects.map((o) => o.at))].sort((x, y) => x - y);
    const boundOf = new Map(starts.map((at, i) => [at, starts[i + 1] ?? text.length]));
    for (const o of objects) {
      const region = text.slice(o.at, boundOf.get(o.at));
      this.add(o.num, 0, parseDict(region, skipWhite(region, 0))?.entries ?? null, false);
    }
  }
}

export interface PageTree {
  /** The copy to give PDF.js: the file with an update appended, or null when the tree needs nothing. */
  bytes: Uint8Array | null;
  /** The tree was followed from the trailer's /Root to every page. */
  followed: boolean;
  /** Pages found under the top node (when followed). */
  pages: number;
  /** Nodes written again. */
  regrouped: number;
}

interface Node {
  num: number;
  gen: number;
  entries: Entries;
  kids: { ref: string; count: number }[];
  count: number;
}

/**
 * Follows the page tree of the file whose objects `index` holds and, where a node is too wide or its /Count is wrong,
 * returns `b` with an incremental update that writes those nodes again (see the module's comment). `opts` lowers the
 * limits (tests regroup every node of real files to show they read the same).
 */
export function regroupPageTree(b: Uint8Array, index: PdfObjectIndex, opts: { maxKids?: number; group?: number } = {}): PageTree {
  const maxKids = opts.maxKids ?? MAX_PAGE_TREE_KIDS;
  const group = Math.max(2, opts.group ?? PAGE_TREE_GROUP);
  const unfollowed: PageTree = { bytes: null, followed: false, pages: 0, regrouped: 0 };
  const trailer = [...index.trailers].reverse().find((t) => refOf(t.get("Root")));
  if (!trailer || index.startxref === null) return unfollowed;
  const catalog = index.get(refOf(trailer.get("Root"))!.num);
  const top = catalog?.kind === "catalog" ? refOf(catalog.entries.get("Pages")) : null;
  if (!top) return unfollowed;

  // Post-order walk without recursion: a node is finished when all its kids are.
  const nodes: Node[] = [];
  const seen = new Set<number>();
  const topEntry = index.get(top.num);
  if (topEntry?.kind !== "node") return unfollowed;
  const stack: { node: Node; refs: { num: number; gen: number }[]; next: number }[] = [];
  const open = (num: number, gen: number, entries: Entries): boolean => {
    const refs = refArray(entries.get("Kids"));
    if (!refs || seen.has(num)) return false;
    seen.add(num);
    const node: Node = { num, gen, entries, kids: [], count: 0 };
    nodes.push(node);
    stack.push({ node, refs, next: 0 });
    return true;
  };
  if (!open(top.num, topEntry.gen, topEntry.entries)) return unfollowed;
  let topCount = 0;
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (frame.next === frame.refs.length) {
      stack.pop();
      const parent = stack[stack.length - 1];
      if (parent) {
        parent.node.kids.push({ ref: `${frame.node.num} ${frame.node.gen} R`, count: frame.node.count });
        parent.node.count += frame.node.count;
      } else topCount = frame.node.count;
      continue;
    }
    const kid = frame.refs[frame.next++];
    const entry = index.get(kid.num);
    if (entry?.kind === "leaf" || entry?.kind === "catalog") {
      if (seen.has(kid.num)) return unfollowed;
      seen.add(kid.num);
      frame.node.kids.push({ ref: `${kid.num} ${kid.gen} R`, count: 1 });
      frame.node.count++;
    } else if (entry?.kind === "node") {
      if (!open(kid.num, entry.gen, entry.entries)) return unfollowed;
    } else return unfollowed;
  }

  const declared = (n: Node) => {
    const v = n.entries.get("Count");
    return v !== undefined && /^\d+$/.test(v) ? Number(v) : null;
  };
  const rewrite = nodes.filter((n) => n.kids.length > maxKids || declared(n) !== n.count);
  if (!rewrite.length) return { bytes: null, followed: true, pages: topCount, regrouped: 0 };

  // The update: each node again, under its own number, with its kids grouped; then a cross-reference section whose
  // /Prev is the file's last one, and a trailer that carries the file's /Root, /Info, /ID and /Encrypt.
  const size = Number(trailer.get("Size"));
  let next = Math.max(Number.isInteger(size) ? size : 0, index.maxNum + 1);
  const parts: string[] = [];
  const offsets = new Map<number, { gen: number; offset: number }>();
  let pos = b.length + 1;
  const emit = (num: number, gen: number, body: string) => {
    const s = `${num} ${gen} obj\n${body}\nendobj\n`;
    offsets.set(num, { gen, offset: pos });
    parts.push(s);
    pos += s.length;
  };
  /** The kids to list under `parent`: `list` itself when it is short, else new nodes of at most `group` kids each. */
  const place = (list: Node["kids"], parent: string): string[] => {
    if (list.length <= group) return list.map((k) => k.ref);
    let span = group;
    while (span * group < list.length) span *= group;
    const out: string[] = [];
    for (let i = 0; i < list.length; i += span) {
      const chunk = list.slice(i, i + span);
      const num = next++;
      const ref = `${num} 0 R`;
      const count = chunk.reduce((s, k) => s + k.count, 0);
      emit(num, 0, `<< /Type /Pages /Parent ${parent} /Kids [${place(chunk, ref).join(" ")}] /Count ${count} >>`);
      out.push(ref);
    }
    return out;
  };
  for (const n of rewrite) {
    const kept = [...n.entries].filter(([k]) => k !== "Kids" && k !== "Count").map(([k, v]) => `${nameOut(k)} ${v}`);
    const kids = n.kids.length > maxKids ? place(n.kids, `${n.num} ${n.gen} R`) : n.kids.map((k) => k.ref);
    emit(n.num, n.gen, `<< ${kept.join(" ")} /Kids [${kids.join(" ")}] /Count ${n.count} >>`);
  }
  const xrefAt = pos;
  const nums = [...offsets.keys()].sort((x, y) => x - y);
  let table = "xref\n";
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    table += `${nums[i]} ${j - i + 1}\n`;
    for (let k = i; k <= j; k++) {
      const { gen, offset } = offsets.get(nums[k])!;
      table += `${String(offset).padStart(10, "0")} ${String(gen).padStart(5, "0")} n\r\n`;
    }
    i = j + 1;
  }
  const carried = ["Root", "Info", "ID", "Encrypt"].filter((k) => trailer.has(k)).map((k) => `/${k} ${trailer.get(k)}`);
  table += `trailer\n<< /Size ${next} ${carried.join(" ")} /Prev ${index.startxref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  parts.push(table);

  const text = "\n" + parts.join("");
  const out = new Uint8Array(b.length + text.length);
  out.set(b);
  for (let i = 0; i < text.length; i++) out[b.length + i] = text.charCodeAt(i) & 0xff;
  return { bytes: out, followed: true, pages: topCount, regrouped: rewrite.length };
}
