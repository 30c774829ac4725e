/**
 * The site a host belongs to: its registrable domain ("www.shop.example.co.uk" → "example.co.uk"), enough to tell a
 * page's own requests and links from third parties'. UK second-level suffixes are known by name; elsewhere the last
 * two labels are the site (a small, deliberate stand-in for the Public Suffix List).
 */
const UK_SECOND_LEVEL = new Set(["co", "org", "ac", "gov", "ltd", "plc", "me", "net", "sch", "nhs", "police", "mod", "nic"]);
const OTHER_TWO_LABEL = new Set([
  "com.au",
  "net.au",
  "org.au",
  "co.nz",
  "org.nz",
  "co.jp",
  "co.za",
  "com.br",
  "co.in",
  "com.cn",
  "com.hk",
  "com.sg",
  "co.il",
  "co.kr",
  "com.mx",
  "com.tr",
]);

export function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (/^[\d.]+$/.test(h) || h.includes(":")) return h; // an address is its own site
  const labels = h.split(".");
  if (labels.length <= 2) return h;
  const lastTwo = labels.slice(-2).join(".");
  const twoLabelSuffix = (labels.at(-1) === "uk" && UK_SECOND_LEVEL.has(labels.at(-2)!)) || OTHER_TWO_LABEL.has(lastTwo);
  return labels.slice(twoLabelSuffix ? -3 : -2).join(".");
}

/** Whether two hosts are the same site. */
export const sameSite = (a: string, b: string): boolean => siteOf(a) === siteOf(b);
