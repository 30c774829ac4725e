/**
 * Hostile HTML, XML and text for the readers (issue 29 §1): pure string builders, no file I/O, so that node scripts
 * (fixtures, the live-server harness) and the tests (vitest in workerd) make the same inputs. Each is well under the
 * service's byte caps; what makes them hostile is their shape (nesting, element count, one endless word).
 */

/**
 * `depth` nested `<div>`s with a sentence at the bottom, closed again, in a whole page. 200,000 levels is about
 * 2.2 MB, 1,000,000 about 11 MB (under the readers' 15 MiB fetch cap).
 *
 * @param {number} depth
 * @param {{ text?: string, tag?: string, close?: boolean }} [opts] `close: false` leaves every element open (the parser closes them at the end).
 * @returns {string}
 */
export function deepHtml(depth, opts = {}) {
  const tag = opts.tag ?? "div";
  const text = opts.text ?? "Modern slavery statement. We assess our supply chain for risks of forced labour every year.";
  const close = opts.close === false ? "" : `</${tag}>`.repeat(depth);
  return `<!doctype html><html lang="en"><head><title>Deep page</title></head><body>${`<${tag}>`.repeat(depth)}<p>${text}</p>${close}</body></html>`;
}

/**
 * `elements` sibling paragraphs (one element each, with a short sentence), in a whole page: wide, not deep.
 *
 * @param {number} elements
 * @param {{ tag?: string, text?: string }} [opts]
 * @returns {string}
 */
export function wideHtml(elements, opts = {}) {
  const tag = opts.tag ?? "p";
  const text = opts.text ?? "We train our staff.";
  return `<!doctype html><html lang="en"><head><title>Wide page</title></head><body>${`<${tag}>${text}</${tag}>`.repeat(elements)}</body></html>`;
}

/**
 * A sitemap (urlset) whose one `<url>` is wrapped `depth` levels deep in unknown elements, then a normal `<url>`.
 *
 * @param {number} depth
 * @param {{ tag?: string }} [opts]
 * @returns {string}
 */
export function deepXml(depth, opts = {}) {
  const tag = opts.tag ?? "x";
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
    `${`<${tag}>`.repeat(depth)}<url><loc>https://www.example.co.uk/deep</loc></url>${`</${tag}>`.repeat(depth)}` +
    `<url><loc>https://www.example.co.uk/</loc><lastmod>2026-01-01</lastmod></url></urlset>`
  );
}

/** Characters of `text` a reader takes at most (the POST cap). */
export const TEXT_CAP = 1_000_000;

/**
 * The text cases a reader must answer well within its time limit, each at (or just under) the 1,000,000-character cap
 * (the four-byte one aside, see there).
 *
 * @returns {{ name: string, text: string }[]}
 */
export function textCases() {
  const prose =
    "Modern slavery statement. This statement is made under section 54 of the Modern Slavery Act 2015 for the financial year ending 31 March 2026. " +
    "We assess our supply chain for risks of forced labour, and we train our staff every year. " +
    "Our board approved this statement on 1 June 2026 and it is signed by a director.\n\n";
  return [
    { name: "one 1,000,000-character word", text: "a".repeat(TEXT_CAP) },
    { name: "'Safe. Good.' lines to 1,000,000 characters", text: "Safe. Good.\n".repeat(Math.floor(TEXT_CAP / 12)) },
    { name: "<div> 199,000 times as text", text: "<div>".repeat(199_000) + "Ofsted inspection report Good" },
    { name: "1,000,000 characters of prose", text: prose.repeat(Math.ceil(TEXT_CAP / prose.length)).slice(0, TEXT_CAP) },
    // 1,998,035 UTF-16 code units: over the POST cap as the API counts it (a JSON string's length), so by HTTP it is
    // refused with 400; the readers' services are given it whole.
    { name: "999,000 four-byte characters", text: "𝐀".repeat(999_000) + " modern slavery statement text here" },
  ];
}
