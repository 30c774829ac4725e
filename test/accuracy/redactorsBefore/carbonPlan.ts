/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/carbonPlan.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
export function scrubber(names: string[]): (s: string) => string {
  const res = names.map((n) => new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+"), "gi"));
  return (s: string) => {
    let out = s.replace(
      /(?<!\b(?:supplier|client|company|organi[sz]ation|business|bidder|file|trading|registered)(?:'s)?\s)\b(Name|Signed by|Signatory)(\s*:\s*)(?!\s*(?:Position|Title|Role|Date)\b)([^:\n(,]*?)(?=\s+(?:Position|Title|Role|Job title|Designation|Date|Signed|Signature)\b|\s*[(,]|$)/gi,
      (all, label: string, colon: string, v: string) => (v.trim() && /\p{L}/u.test(v) && !/^_+$/.test(v.trim()) ? `${label}${colon}[name]` : all),
    );
    for (const re of res) out = out.replace(re, "[name]");
    return out;
  };
}
