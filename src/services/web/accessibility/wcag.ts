/**
 * WCAG 2.2 success criteria, the tie from axe-core's tags to them, and a plain fix for each axe rule the audit runs.
 * Pure: no platform, no sources. The rule list the fixes cover is that of axe-core (package.json) run with the audit's
 * tags (axeOptions.ts); scripts/act.mjs checks, from Node, that every such rule has a fix and maps to a criterion here.
 */

export type WcagLevel = "A" | "AA" | "AAA";
export type WcagVersion = "2.0" | "2.1" | "2.2";

export interface WcagCriterion {
  /** Success criterion number, "1.4.10". */
  sc: string;
  /** Its name in WCAG 2.2, "Reflow". */
  name: string;
  level: WcagLevel;
  /** The WCAG version that introduced it. */
  version: WcagVersion;
  /** 4.1.1 Parsing: kept for 2.0 and 2.1, obsolete and removed in WCAG 2.2. */
  obsolete?: true;
}

const c = (sc: string, name: string, level: WcagLevel, version: WcagVersion = "2.0"): WcagCriterion => ({ sc, name, level, version });

/** Every success criterion of WCAG 2.0, 2.1 and 2.2 (86 in WCAG 2.2, plus 4.1.1 Parsing, obsolete in 2.2): 87. */
export const WCAG_CRITERIA: readonly WcagCriterion[] = [
  // 1 Perceivable
  c("1.1.1", "Non-text Content", "A"),
  c("1.2.1", "Audio-only and Video-only (Prerecorded)", "A"),
  c("1.2.2", "Captions (Prerecorded)", "A"),
  c("1.2.3", "Audio Description or Media Alternative (Prerecorded)", "A"),
  c("1.2.4", "Captions (Live)", "AA"),
  c("1.2.5", "Audio Description (Prerecorded)", "AA"),
  c("1.2.6", "Sign Language (Prerecorded)", "AAA"),
  c("1.2.7", "Extended Audio Description (Prerecorded)", "AAA"),
  c("1.2.8", "Media Alternative (Prerecorded)", "AAA"),
  c("1.2.9", "Audio-only (Live)", "AAA"),
  c("1.3.1", "Info and Relationships", "A"),
  c("1.3.2", "Meaningful Sequence", "A"),
  c("1.3.3", "Sensory Characteristics", "A"),
  c("1.3.4", "Orientation", "AA", "2.1"),
  c("1.3.5", "Identify Input Purpose", "AA", "2.1"),
  c("1.3.6", "Identify Purpose", "AAA", "2.1"),
  c("1.4.1", "Use of Color", "A"),
  c("1.4.2", "Audio Control", "A"),
  c("1.4.3", "Contrast (Minimum)", "AA"),
  c("1.4.4", "Resize Text", "AA"),
  c("1.4.5", "Images of Text", "AA"),
  c("1.4.6", "Contrast (Enhanced)", "AAA"),
  c("1.4.7", "Low or No Background Audio", "AAA"),
  c("1.4.8", "Visual Presentation", "AAA"),
  c("1.4.9", "Images of Text (No Exception)", "AAA"),
  c("1.4.10", "Reflow", "AA", "2.1"),
  c("1.4.11", "Non-text Contrast", "AA", "2.1"),
  c("1.4.12", "Text Spacing", "AA", "2.1"),
  c("1.4.13", "Content on Hover or Focus", "AA", "2.1"),
  // 2 Operable
  c("2.1.1", "Keyboard", "A"),
  c("2.1.2", "No Keyboard Trap", "A"),
  c("2.1.3", "Keyboard (No Exception)", "AAA"),
  c("2.1.4", "Character Key Shortcuts", "A", "2.1"),
  c("2.2.1", "Timing Adjustable", "A"),
  c("2.2.2", "Pause, Stop, Hide", "A"),
  c("2.2.3", "No Timing", "AAA"),
  c("2.2.4", "Interruptions", "AAA"),
  c("2.2.5", "Re-authenticating", "AAA"),
  c("2.2.6", "Timeouts", "AAA", "2.1"),
  c("2.3.1", "Three Flashes or Below Threshold", "A"),
  c("2.3.2", "Three Flashes", "AAA"),
  c("2.3.3", "Animation from Interactions", "AAA", "2.1"),
  c("2.4.1", "Bypass Blocks", "A"),
  c("2.4.2", "Page Titled", "A"),
  c("2.4.3", "Focus Order", "A"),
  c("2.4.4", "Link Purpose (In Context)", "A"),
  c("2.4.5", "Multiple Ways", "AA"),
  c("2.4.6", "Headings and Labels", "AA"),
  c("2.4.7", "Focus Visible", "AA"),
  c("2.4.8", "Location", "AAA"),
  c("2.4.9", "Link Purpose (Link Only)", "AAA"),
  c("2.4.10", "Section Headings", "AAA"),
  c("2.4.11", "Focus Not Obscured (Minimum)", "AA", "2.2"),
  c("2.4.12", "Focus Not Obscured (Enhanced)", "AAA", "2.2"),
  c("2.4.13", "Focus Appearance", "AAA", "2.2"),
  c("2.5.1", "Pointer Gestures", "A", "2.1"),
  c("2.5.2", "Pointer Cancellation", "A", "2.1"),
  c("2.5.3", "Label in Name", "A", "2.1"),
  c("2.5.4", "Motion Actuation", "A", "2.1"),
  c("2.5.5", "Target Size (Enhanced)", "AAA", "2.1"),
  c("2.5.6", "Concurrent Input Mechanisms", "AAA", "2.1"),
  c("2.5.7", "Dragging Movements", "AA", "2.2"),
  c("2.5.8", "Target Size (Minimum)", "AA", "2.2"),
  // 3 Understandable
  c("3.1.1", "Language of Page", "A"),
  c("3.1.2", "Language of Parts", "AA"),
  c("3.1.3", "Unusual Words", "AAA"),
  c("3.1.4", "Abbreviations", "AAA"),
  c("3.1.5", "Reading Level", "AAA"),
  c("3.1.6", "Pronunciation", "AAA"),
  c("3.2.1", "On Focus", "A"),
  c("3.2.2", "On Input", "A"),
  c("3.2.3", "Consistent Navigation", "AA"),
  c("3.2.4", "Consistent Identification", "AA"),
  c("3.2.5", "Change on Request", "AAA"),
  c("3.2.6", "Consistent Help", "A", "2.2"),
  c("3.3.1", "Error Identification", "A"),
  c("3.3.2", "Labels or Instructions", "A"),
  c("3.3.3", "Error Suggestion", "AA"),
  c("3.3.4", "Error Prevention (Legal, Financial, Data)", "AA"),
  c("3.3.5", "Help", "AAA"),
  c("3.3.6", "Error Prevention (All)", "AAA"),
  c("3.3.7", "Redundant Entry", "A", "2.2"),
  c("3.3.8", "Accessible Authentication (Minimum)", "AA", "2.2"),
  c("3.3.9", "Accessible Authentication (Enhanced)", "AAA", "2.2"),
  // 4 Robust
  { ...c("4.1.1", "Parsing", "A"), obsolete: true },
  c("4.1.2", "Name, Role, Value", "A"),
  c("4.1.3", "Status Messages", "AA", "2.1"),
];

const BY_SC: ReadonlyMap<string, WcagCriterion> = new Map(WCAG_CRITERIA.map((x) => [x.sc, x]));

/** The criterion with this number ("1.4.10"), or undefined. */
export const criterion = (sc: string): WcagCriterion | undefined => BY_SC.get(sc);

/**
 * The success criterion an axe tag names: `wcag111` → 1.1.1, `wcag1410` → 1.4.10, `wcag2411` → 2.4.11, `wcag412` →
 * 4.1.2. The first digit is the principle and the second the guideline (no principle has more than five guidelines,
 * so one digit each); the rest is the criterion's number. Tags that name a conformance level (`wcag2aa`, `wcag21a`)
 * or no known criterion answer undefined.
 */
export function criterionOfTag(tag: string): WcagCriterion | undefined {
  const m = /^wcag(\d)(\d)(\d{1,2})$/.exec(tag.trim().toLowerCase());
  if (!m) return undefined;
  return BY_SC.get(`${m[1]}.${m[2]}.${Number(m[3])}`);
}

/** The success criteria that a rule's axe tags name, in table order, each once. */
export function criteriaOfTags(tags: readonly string[]): WcagCriterion[] {
  const found = new Set<WcagCriterion>();
  for (const t of tags) {
    const x = criterionOfTag(t);
    if (x) found.add(x);
  }
  return WCAG_CRITERIA.filter((x) => found.has(x));
}

/**
 * A plain fix for each axe-core rule that carries the audit's tags (axe-core 4.11.0: 69 rules, of which axe.run skips
 * the 7 experimental or deprecated ones; plus aria-tab-name, which later 4.x releases add), written for the web developer who owns
 * the page.
 */
export const FIXES: Readonly<Record<string, string>> = {
  "area-alt": "Give every <area> with an href an alt attribute (or aria-label) that says where the link goes.",
  "aria-allowed-attr": "Remove ARIA attributes the element's role does not support, or change the role to one that supports them.",
  "aria-braille-equivalent":
    "When you use aria-braillelabel or aria-brailleroledescription, also give the element a normal accessible name or aria-roledescription.",
  "aria-command-name": "Give every element with role button, link or menuitem a name: visible text inside it, aria-label, or aria-labelledby.",
  "aria-conditional-attr":
    "Use ARIA attributes only where the element's role allows them (for example no aria-checked on a native checkbox, no aria-expanded on a row outside a treegrid); rely on the native state instead.",
  "aria-deprecated-role": "Replace deprecated ARIA roles (such as directory) with a current role or the native HTML element.",
  "aria-hidden-body": 'Remove aria-hidden="true" from the <body>: it hides the whole page from assistive technology.',
  "aria-hidden-focus": 'Make content inside aria-hidden="true" unfocusable (tabindex="-1", disabled, or the inert attribute), or stop hiding it.',
  "aria-input-field-name":
    "Give every element with an ARIA input role (combobox, listbox, searchbox, slider, spinbutton, textbox) a name with aria-label or aria-labelledby.",
  "aria-meter-name": 'Give every role="meter" element a name with aria-label or aria-labelledby.',
  "aria-progressbar-name": 'Give every role="progressbar" element a name with aria-label or aria-labelledby.',
  "aria-prohibited-attr":
    'Remove aria-label and aria-labelledby from elements whose role cannot be named (such as generic <div> or <span>, or role="presentation"), or give the element a role that can.',
  "aria-required-attr":
    'Add the ARIA attributes the role requires (for example aria-checked on role="checkbox", aria-level on role="heading", aria-valuenow on role="slider").',
  "aria-required-children":
    'Give elements with a composite role the children that role needs (for example role="option" inside role="listbox", role="listitem" inside role="list"), or use the native HTML elements.',
  "aria-required-parent":
    "Put elements with roles like listitem, option, tab, row or menuitem inside the parent role they belong to (list, listbox, tablist, table or grid, menu).",
  "aria-roledescription": "Use aria-roledescription only on elements that have a semantic role (native or an explicit role attribute).",
  "aria-roles": "Fix the role attribute: use only valid, non-abstract WAI-ARIA role names, spelled correctly.",
  "aria-tab-name": 'Give every role="tab" element a name: text inside it, aria-label or aria-labelledby.',
  "aria-toggle-field-name":
    "Give every element with a toggle role (checkbox, menuitemcheckbox, menuitemradio, radio, switch, option) a name: text inside it, aria-label or aria-labelledby.",
  "aria-tooltip-name": 'Give every role="tooltip" element a name: text inside it, aria-label or aria-labelledby.',
  "aria-valid-attr-value":
    "Give ARIA attributes valid values: true/false where boolean, allowed tokens where enumerated, and ids that exist in the page for aria-labelledby, aria-describedby and aria-controls.",
  "aria-valid-attr": "Fix misspelled or invented aria-* attributes: use only attribute names defined in WAI-ARIA.",
  "audio-caption": 'Provide a text transcript or captions (<track kind="captions">) for <audio> content.',
  "autocomplete-valid":
    'Use a valid autocomplete token that matches the field\'s purpose (for example "email", "given-name", "postal-code"), or remove the attribute.',
  "avoid-inline-spacing":
    "Do not set line-height, letter-spacing or word-spacing with !important in style attributes, so users' own stylesheets can change the spacing.",
  blink: "Remove <blink> elements; if something must draw attention, use a static style instead.",
  "button-name": "Give every button a name: visible text inside it, aria-label, aria-labelledby, or alt text on an image inside it.",
  bypass:
    'Add a "Skip to main content" link at the top of the page, or mark up the main content with <main> and headings so users can jump past repeated blocks.',
  "color-contrast": "Raise the contrast between text and its background to at least 4.5:1 (3:1 for large text: 24px, or 18.66px bold).",
  "css-orientation-lock": "Remove CSS that locks the page to portrait or landscape; let content work in both orientations.",
  "definition-list": "Put only <dt>/<dd> groups (optionally wrapped in <div>), <script> or <template> directly inside a <dl>.",
  dlitem: "Put <dt> and <dd> elements inside a <dl> (directly or in a <div> child of it).",
  "document-title": "Give the page a <title> in <head> that describes its topic or purpose.",
  "duplicate-id-aria": "Make ids unique in the page, especially those referenced by aria-labelledby, aria-describedby, label for, and other ARIA references.",
  "form-field-multiple-labels": "Give each form field one <label>; move extra text into that label or into aria-describedby.",
  "frame-focusable-content": 'Remove tabindex="-1" from frames that contain focusable content, so keyboard users can reach it.',
  "frame-title-unique": "Give each <iframe> a title that is different from the others and says what it contains.",
  "frame-title": "Give every <iframe> and <frame> a title attribute (or aria-label) that describes its content.",
  "html-has-lang": 'Add a lang attribute to the <html> element with the page\'s main language, for example lang="en".',
  "html-lang-valid": 'Set the <html> lang attribute to a valid BCP 47 language tag, for example "en" or "en-GB".',
  "html-xml-lang-mismatch": "Make the lang and xml:lang attributes on <html> name the same base language, or remove xml:lang.",
  "image-alt": 'Give every <img> an alt attribute: a short description of what the image conveys, or alt="" if it is purely decorative.',
  "input-button-name": 'Give every <input type="button|submit|reset"> a name with its value attribute, aria-label or aria-labelledby.',
  "input-image-alt": 'Give every <input type="image"> an alt attribute that says what the button does (for example "Search").',
  "label-content-name-mismatch":
    "Make the accessible name (aria-label) of controls start with, or at least contain, their visible text, so speech users can say what they see.",
  label: 'Associate a <label> with every form field (label for="id" or wrapping the field), or name it with aria-label or aria-labelledby.',
  "link-in-text-block":
    "Make links inside text distinguishable without colour: underline them, or give them 3:1 contrast with the surrounding text plus a non-colour cue on hover and focus.",
  "link-name": "Give every link a name: link text, aria-label, aria-labelledby, or alt text on an image inside it.",
  list: "Put only <li>, <script> or <template> elements directly inside <ul> and <ol>.",
  listitem: 'Put <li> elements inside a <ul>, <ol> or <menu> (or an element with role="list").',
  marquee: "Remove <marquee> elements; show the content statically or give users a way to pause it.",
  "meta-refresh": 'Remove <meta http-equiv="refresh"> with a delay; redirect on the server instead, or let the user choose when to refresh.',
  "meta-viewport": "Remove user-scalable=no and any maximum-scale below 2 from the viewport <meta> so users can zoom.",
  "nested-interactive":
    "Do not put focusable or interactive elements inside another interactive control (such as a link inside a button); place them side by side.",
  "no-autoplay-audio": "Do not autoplay audio longer than three seconds; remove autoplay, or provide controls to pause or mute it.",
  "object-alt": "Give every <object> a text alternative: aria-label, aria-labelledby or a title attribute.",
  "p-as-heading": "Use real heading elements (<h1>–<h6>) instead of bold or enlarged <p> text for headings.",
  "role-img-alt": 'Give every element with role="img" a name with aria-label or aria-labelledby, or make it decorative with role="presentation".',
  "scrollable-region-focusable":
    'Make scrollable regions reachable by keyboard: give them tabindex="0" and a name, or make sure they contain a focusable element.',
  "select-name": "Associate a <label> with every <select>, or name it with aria-label or aria-labelledby.",
  "server-side-image-map": "Replace server-side image maps (<img ismap>) with client-side <map>/<area> elements or ordinary links.",
  "summary-name": "Give every <summary> element visible text (or aria-label) that says what the disclosure contains.",
  "svg-img-alt": 'Give every <svg role="img"> a name: a <title> child, aria-label, or aria-labelledby.',
  "table-fake-caption": "Use a <caption> element for a table's caption instead of a cell that spans all columns.",
  "target-size":
    "Make touch targets at least 24 by 24 CSS pixels, or leave enough space around smaller ones that a 24px circle centred on each does not overlap another target.",
  "td-has-header": "Mark up header cells with <th> (with scope where needed) so every data cell in a large table has a header.",
  "td-headers-attr": "Make the headers attribute of each cell list only ids of <th> cells in the same table.",
  "th-has-data-cells": "Make every table header describe data cells: remove empty or misplaced <th>, or fix its scope.",
  "valid-lang": 'Set lang attributes on elements to valid BCP 47 language tags, for example "fr" or "pt-BR".',
  "video-caption": 'Add captions to <video> with a <track kind="captions"> element (or open captions in the video itself).',
};

/** The plain fix for an axe rule, or axe's own help text for a rule without one. */
export function fixFor(ruleId: string, help: string): string {
  return Object.hasOwn(FIXES, ruleId) ? FIXES[ruleId] : help;
}
