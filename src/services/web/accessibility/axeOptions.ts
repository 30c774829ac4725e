/**
 * The accessibility audit's rule set: axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA, run in the
 * rendered page. The same options are used by the operation and by the ACT conformance run (scripts/act.mjs), so the
 * agreement it reports is the audit's own.
 */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"] as const;

/** Options for axe.run(document, options). Passes are listed by rule, with one example node each (resultTypes). */
export const AXE_RUN_OPTIONS = {
  runOnly: { type: "tag", values: [...AXE_TAGS] },
  resultTypes: ["violations", "incomplete"],
  // Frames are not entered: axe runs in the top document only (the reply says how many frames were not audited).
  iframes: false,
  selectors: true,
  ancestry: false,
  xpath: false,
  absolutePaths: false,
  performanceTimer: false,
} as const;
