/**
 * Scripts evaluated inside the rendered page (as source text: they run in the browser, not the Worker). Each is an
 * expression whose value is returned to the Worker; each bounds its own work so a huge page cannot stall it.
 */

/** Runs before any of the page's own scripts, in every frame: no connection the Worker could not intercept. */
export const LOCK_DOWN = `(() => {
  const refuse = function () { throw new DOMException("Refused by the audit: no direct connections", "SecurityError"); };
  for (const name of ["WebSocket", "WebTransport", "RTCPeerConnection", "webkitRTCPeerConnection", "Worker", "SharedWorker"]) {
    try { Object.defineProperty(globalThis, name, { value: refuse, writable: false, configurable: false }); } catch {}
  }
  try {
    if (navigator.serviceWorker) Object.defineProperty(navigator.serviceWorker, "register", { value: () => Promise.reject(new DOMException("Refused", "SecurityError")) });
  } catch {}
})()`;

/** Visible text of the body, at most 200,000 characters. */
export const READ_TEXT = `(() => (document.body ? document.body.innerText : "").slice(0, 200000))()`;

/** The rendered document's HTML, at most 2,000,000 characters. */
export const READ_HTML = `(() => document.documentElement ? document.documentElement.outerHTML.slice(0, 2000000) : "")()`;

/** Cookies a script can see, and the names of keys in web storage. */
export const READ_STORAGE = `(() => {
  const keys = [];
  for (const s of ["localStorage", "sessionStorage"]) {
    try { const st = globalThis[s]; for (let i = 0; i < st.length && i < 200; i++) keys.push(s + ":" + st.key(i)); } catch {}
  }
  return keys.sort();
})()`;

/**
 * Colours painted on the page: every visible element's background (by its area on the first two screens), its text
 * (by characters times font size), its border (by length times width); buttons' and links' colours named as such.
 * At most 4,000 elements are read. Returns [{hex, use, share}] for the twelve largest, share of the total weight.
 */
export const READ_COLOURS = `(() => {
  const toHex = (c) => {
    const m = /rgba?\\(\\s*([\\d.]+)[ ,]+([\\d.]+)[ ,]+([\\d.]+)(?:\\s*[,/]\\s*([\\d.]+%?))?/.exec(c || "");
    if (!m) return null;
    let a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    if (a < 0.5) return null;
    return "#" + [m[1], m[2], m[3]].map((v) => Math.round(+v).toString(16).padStart(2, "0")).join("");
  };
  const vh = innerHeight * 2, vw = innerWidth;
  const weights = new Map();
  const add = (hex, use, w) => {
    if (!hex || !(w > 0)) return;
    let e = weights.get(hex);
    if (!e) weights.set(hex, (e = { total: 0, uses: {} }));
    e.total += w;
    e.uses[use] = (e.uses[use] || 0) + w;
  };
  const els = document.body ? document.body.getElementsByTagName("*") : [];
  const n = Math.min(els.length, 4000);
  const rootBg = toHex(getComputedStyle(document.documentElement).backgroundColor) || toHex(document.body && getComputedStyle(document.body).backgroundColor);
  add(rootBg || "#ffffff", "background", vw * vh * 0.25);
  for (let i = 0; i < n; i++) {
    const el = els[i];
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden" || +st.opacity === 0) continue;
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0));
    const h = Math.max(0, Math.min(r.bottom + scrollY, vh) - Math.max(r.top + scrollY, 0));
    const area = w * h;
    if (area <= 0) continue;
    const tag = el.tagName;
    const isButton = tag === "BUTTON" || el.getAttribute("role") === "button" || (tag === "INPUT" && /^(submit|button)$/i.test(el.type)) || /\\b(btn|button|cta)\\b/i.test(el.className && el.className.baseVal === undefined ? el.className : "");
    const isLink = tag === "A";
    add(toHex(st.backgroundColor), isButton ? "button" : "background", area);
    let chars = 0;
    for (const c of el.childNodes) if (c.nodeType === 3) chars += c.textContent.trim().length;
    if (chars) add(toHex(st.color), isLink ? "link" : isButton ? "button" : "text", chars * parseFloat(st.fontSize) * parseFloat(st.fontSize) * 0.6);
    const bw = parseFloat(st.borderTopWidth) + parseFloat(st.borderBottomWidth) + parseFloat(st.borderLeftWidth) + parseFloat(st.borderRightWidth);
    if (bw > 0 && st.borderStyle !== "none") add(toHex(st.borderTopColor), "border", (w + h) * bw);
  }
  const total = [...weights.values()].reduce((s, e) => s + e.total, 0) || 1;
  return [...weights.entries()]
    .map(([hex, e]) => ({ hex, use: Object.entries(e.uses).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0], share: Math.round((e.total / total) * 1000) / 1000 }))
    .sort((a, b) => b.share - a.share || (a.hex < b.hex ? -1 : 1))
    .slice(0, 12);
})()`;

/** Font families of visible text, by characters; the eight most used. */
export const READ_FONTS = `(() => {
  const counts = new Map();
  const walker = document.body ? document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT) : null;
  let total = 0, seen = 0;
  while (walker && walker.nextNode() && seen < 20000) {
    seen++;
    const t = walker.currentNode.textContent.trim();
    const el = walker.currentNode.parentElement;
    if (!t || !el) continue;
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") continue;
    counts.set(st.fontFamily, (counts.get(st.fontFamily) || 0) + t.length);
    total += t.length;
  }
  return [...counts.entries()].map(([family, n]) => ({ family, share: Math.round((n / (total || 1)) * 1000) / 1000 }))
    .sort((a, b) => b.share - a.share || (a.family < b.family ? -1 : 1)).slice(0, 8);
})()`;

/** Runs axe-core (evaluated just before it) with the given options; trims each rule's nodes to `keep` examples; counts the frames axe does not enter. */
export const runAxe = (options: unknown, keep: number) => `(async () => {
  const r = await axe.run(document, ${JSON.stringify(options)});
  // A rule that passed has no impact of its own in the result: its declared impact (what a failure would weigh) is used.
  const declared = Object.fromEntries(axe._audit.rules.map((rule) => [rule.id, rule.impact || null]));
  const trim = (list) => list.map((x) => ({ id: x.id, impact: x.impact || declared[x.id] || null, tags: x.tags, description: x.description, help: x.help, helpUrl: x.helpUrl,
    nodeCount: x.nodes.length,
    nodes: x.nodes.slice(0, ${keep}).map((n) => ({ target: n.target, html: String(n.html || "").slice(0, 300), impact: n.impact || null, failureSummary: n.failureSummary ? String(n.failureSummary).slice(0, 600) : undefined })) }));
  return { testEngine: r.testEngine, violations: trim(r.violations), incomplete: trim(r.incomplete), passes: trim(r.passes), inapplicable: trim(r.inapplicable),
    framesNotAudited: document.querySelectorAll("iframe, frame").length };
})()`;
