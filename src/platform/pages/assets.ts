/**
 * The pages' own stylesheet and script, served by the Worker from /assets (same origin, so the CSP allows them
 * without 'unsafe-inline'). Colours meet WCAG AA contrast; focus is always visible.
 */
export const SITE_CSS = `
:root { --ink: #1b1b1b; --muted: #4a4a4a; --paper: #ffffff; --line: #c9c9c9; --link: #0b4fbf; --accent: #0b4fbf; --bad: #a10e0e; --good: #0a6b2d; --warn: #7a4b00; --soft: #f3f5f8; }
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: var(--ink); background: var(--paper); line-height: 1.5; }
body { margin: 0; }
a { color: var(--link); text-decoration: underline; text-underline-offset: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--ink); color: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 10; }
header.site, footer.site, main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem; }
header.site { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 1rem; border-bottom: 1px solid var(--line); }
.brand { margin: 0; font-weight: 700; font-size: 1.1rem; }
.brand a { color: var(--ink); text-decoration: none; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 1rem; margin: 0; padding: 0; }
nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
footer.site { border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; margin-top: 2rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: 1rem 0; }
h2 { font-size: 1.4rem; margin-top: 2rem; }
.lead { font-size: 1.15rem; max-width: 48rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: .45rem .5rem; }
th { background: var(--soft); }
code, .key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .95em; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); gap: 1rem; padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 6px; padding: 1rem; }
.button, button { display: inline-block; background: var(--accent); color: #fff; border: 0; border-radius: 4px; padding: .6rem 1.1rem; font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
.button.secondary, button.secondary { background: #fff; color: var(--accent); border: 2px solid var(--accent); }
form { max-width: 34rem; }
label { display: block; font-weight: 600; margin-top: 1rem; }
.hint { display: block; color: var(--muted); font-weight: 400; font-size: .95rem; }
input[type=email], input[type=tel], input[type=text] { width: 100%; font: inherit; padding: .5rem; border: 2px solid var(--ink); border-radius: 4px; margin-top: .25rem; }
input[aria-invalid=true] { border-color: var(--bad); }
.actions { margin-top: 1.25rem; display: flex; gap: .75rem; flex-wrap: wrap; align-items: center; }
.error-summary { border: 3px solid var(--bad); padding: .75rem 1rem; margin: 1rem 0; }
.error-summary h2 { margin: 0 0 .25rem; font-size: 1.1rem; color: var(--bad); }
.field-error { color: var(--bad); font-weight: 600; display: block; }
form.try button { margin-top: .75rem; }
p.error { color: var(--bad); font-weight: 600; }
figure.logos { display: flex; gap: 1.25rem; align-items: center; flex-wrap: wrap; margin: 1rem 0; }
figure.logos img { border: 1px solid var(--line); border-radius: 4px; background: #fff; }
figure.logos figcaption { flex-basis: 100%; color: var(--muted); }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.notice { border-left: 6px solid var(--accent); background: var(--soft); padding: .75rem 1rem; margin: 1rem 0; }
.warning { border-left: 6px solid var(--warn); background: #fff8e6; padding: .75rem 1rem; margin: 1rem 0; }
.key { display: block; width: 100%; padding: .6rem; border: 2px solid var(--ink); border-radius: 4px; background: var(--soft); word-break: break-all; }
.state-ok { color: var(--good); font-weight: 700; }
.state-bad { color: var(--bad); font-weight: 700; }
.state-other { color: var(--warn); font-weight: 700; }
[hidden] { display: none !important; }
`;

/** Sign-up page enhancement: the copy button (without JavaScript the key is still shown, selectable). */
export const SIGNUP_JS = `
document.addEventListener("DOMContentLoaded", function () {
  var button = document.getElementById("copy-key");
  var key = document.getElementById("api-key");
  var said = document.getElementById("copy-status");
  if (!button || !key || !said) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    var text = key.textContent || "";
    var done = function (ok) { said.textContent = ok ? "Key copied to the clipboard." : "Copy failed: select the key and copy it by hand."; };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    else done(false);
  });
});
`;

/**
 * The API reference's renderer (Scalar) writes some markup that assistive technology cannot use, which no
 * configuration option turns off. This shim mends it after every render, and is kept to exactly what axe-core
 * found (scripts/test-browser.mjs audits the page with it): sidebar buttons marked aria-selected (not allowed on
 * a button: the current entry becomes aria-current), an <aside> given role=navigation, the code editor and
 * icon-only buttons and links with no name, response regions that share one name on the same page, and code examples
 * that scroll but cannot be reached by keyboard (made focusable). It also
 * replaces the renderer's demo token, shown as the key field's placeholder as if it were a key, by a hint
 * (KEY_HINT): the field starts empty and says what goes in it.
 */
export const KEY_HINT = "Your key (ukbi_…): a free one at /signup";
/** The placeholder the renderer (Scalar) writes in its key and token fields. */
const RENDERER_TOKEN_PLACEHOLDER = "QUxMIFlPVVIgQkFTRSBBUkUgQkVMT05HIFRPIFVT";
export const DOCS_A11Y_JS = `
(function () {
  function nameOf(el) {
    var by = el.getAttribute("aria-labelledby");
    if (by) return by.split(/\\s+/).map(function (id) { var t = document.getElementById(id); return t ? t.textContent.trim() : ""; }).join(" ").trim();
    return (el.getAttribute("aria-label") || "").trim();
  }
  /** The text a screen reader would read: rendered text (not display:none), without what is aria-hidden. */
  function spokenText(el) {
    var text = el.innerText || "";
    el.querySelectorAll("[aria-hidden=true]").forEach(function (h) {
      var hidden = h.innerText || "";
      if (hidden) text = text.replace(hidden, "");
    });
    return text.trim();
  }
  function operationOf(el) {
    var section = el.closest("[id*='/tag/']");
    var heading = section && section.querySelector("h3, h2");
    return heading ? heading.textContent.trim() : "";
  }
  function mend() {
    document.querySelectorAll("input[placeholder='${RENDERER_TOKEN_PLACEHOLDER}']").forEach(function (i) { i.setAttribute("placeholder", ${JSON.stringify(KEY_HINT)}); });
    document.querySelectorAll("button[aria-selected]").forEach(function (b) {
      if (b.getAttribute("aria-selected") === "true") b.setAttribute("aria-current", "location");
      else b.removeAttribute("aria-current");
      b.removeAttribute("aria-selected");
    });
    document.querySelectorAll("aside[role=navigation]").forEach(function (a) { a.removeAttribute("role"); });
    document.querySelectorAll(".cm-content[role=textbox]:not([aria-label])").forEach(function (e) { e.setAttribute("aria-label", "Code editor"); });
    // A code example in a description (how to verify a receipt) that scrolls sideways must be reachable by keyboard.
    document.querySelectorAll("pre:not([tabindex]), [class*='language-']:not([tabindex])").forEach(function (c) {
      if (c.scrollWidth <= c.clientWidth && c.scrollHeight <= c.clientHeight) return;
      c.setAttribute("tabindex", "0");
      if (!c.getAttribute("aria-label")) c.setAttribute("aria-label", "Code example");
    });
    document.querySelectorAll("button:not([aria-label])").forEach(function (b) {
      if (spokenText(b)) return;
      var title = b.getAttribute("title");
      b.setAttribute("aria-label", title || (b.classList.contains("scalar-code-copy") ? "Copy the code" : "More"));
    });
    document.querySelectorAll("a[href]:not([aria-label])").forEach(function (a) {
      if (spokenText(a) || a.querySelector("img[alt]:not([alt=''])")) return;
      a.setAttribute("aria-label", /open-government-licence/.test(a.href) ? "Licence: Open Government Licence" : a.hostname || "Link");
    });
    var seen = {};
    document.querySelectorAll("[role=region]").forEach(function (r) {
      var n = nameOf(r);
      if (!n) return;
      if (seen[n]) {
        var op = operationOf(r);
        r.removeAttribute("aria-labelledby");
        r.setAttribute("aria-label", n + (op ? ": " + op : ": " + Object.keys(seen).length));
      }
      seen[nameOf(r)] = true;
    });
  }
  var queued = false;
  new MutationObserver(function () {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; mend(); });
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected", "role", "aria-label"] });
})();
`;

/** The site's icon: a pound sign on the header's blue (every page links it; the reference's renderer too). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b4fbf"/><text x="16" y="23" font-family="Arial, Helvetica, sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#fff">£</text></svg>`;

export const ASSETS: Record<string, { body: string; type: string }> = {
  "/assets/docs-a11y.js": { body: DOCS_A11Y_JS, type: "text/javascript; charset=utf-8" },
  "/assets/site.css": { body: SITE_CSS, type: "text/css; charset=utf-8" },
  "/favicon.svg": { body: FAVICON_SVG, type: "image/svg+xml" },
  "/assets/signup.js": { body: SIGNUP_JS, type: "text/javascript; charset=utf-8" },
};
