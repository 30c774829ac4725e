/**
 * The W3C ACT rules the accessibility audit claims to implement, each with the axe-core rules that implement it
 * (axe-core's own mapping in its published ACT implementation report). Pure.
 *
 * A rule is claimed only when the conformance run (npm run act, scripts/act.mjs), which runs axe-core in Chromium
 * with exactly the audit's options (axeOptions.ts) on the ACT test cases, agrees with the expected outcome on at
 * least 95% of the rule's cases and at least as often as axe-core's published report on the cases that report
 * answered; and every axe rule of the mapping is run by the audit's tags. The run fails when a claim stops holding.
 *
 * With axe-core 4.11.0, not claimed: 6cfa84 aria-hidden focus (93%), afw4f7 contrast (91%: text over images and
 * shadows come back "incomplete"), b4f0c3 meta viewport (88%: invalid user-scalable / maximum-scale values pass;
 * fixed in later axe-core), b5c3f8 html lang (86%: an XML page is shown by Chromium's XML viewer, an HTML page without
 * lang), bc659a meta refresh (93%: a later refresh after a 0-second one is flagged), cf77f2 bypass blocks (93%),
 * d0f69e header cells (81%: "incomplete"); 46ca7f, bisz58 and ffd0e9 need axe rules outside the WCAG A/AA tags
 * (presentation-role-conflict, meta-refresh-no-exceptions, empty-heading); 2t702h, e88epe, kb1m8s, off6ek and ucwvc8
 * have no axe-core procedure in the report.
 */
export interface ActRuleClaim {
  /** ACT rule id, "23a2a8". */
  act: string;
  /** ACT rule name. */
  name: string;
  /** The axe-core rules that implement it (a case fails when any of them has a violation). */
  axeRules: string[];
}

export const CLAIMED_ACT_RULES: readonly ActRuleClaim[] = [
  { act: "23a2a8", name: "Image has non-empty accessible name", axeRules: ["image-alt", "role-img-alt"] },
  { act: "2779a5", name: "HTML page has non-empty title", axeRules: ["document-title"] },
  { act: "307n5z", name: "Element with presentational children has no focusable content", axeRules: ["nested-interactive"] },
  { act: "4e8ab6", name: "Element with role attribute has required states and properties", axeRules: ["aria-required-attr"] },
  { act: "59796f", name: "Image button has non-empty accessible name", axeRules: ["input-image-alt"] },
  { act: "5c01ea", name: "ARIA state or property is permitted", axeRules: ["aria-allowed-attr"] },
  { act: "5f99a7", name: "ARIA attribute is defined in WAI-ARIA", axeRules: ["aria-valid-attr"] },
  { act: "674b10", name: "Role attribute has valid value", axeRules: ["aria-roles"] },
  { act: "6a7281", name: "ARIA state or property has valid value", axeRules: ["aria-valid-attr-value"] },
  { act: "73f2c2", name: "`autocomplete` attribute has valid value", axeRules: ["autocomplete-valid"] },
  { act: "7d6734", name: "SVG element with explicit role has non-empty accessible name", axeRules: ["svg-img-alt"] },
  { act: "8fc3b6", name: "Object element rendering non-text content has non-empty accessible name", axeRules: ["object-alt"] },
  { act: "97a4e1", name: "Button has non-empty accessible name", axeRules: ["button-name", "aria-command-name"] },
  { act: "a25f45", name: "Headers attribute specified on a cell refers to cells in the same table element", axeRules: ["td-headers-attr"] },
  { act: "bc4a75", name: "ARIA required owned elements", axeRules: ["aria-required-children"] },
  { act: "bf051a", name: "HTML page `lang` attribute has valid language tag", axeRules: ["html-lang-valid"] },
  { act: "c487ae", name: "Link has non-empty accessible name", axeRules: ["link-name", "area-alt"] },
  { act: "cae760", name: "Iframe element has non-empty accessible name", axeRules: ["frame-title"] },
  { act: "de46e4", name: "Element with lang attribute has valid language tag", axeRules: ["valid-lang"] },
  { act: "e086e5", name: "Form field has non-empty accessible name", axeRules: ["label", "aria-input-field-name", "select-name"] },
  { act: "ff89c9", name: "ARIA required context role", axeRules: ["aria-required-parent", "aria-required-children"] },
  { act: "m6b1q3", name: "Menuitem has non-empty accessible name", axeRules: ["button-name"] },
];
