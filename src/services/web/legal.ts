/**
 * The legal basics of a UK business website (website-legal, SPEC §4.8), judged from what was read: the pages
 * (homepage and the legal pages it links to), the Companies House profile of the number the site states, and the
 * homepage as a browser rendered it (cookies and requests before any interaction). Pure: the operation fetches,
 * this decides.
 *
 * Every check answers `found`, `not_found` or `unknown` (couldn't tell), with the evidence quoted (a short quote and
 * the page it was on) and the rule cited. Quotes are short and centred on what was matched; people's names are
 * taken out of them (SPEC §1 rule 7). Nothing here is legal advice (SPEC §1 rule 2).
 */
import type { CompanyProfile } from "../companies/profile";
import { siteOf } from "../net/site";
import {
  type StatedAddress,
  type StatedVat,
  describeEmail,
  findName,
  normaliseAddressText,
  normalisePostcode,
  sameCompanyName,
  statedAddresses,
  statedCompanyNames,
  statedCompanyNumbers,
  statedEmails,
  statedPlaces,
  statedVatNumbers,
  ukPartOfJurisdiction,
  type UkPart,
} from "./disclosures";
import type { RenderedCookie, RenderedPage } from "./rendered";
import type { LinkKind, PageLink, ReadPage } from "./siteLinks";

// ---------------------------------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------------------------------

/** A page that was read: the homepage, or a legal page it links to. */
export interface PageRead extends ReadPage {
  url: string;
  kind: "home" | LinkKind;
}

/** A page that was meant to be read but could not be. */
export interface PageNotRead {
  url: string;
  kind: LinkKind;
  reason: string;
}

/** The register's answer for one stated number: its profile, or null when Companies House does not know it. */
export interface RegisterAnswer {
  number: string;
  profile: CompanyProfile | null;
}

export type RenderOutcome = { page: RenderedPage } | { reason: string };

export type Status = "found" | "not_found" | "unknown";

export interface Evidence {
  quote: string;
  url: string;
}

export interface Rule {
  law: string;
  section: string;
}

export interface Check {
  status: Status;
  ok: boolean | null;
  requirement: "required" | "required_if" | "good_practice";
  rules: Rule[];
  evidence: Evidence[];
  findings: string[];
  note: string;
}

export interface TradingDisclosures extends Check {
  stated: {
    companyNumber: string | null;
    otherNumbers: string[];
    registeredName: string | null;
    placeOfRegistration: string | null;
    registeredOffice: string | null;
  };
  register: {
    checked: boolean;
    found: boolean | null;
    number: string | null;
    name: string | null;
    status: string | null;
    registeredOffice: string | null;
    nameMatches: boolean | null;
    officeMatches: "postcode_and_first_line" | "postcode_only" | "different" | "not_stated" | null;
    placeMatches: boolean | null;
  };
}

export interface ContactDetails extends Check {
  email: boolean;
  geographicAddress: boolean;
  poBoxOnly: boolean;
}

export interface VatCheck extends Check {
  numbers: Omit<StatedVat, "quote">[];
}

export interface CookieFinding {
  name: string;
  domain: string;
  thirdParty: boolean;
  category: CookieCategory;
  /** Counted against the site: set before consent and not strictly necessary. */
  counted: boolean;
}

export interface TrackerFinding {
  service: string;
  host: string;
  /** The request was made by the page; `refused` when this service's browser did not let it through (it was still attempted). */
  refused: boolean;
}

export interface CookieCheck extends Check {
  cookies: CookieFinding[];
  trackers: TrackerFinding[];
  consentTool: string | null;
}

export interface LinkCheck extends Check {
  link: { url: string; text: string; page: string } | null;
}

export interface TermsCheck extends LinkCheck {
  kind: "terms_of_business" | "website_terms" | "terms" | null;
}

export interface LegalChecks {
  tradingDisclosures: TradingDisclosures;
  contactDetails: ContactDetails;
  vatNumber: VatCheck;
  privacyNotice: LinkCheck;
  cookiesBeforeConsent: CookieCheck;
  termsOfBusiness: TermsCheck;
  modernSlaveryStatement: LinkCheck;
  accessibilityStatement: LinkCheck;
}

export interface LegalReport {
  company: { name: string; number: string; status: string } | null;
  summary: string;
  problems: string[];
  checks: LegalChecks;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules cited
// ---------------------------------------------------------------------------------------------------------------

const NAMES_REGS = "Company, Limited Liability Partnership and Business (Names and Trading Disclosures) Regulations 2015";
const ECOMMERCE_REGS = "Electronic Commerce (EC Directive) Regulations 2002";

export const RULES = {
  tradingDisclosures: [
    { law: NAMES_REGS, section: "reg. 24 (registered name on its websites)" },
    { law: NAMES_REGS, section: "reg. 25 (part of the UK where registered, registered number, registered office address)" },
    { law: ECOMMERCE_REGS, section: "reg. 6(1)(d) (the register the business is entered in and its number)" },
  ],
  contactDetails: [
    { law: ECOMMERCE_REGS, section: "reg. 6(1)(b) (the geographic address at which the service provider is established)" },
    { law: ECOMMERCE_REGS, section: "reg. 6(1)(c) (details, including an email address, for rapid, direct contact)" },
  ],
  vatNumber: [{ law: ECOMMERCE_REGS, section: "reg. 6(1)(g) (the VAT number, where the activity is subject to VAT)" }],
  privacyNotice: [{ law: "UK GDPR", section: "Art. 13 (information to be provided where personal data are collected from the data subject)" }],
  cookiesBeforeConsent: [
    {
      law: "Privacy and Electronic Communications (EC Directive) Regulations 2003 (PECR)",
      section: "reg. 6 (consent to storing or accessing information on a user's device, unless strictly necessary)",
    },
  ],
  termsOfBusiness: [
    {
      law: "Consumer Contracts (Information, Cancellation and Additional Charges) Regulations 2013",
      section: "regs. 10 and 13, Sch. 2 (information before a distance contract with a consumer)",
    },
    { law: ECOMMERCE_REGS, section: "reg. 9(3) (terms and conditions made available in a way that allows them to be stored and reproduced)" },
  ],
  modernSlaveryStatement: [
    { law: "Modern Slavery Act 2015", section: "s.54(7) (statement published on the website with a link in a prominent place on its homepage)" },
  ],
  accessibilityStatement: [
    { law: "Public Sector Bodies (Websites and Mobile Applications) (No. 2) Accessibility Regulations 2018", section: "reg. 8 (accessibility statement)" },
  ],
} as const satisfies Record<keyof LegalChecks, readonly Rule[]>;

/** The checks' names in words, in the reply's order. */
export const CHECK_LABELS: Record<keyof LegalChecks, string> = {
  tradingDisclosures: "trading disclosures (registered name, number, place of registration, registered office)",
  contactDetails: "contact details (a geographic address and an email address)",
  vatNumber: "VAT number",
  privacyNotice: "privacy notice",
  cookiesBeforeConsent: "cookies or trackers before consent",
  termsOfBusiness: "terms of business",
  modernSlaveryStatement: "modern slavery statement link on the homepage",
  accessibilityStatement: "accessibility statement",
};

// ---------------------------------------------------------------------------------------------------------------
// Cookies and trackers
// ---------------------------------------------------------------------------------------------------------------

export type CookieCategory = "necessary" | "consent" | "analytics" | "advertising" | "unknown";

/** Cookie names by what they are for. Exact names, or prefixes ending in "*". */
const COOKIE_CATALOGUE: [CookieCategory, string[]][] = [
  [
    "consent",
    [
      "CookieConsent",
      "CookieConsentBulkSetting-*",
      "OptanonConsent",
      "OptanonAlertBoxClosed",
      "cookieyes-consent",
      "cookielawinfo-*",
      "CookieLawInfoConsent",
      "viewed_cookie_policy",
      "cmplz_*",
      "complianz_*",
      "euconsent",
      "euconsent-v2",
      "eupubconsent-v2",
      "borlabs-cookie",
      "cookie_consent*",
      "cookieconsent_*",
      "cookie-consent*",
      "CookieControl",
      "_iub_cs-*",
      "didomi_token",
      "uc_*",
      "usercentrics*",
      "axeptio_*",
      "klaro",
      "cc_cookie",
      "termly-*",
      "osano_*",
      "notice_preferences",
      "notice_gdpr_prefs",
      "TAconsentID",
      "cookiefirst-consent",
      "CookieScriptConsent",
      "__cmpcc*",
      "__cmpconsent*",
      "moove_gdpr_popup",
      "gdpr*",
      "consent*",
      "cookies_accepted",
      "cookies-accepted",
      "cookie_notice_accepted",
      "catAccCookies",
      "ckns_policy*",
      "ck_consent",
    ],
  ],
  [
    "necessary",
    [
      "PHPSESSID",
      "JSESSIONID",
      "ASP.NET_SessionId",
      "ASPSESSIONID*",
      ".AspNetCore.*",
      "__RequestVerificationToken*",
      "session",
      "sessionid",
      "session_id",
      "sid",
      "*_session",
      "connect.sid",
      "XSRF-TOKEN",
      "csrftoken",
      "csrf*",
      "_csrf*",
      "__Host-*",
      "__cf_bm",
      "cf_clearance",
      "__cflb",
      "__cfruid",
      "_cfuvid",
      "AWSALB*",
      "AWSELB*",
      "SERVERID",
      "ARRAffinity*",
      "TiPMix",
      "x-ms-routing-name",
      "BIGipServer*",
      "incap_ses_*",
      "visid_incap_*",
      "nlbi_*",
      "ak_bmsc",
      "bm_sv",
      "bm_sz",
      "_abck",
      "wordpress_test_cookie",
      "wp-settings-*",
      "wordpress_logged_in_*",
      "wordpress_sec_*",
      "woocommerce_cart_hash",
      "woocommerce_items_in_cart",
      "wp_woocommerce_session_*",
      "cart",
      "cart_currency",
      "cart_sig",
      "cart_ts",
      "secure_customer_sig",
      "localization",
      "_secure_session_id",
      "_shopify_essential",
      "__stripe_mid",
      "__stripe_sid",
      "lang",
      "language",
      "locale",
      "currency",
      "pll_language",
      "wp-wpml_current_language",
      "_icl_current_language",
      "hasCookie",
      "cookietest",
      "test_cookie_check",
      "frontend",
      "frontend_cid",
      "form_key",
      "mage-*",
      "PrestaShop-*",
      "OCSESSID",
      "laravel_session",
      "ci_session",
      "JSESSIONID*",
      "ROUTEID",
      "__Secure-*",
      "_GRECAPTCHA",
      "rc::*",
      "__hs_opt_out",
      "__hs_do_not_track",
    ],
  ],
  [
    "analytics",
    [
      "_ga",
      "_ga_*",
      "_gid",
      "_gat",
      "_gat_*",
      "__utma",
      "__utmb",
      "__utmc",
      "__utmt",
      "__utmz",
      "__utmv",
      "_hjSession*",
      "_hjid",
      "_hjSessionUser_*",
      "_hjFirstSeen",
      "_hjIncludedInSessionSample*",
      "_hjAbsoluteSessionInProgress",
      "_hjTLDTest",
      "_hj*",
      "_clck",
      "_clsk",
      "CLID",
      "SM",
      "MR",
      "ajs_anonymous_id",
      "ajs_user_id",
      "amplitude_*",
      "AMP_*",
      "mp_*",
      "_pk_id*",
      "_pk_ses*",
      "_pk_ref*",
      "__hstc",
      "hubspotutk",
      "__hssc",
      "__hssrc",
      "_vwo*",
      "_vis_opt_*",
      "optimizely*",
      "_shopify_y",
      "_shopify_s",
      "_shopify_sa_t",
      "_shopify_sa_p",
      "_orig_referrer",
      "_landing_page",
      "_y",
      "_s",
      "mf_*",
      "_uetsid_exp",
      "__kla_id",
      "_lfa",
      "_mkto_trk",
      "vuid",
      "_dc_gtm_*",
      "_cs_*",
      "_fs_*",
      "fs_uid",
      "ln_or",
      "__insp_*",
      "_lo_*",
      "_ce.*",
      "ph_*",
      "_plausible*",
      "_zitok",
      "wisepops*",
    ],
  ],
  [
    "advertising",
    [
      "_fbp",
      "_fbc",
      "fr",
      "_gcl_au",
      "_gcl_aw",
      "_gcl_dc",
      "_gcl_*",
      "IDE",
      "test_cookie",
      "DSID",
      "__gads",
      "__gpi",
      "__eoi",
      "_ttp",
      "_tt_enable_cookie",
      "ttcsid*",
      "li_fat_id",
      "li_sugr",
      "bcookie",
      "lidc",
      "UserMatchHistory",
      "AnalyticsSyncHistory",
      "bscookie",
      "_pin_unauth",
      "_pinterest_ct_ua",
      "personalization_id",
      "guest_id",
      "guest_id_ads",
      "guest_id_marketing",
      "muc_ads",
      "_scid",
      "_scid_r",
      "_sctr",
      "_rdt_uuid",
      "MUID",
      "ANONCHK",
      "_uetsid",
      "_uetvid",
      "uuid2",
      "anj",
      "cto_bundle",
      "cto_bidid",
      "t_gid",
      "taboola_*",
      "obuid",
      "__qca",
      "mc",
      "IDSYNC",
      "_tt_*",
      "YSC",
      "VISITOR_INFO1_LIVE",
      "VISITOR_PRIVACY_METADATA",
      "yt-remote-*",
      "NID",
      "__Secure-3PSID*",
      "__Secure-3PAPISID",
      "1P_JAR",
      "AEC",
      "_awl",
      "tuuid",
      "tuuid_lu",
      "c",
      "KTPCACOOKIE",
      "_an_uid",
    ],
  ],
];

function cookieMatches(pattern: string, name: string): boolean {
  if (pattern.endsWith("*") && pattern.startsWith("*")) return name.includes(pattern.slice(1, -1));
  if (pattern.endsWith("*")) return name.toLowerCase().startsWith(pattern.slice(0, -1).toLowerCase());
  if (pattern.startsWith("*")) return name.toLowerCase().endsWith(pattern.slice(1).toLowerCase());
  return name === pattern || name.toLowerCase() === pattern.toLowerCase();
}

/** What a cookie is for, by its name. Exact names win over prefixes; consent and necessary over the rest. */
export function cookieCategory(name: string): CookieCategory {
  for (const [category, patterns] of COOKIE_CATALOGUE) if (patterns.some((p) => !p.includes("*") && cookieMatches(p, name))) return category;
  for (const [category, patterns] of COOKIE_CATALOGUE) if (patterns.some((p) => p.includes("*") && cookieMatches(p, name))) return category;
  return "unknown";
}

/** Hosts of trackers and what they are: a request to the host or a subdomain of it, or to the host and path given. */
const TRACKERS: [string, string][] = [
  ["google-analytics.com", "Google Analytics"],
  ["analytics.google.com", "Google Analytics"],
  ["googletagmanager.com", "Google Tag Manager"],
  ["doubleclick.net", "Google Ads (DoubleClick)"],
  ["googleadservices.com", "Google Ads"],
  ["googlesyndication.com", "Google AdSense"],
  ["adservice.google.com", "Google Ads"],
  ["google.com/pagead", "Google Ads"],
  ["google.com/ccm", "Google Ads"],
  ["connect.facebook.net", "Meta (Facebook) Pixel"],
  ["facebook.com/tr", "Meta (Facebook) Pixel"],
  ["hotjar.com", "Hotjar"],
  ["hotjar.io", "Hotjar"],
  ["clarity.ms", "Microsoft Clarity"],
  ["bat.bing.com", "Microsoft Advertising (Bing UET)"],
  ["bat.bing.net", "Microsoft Advertising (Bing UET)"],
  ["snap.licdn.com", "LinkedIn Insight Tag"],
  ["px.ads.linkedin.com", "LinkedIn Insight Tag"],
  ["ads.linkedin.com", "LinkedIn Ads"],
  ["analytics.tiktok.com", "TikTok Pixel"],
  ["static.ads-twitter.com", "X (Twitter) Pixel"],
  ["analytics.twitter.com", "X (Twitter) Pixel"],
  ["ads-twitter.com", "X (Twitter) Ads"],
  ["t.co/i/adsct", "X (Twitter) Pixel"],
  ["ct.pinterest.com", "Pinterest Tag"],
  ["s.pinimg.com/ct", "Pinterest Tag"],
  ["sc-static.net", "Snap Pixel"],
  ["tr.snapchat.com", "Snap Pixel"],
  ["redditstatic.com/ads", "Reddit Pixel"],
  ["alb.reddit.com", "Reddit Pixel"],
  ["js.hs-scripts.com", "HubSpot"],
  ["js.hs-analytics.net", "HubSpot"],
  ["track.hubspot.com", "HubSpot"],
  ["js.hsadspixel.net", "HubSpot Ads"],
  ["cdn.segment.com", "Segment"],
  ["api.segment.io", "Segment"],
  ["cdn.mxpnl.com", "Mixpanel"],
  ["api-js.mixpanel.com", "Mixpanel"],
  ["cdn.amplitude.com", "Amplitude"],
  ["api2.amplitude.com", "Amplitude"],
  ["mc.yandex.ru", "Yandex Metrica"],
  ["quantserve.com", "Quantcast"],
  ["scorecardresearch.com", "Comscore"],
  ["criteo.com", "Criteo"],
  ["criteo.net", "Criteo"],
  ["taboola.com", "Taboola"],
  ["outbrain.com", "Outbrain"],
  ["adnxs.com", "Xandr"],
  ["mouseflow.com", "Mouseflow"],
  ["fullstory.com", "FullStory"],
  ["crazyegg.com", "Crazy Egg"],
  ["luckyorange.com", "Lucky Orange"],
  ["luckyorange.net", "Lucky Orange"],
  ["smartlook.com", "Smartlook"],
  ["inspectlet.com", "Inspectlet"],
  ["cdn.matomo.cloud", "Matomo Cloud"],
  ["vwo.com", "VWO"],
  ["visualwebsiteoptimizer.com", "VWO"],
  ["cdn.optimizely.com", "Optimizely"],
  ["static.klaviyo.com", "Klaviyo"],
  ["munchkin.marketo.net", "Marketo"],
  ["px.ads.linkedin.com", "LinkedIn Insight Tag"],
  ["cdn.heapanalytics.com", "Heap"],
  ["heapanalytics.com", "Heap"],
  ["script.crazyegg.com", "Crazy Egg"],
  ["leadforensics.com", "Lead Forensics"],
  ["lfeeder.com", "Leadfeeder"],
  ["sc.lfeeder.com", "Leadfeeder"],
];

/** Consent tools, by host of their script or by their cookie. */
const CONSENT_TOOLS: [RegExp, string][] = [
  [/(?:^|\.)cookiebot\.com$|^CookieConsent$/i, "Cookiebot"],
  [/(?:^|\.)cookielaw\.org$|(?:^|\.)onetrust\.com$|^Optanon/i, "OneTrust"],
  [/(?:^|\.)cookieyes\.com$|^cookieyes-consent$/i, "CookieYes"],
  [/(?:^|\.)termly\.io$|^termly-/i, "Termly"],
  [/(?:^|\.)cookie-script\.com$|^CookieScriptConsent$/i, "Cookie-Script"],
  [/(?:^|\.)civiccomputing\.com$|^CookieControl$/i, "Civic Cookie Control"],
  [/(?:^|\.)iubenda\.com$|^_iub_cs-/i, "iubenda"],
  [/(?:^|\.)usercentrics\.eu$|^uc_/i, "Usercentrics"],
  [/(?:^|\.)privacy-center\.org$|^didomi_token$/i, "Didomi"],
  [/(?:^|\.)osano\.com$|^osano_/i, "Osano"],
  [/(?:^|\.)trustarc\.com$|^notice_(?:preferences|gdpr_prefs)$/i, "TrustArc"],
  [/(?:^|\.)consentmanager\.net$|^__cmp/i, "consentmanager"],
  [/(?:^|\.)quantcast\.com$|^euconsent-v2$/i, "a TCF consent tool"],
  [/^cmplz_|^complianz_/i, "Complianz"],
  [/^cookielawinfo-|^CookieLawInfoConsent$|^viewed_cookie_policy$/i, "CookieYes (GDPR Cookie Consent plugin)"],
  [/^cookiefirst-consent$|(?:^|\.)cookiefirst\.com$/i, "CookieFirst"],
  [/^borlabs-cookie$/i, "Borlabs Cookie"],
  [/^moove_gdpr_popup$/i, "GDPR Cookie Compliance (Moove)"],
];

/** The tracker a request went to, if any. */
export function trackerOf(url: string): { service: string; host: string } | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  const path = u.pathname.toLowerCase();
  for (const [pattern, service] of TRACKERS) {
    const slash = pattern.indexOf("/");
    const h = slash < 0 ? pattern : pattern.slice(0, slash);
    const p = slash < 0 ? "" : pattern.slice(slash);
    if ((host === h || host.endsWith(`.${h}`)) && (!p || path.startsWith(p))) return { service, host };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------------------------

const TEXT_LIMIT = 400_000;

/** The company numbers worth asking Companies House about, most stated first (footer and homepage first), at most 3. */
export function numbersToCheck(pages: PageRead[], max = 3): string[] {
  const score = new Map<string, number>();
  pages.forEach((p, i) => {
    for (const s of statedCompanyNumbers(p.text.slice(0, TEXT_LIMIT))) {
      const inFooter = p.footerText.includes(s.number) || statedCompanyNumbers(p.footerText).some((f) => f.number === s.number);
      score.set(s.number, (score.get(s.number) ?? 0) + (i === 0 ? 3 : 1) + (inFooter ? 2 : 0));
    }
  });
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([n]) => n);
}

interface Located<T> {
  item: T;
  url: string;
}

function everywhere<T>(pages: PageRead[], read: (text: string) => T[]): Located<T>[] {
  return pages.flatMap((p) => read(p.text.slice(0, TEXT_LIMIT)).map((item) => ({ item, url: p.url })));
}

const PART_NAMES: Record<UkPart, string> = { "england-wales": "England and Wales", scotland: "Scotland", "northern-ireland": "Northern Ireland" };

/** The part of the UK a company number's register is in, by its prefix. */
function partOfNumber(n: string): UkPart {
  if (/^(?:SC|SO|SL|SP|SA|SF|SG|SI|SR|SZ|SE)/.test(n)) return "scotland";
  if (/^(?:NI|NC|NF|NL|NO|NP|NR|NA|NV|R0)/.test(n)) return "northern-ireland";
  return "england-wales";
}

const NAME_FORMS = /\b(?:ltd|limited|plc|llp|cic|cyfyngedig)\b\.?/i;

function tradingDisclosures(pages: PageRead[], register: RegisterAnswer[] | null): TradingDisclosures {
  const numbers = everywhere(pages, statedCompanyNumbers);
  const ordered = numbersToCheck(pages);
  const known = register?.find((r) => r.profile) ?? null;
  const primary = known?.number ?? ordered[0] ?? null;
  const primaryAt = numbers.find((n) => n.item.number === primary) ?? null;
  const evidence: Evidence[] = [];
  const findings: string[] = [];
  if (primaryAt) evidence.push({ quote: primaryAt.item.quote, url: primaryAt.url });

  const places = everywhere(pages, statedPlaces);
  const addresses = everywhere(pages, statedAddresses);
  const names = everywhere(pages, statedCompanyNames);
  const profile = known?.profile ?? null;

  // Registered name.
  let statedName: string | null = null;
  let nameMatches: boolean | null = null;
  if (profile) {
    const exact = pages.map((p) => ({ f: findName(p.text.slice(0, TEXT_LIMIT), profile.name), url: p.url })).find((x) => x.f?.exact);
    if (exact?.f) {
      statedName = profile.name;
      nameMatches = true;
      evidence.push({ quote: exact.f.quote, url: exact.url });
    } else {
      const former = profile.previousNames.find((pn) => names.some((n) => sameCompanyName(n.item.name, pn.name)));
      const near = names.find((n) => primaryAt && n.url === primaryAt.url && primaryAt.item.quote.includes(n.item.name)) ?? names[0];
      const partial = pages.map((p) => ({ f: findName(p.text.slice(0, TEXT_LIMIT), profile.name), url: p.url })).find((x) => x.f);
      nameMatches = false;
      if (former) {
        statedName = former.name;
        const at = names.find((n) => sameCompanyName(n.item.name, former.name))!;
        evidence.push({ quote: at.item.quote, url: at.url });
        findings.push(
          `The site gives a former name of the company ("${former.name}"${former.until ? `, changed on ${former.until}` : ""}); its registered name is "${profile.name}".`,
        );
      } else if (near) {
        statedName = near.item.name;
        evidence.push({ quote: near.item.quote, url: near.url });
        findings.push(`The site gives the name "${near.item.name}", which is not the registered name "${profile.name}".`);
      } else if (partial?.f) {
        evidence.push({ quote: partial.f.quote, url: partial.url });
        findings.push(`The site uses the name without its legal form; the registered name, "${profile.name}", was not found in full.`);
      } else {
        findings.push(`The registered name, "${profile.name}", was not found on the pages read.`);
      }
    }
  } else {
    const near = names.find((n) => primaryAt && n.url === primaryAt.url && primaryAt.item.quote.includes(n.item.name)) ?? names[0];
    if (near) {
      statedName = near.item.name;
      if (!evidence.some((e) => e.quote === near.item.quote)) evidence.push({ quote: near.item.quote, url: near.url });
    }
  }

  // Part of the UK.
  const expectedPart: UkPart | null = profile
    ? (ukPartOfJurisdiction(profile.jurisdiction) ?? partOfNumber(profile.number))
    : primary
      ? partOfNumber(primary)
      : null;
  const place = places.find((p) => expectedPart && p.item.part === expectedPart) ?? places[0] ?? null;
  let placeMatches: boolean | null = null;
  if (place) {
    if (!evidence.some((e) => e.quote === place.item.quote)) evidence.push({ quote: place.item.quote, url: place.url });
    if (expectedPart && profile) {
      placeMatches = place.item.part === expectedPart;
      if (!placeMatches) findings.push(`The site says the company is registered in ${place.item.place}; the register has it in ${PART_NAMES[expectedPart]}.`);
    }
  } else if (primary) {
    findings.push(`The part of the UK where the company is registered (e.g. "Registered in ${PART_NAMES[expectedPart ?? "england-wales"]}") was not found.`);
  }

  // Registered office.
  const labelled = addresses.filter((a) => a.item.registeredOffice && !a.item.poBoxOnly);
  let officeMatches: TradingDisclosures["register"]["officeMatches"] = null;
  let statedOffice: Located<StatedAddress> | null = labelled[0] ?? null;
  const registerPostcode = normalisePostcode(profile?.registeredOffice.postcode);
  if (profile) {
    const line1 = profile.registeredOffice.line1 ? normaliseAddressText(profile.registeredOffice.line1) : null;
    const firstLineIn = (a: StatedAddress) => !!line1 && ` ${normaliseAddressText(a.address)} `.includes(` ${line1} `);
    const samePostcode = (a: StatedAddress) => !!registerPostcode && a.postcode === registerPostcode;
    if (labelled.length) {
      const match = labelled.find((a) => samePostcode(a.item)) ?? null;
      statedOffice = match ?? labelled[0];
      if (match) officeMatches = firstLineIn(match.item) ? "postcode_and_first_line" : "postcode_only";
      else {
        officeMatches = "different";
        findings.push(
          `The registered office the site gives (${labelled[0].item.address}) is not the one on the register (${profile.registeredOffice.text})${registerPostcode ? `: the postcodes differ (${labelled[0].item.postcode}, ${registerPostcode})` : ""}.`,
        );
      }
      if (officeMatches === "postcode_only")
        findings.push(
          `The registered office the site gives has the register's postcode (${registerPostcode}) but not its first line ("${profile.registeredOffice.line1}").`,
        );
    } else {
      const unlabelled = addresses.find((a) => samePostcode(a.item) && !a.item.poBoxOnly) ?? null;
      if (unlabelled) {
        statedOffice = unlabelled;
        officeMatches = firstLineIn(unlabelled.item) ? "postcode_and_first_line" : "postcode_only";
      } else {
        officeMatches = "not_stated";
        findings.push(`The registered office address (on the register: ${profile.registeredOffice.text}) was not found on the pages read.`);
      }
    }
  } else if (!labelled.length && primary) {
    findings.push("No address labelled as the registered office was found.");
  }
  if (statedOffice && !evidence.some((e) => e.quote === statedOffice.item.quote)) evidence.push({ quote: statedOffice.item.quote, url: statedOffice.url });

  // The number against the register.
  let found: boolean | null = null;
  if (register && primary) {
    found = !!profile;
    if (!profile) findings.unshift(`The company number the site gives (${primary}) is not on the Companies House register.`);
    else if (profile.status && profile.status !== "active") findings.push(`The register shows the company as ${profile.status.replace(/-/g, " ")}.`);
  }

  const status: Status = primary ? "found" : "not_found";
  const looksLikeCompany = !primary && (names.length > 0 || pages.some((p) => NAME_FORMS.test(p.footerText)));
  if (!primary) findings.push("No company number was found on the pages read.");
  const ok = primary ? findings.length === 0 : looksLikeCompany ? false : null;
  return {
    status,
    ok,
    requirement: "required_if",
    rules: [...RULES.tradingDisclosures],
    evidence: evidence.slice(0, 6),
    findings,
    note: primary
      ? `Companies and LLPs must give on their websites their registered name, registered number, the part of the UK where they are registered and their registered office address.${register ? " The number was checked against Companies House." : ""}`
      : "Required of companies and LLPs; a sole trader or partnership has no company number to give (but must still give its name and geographic address).",
    stated: {
      companyNumber: primary,
      otherNumbers: [...new Set(numbers.map((n) => n.item.number))].filter((n) => n !== primary),
      registeredName: statedName,
      placeOfRegistration: place?.item.place ?? null,
      registeredOffice: statedOffice?.item.address ?? null,
    },
    register: {
      checked: !!register && !!primary,
      found,
      number: profile?.number ?? (register && primary ? primary : null),
      name: profile?.name ?? null,
      status: profile?.status ?? null,
      registeredOffice: profile?.registeredOffice.text ?? null,
      nameMatches,
      officeMatches,
      placeMatches,
    },
  };
}

function contactDetails(pages: PageRead[]): ContactDetails {
  const evidence: Evidence[] = [];
  const findings: string[] = [];
  const emails = pages.flatMap((p) => [
    ...statedEmails(p.text.slice(0, TEXT_LIMIT)).map((e) => ({ e, url: p.url })),
    ...p.mailto.flatMap((m) => {
      const at = m.lastIndexOf("@");
      return at > 0 ? [{ e: describeEmail(m.slice(0, at), m.slice(at + 1)), url: p.url }] : [];
    }),
  ]);
  const email = emails.find((x) => x.e.role) ?? emails[0] ?? null;
  if (email) evidence.push({ quote: email.e.role ? email.e.shown : `an email address at ${email.e.domain} (a personal address: not shown)`, url: email.url });
  const addresses = everywhere(pages, statedAddresses);
  const geographic = addresses.find((a) => !a.item.poBoxOnly) ?? null;
  const poBox = addresses.find((a) => a.item.poBoxOnly) ?? null;
  if (geographic) evidence.push({ quote: geographic.item.quote, url: geographic.url });
  else if (poBox) evidence.push({ quote: poBox.item.quote, url: poBox.url });
  if (!geographic)
    findings.push(
      poBox ? "Only a PO Box address was found: a PO Box is not a geographic address." : "No geographic postal address (with a UK postcode) was found.",
    );
  if (!email) findings.push("No email address was found (a contact form alone is not an email address).");
  const both = !!geographic && !!email;
  return {
    status: both ? "found" : "not_found",
    ok: both,
    requirement: "required",
    rules: [...RULES.contactDetails],
    evidence,
    findings,
    note: "A business selling or advertising online must give the geographic address where it is established and an email address.",
    email: !!email,
    geographicAddress: !!geographic,
    poBoxOnly: !geographic && !!poBox,
  };
}

function vatNumber(pages: PageRead[]): VatCheck {
  const found = everywhere(pages, statedVatNumbers);
  const seen = new Set<string>();
  const vats = found.filter((v) => !seen.has(v.item.number) && seen.add(v.item.number));
  const findings: string[] = [];
  for (const { item } of vats) {
    if (item.format === "invalid")
      findings.push(`The VAT number "${item.stated}" is not in a UK format (GB and 9 digits, 12 with a branch, or GBGD/GBHA and 3 digits).`);
    else if (item.checkDigits === "fail")
      findings.push(`The VAT number "${item.stated}": format valid, check digits fail (neither HMRC scheme, mod 97 or mod 9755).`);
  }
  return {
    status: vats.length ? "found" : "not_found",
    ok: vats.length ? findings.length === 0 : null,
    requirement: "required_if",
    rules: [...RULES.vatNumber],
    evidence: vats.slice(0, 3).map((v) => ({ quote: v.item.quote, url: v.url })),
    findings,
    note: vats.length
      ? "Format and HMRC check digits tested (format valid is not proof the number is registered: HMRC's VAT number service confirms that)."
      : "No VAT number was found: it must be shown only if the business is VAT-registered.",
    numbers: vats.map(({ item: { quote: _q, ...v } }) => v),
  };
}

/** The best link of a kind: on the homepage first, in its footer first; else on any page read. */
function linkOf(pages: PageRead[], kind: LinkKind, homeOnly = false): { link: PageLink; page: string } | null {
  for (const p of homeOnly ? pages.slice(0, 1) : pages) {
    const of = p.links.filter((l) => l.kinds.includes(kind));
    const best = of.find((l) => l.inFooter && l.sameSite) ?? of.find((l) => l.sameSite) ?? of[0];
    if (best) return { link: best, page: p.url };
  }
  return null;
}

const linkEvidence = (l: { link: PageLink; page: string }): Evidence => ({
  quote: `Link "${l.link.text || l.link.url}" to ${l.link.url}`.slice(0, 200),
  url: l.page,
});

function privacyNotice(pages: PageRead[], notRead: PageNotRead[]): LinkCheck {
  const l = linkOf(pages, "privacy");
  const findings: string[] = [];
  let ok: boolean | null = false;
  let note =
    "A site that collects personal data (a contact form, an order, analytics) must say who it is, why and on what basis it processes the data, and the visitor's rights.";
  if (l) {
    const failed = notRead.find((n) => n.url === l.link.url);
    const read = pages.some((p) => p.url === l.link.url || (p.kind === "privacy" && p.url !== pages[0].url));
    if (failed) findings.push(`The privacy notice link (${l.link.url}) could not be read: ${failed.reason}.`);
    ok = !failed;
    if (!failed && !read && !l.link.sameSite) note += " The notice is on another site and was not opened.";
  } else findings.push("No link to a privacy notice was found.");
  return {
    status: l ? "found" : "not_found",
    ok,
    requirement: "required",
    rules: [...RULES.privacyNotice],
    evidence: l ? [linkEvidence(l)] : [],
    findings,
    note,
    link: l ? { url: l.link.url, text: l.link.text, page: l.page } : null,
  };
}

function cookiesBeforeConsent(rendered: RenderOutcome): CookieCheck {
  const base = { requirement: "required" as const, rules: [...RULES.cookiesBeforeConsent] };
  if ("reason" in rendered)
    return {
      ...base,
      status: "unknown",
      ok: null,
      evidence: [],
      findings: [],
      note: `Couldn't tell: ${rendered.reason}`,
      cookies: [],
      trackers: [],
      consentTool: null,
    };
  const page = { ...rendered.page, cookies: rendered.page.cookies ?? [] }; // the operation asks for them (read.cookies)
  const cookies: CookieFinding[] = page.cookies.map((c: RenderedCookie) => {
    const category = cookieCategory(c.name);
    const counted = category === "analytics" || category === "advertising" || (category === "unknown" && c.thirdParty);
    return { name: c.name, domain: c.domain, thirdParty: c.thirdParty, category, counted };
  });
  const trackers: TrackerFinding[] = [];
  const seen = new Set<string>();
  for (const r of page.requests) {
    const t = trackerOf(r.url);
    if (!t) continue;
    const key = `${t.service}|${t.host}`;
    if (seen.has(key)) continue;
    seen.add(key);
    trackers.push({ ...t, refused: !!r.refused });
  }
  let consentTool: string | null = null;
  for (const [re, name] of CONSENT_TOOLS) {
    if (
      page.cookies.some((c) => re.test(c.name)) ||
      page.requests.some((r) => {
        try {
          return re.test(new URL(r.url).hostname);
        } catch {
          return false;
        }
      })
    ) {
      consentTool = name;
      break;
    }
  }
  const counted = cookies.filter((c) => c.counted);
  const findings: string[] = [];
  if (counted.length)
    findings.push(
      `${counted.length} non-essential cookie${counted.length === 1 ? " was" : "s were"} set before any consent: ${counted
        .slice(0, 8)
        .map((c) => `${c.name} (${c.category === "unknown" ? "third-party" : c.category})`)
        .join(", ")}.`,
    );
  if (trackers.length)
    findings.push(
      `The page asked for ${trackers.length === 1 ? "a tracker" : `${trackers.length} trackers`} before any consent: ${[...new Set(trackers.map((t) => t.service))].join(", ")}.`,
    );
  const unknownFirst = cookies.filter((c) => c.category === "unknown" && !c.thirdParty);
  const bad = counted.length > 0 || trackers.length > 0;
  const notes = [
    "Read from the homepage as a browser loaded it, with no click on any banner.",
    "Strictly necessary cookies (sessions, security, load balancing, the consent tool's own) are listed but not counted.",
  ];
  if (unknownFirst.length)
    notes.push(
      `${unknownFirst.length} first-party cookie${unknownFirst.length === 1 ? "" : "s"} of unknown purpose (not counted): ${unknownFirst
        .slice(0, 5)
        .map((c) => c.name)
        .join(", ")}.`,
    );
  if (page.cut.length) notes.push(`The load was cut short (${page.cut.join("; ")}): what loaded later was not seen.`);
  return {
    ...base,
    status: bad ? "found" : "not_found",
    ok: !bad,
    evidence: [
      ...counted.slice(0, 4).map((c) => ({ quote: `Cookie ${c.name} (${c.domain}) present after load, before consent`, url: page.finalUrl })),
      ...trackers.slice(0, 4).map((t) => ({ quote: `Request to ${t.host} (${t.service}) during load, before consent`, url: page.finalUrl })),
    ],
    findings,
    note: notes.join(" "),
    cookies,
    trackers,
    consentTool,
  };
}

const TERMS_OF_BUSINESS =
  /\b(?:sale|sales|business|trade|trading|supply|purchase|purchasing|order|orders|booking|bookings|customer|service|services|engagement|hire|delivery|returns)\b/i;
const WEBSITE_TERMS = /\b(?:use|website|site|web\s*site)\b/i;

function termsOfBusiness(pages: PageRead[]): TermsCheck {
  const all = pages.flatMap((p) => p.links.filter((l) => l.kinds.includes("terms")).map((link) => ({ link, page: p.url })));
  const business = all.find((x) => TERMS_OF_BUSINESS.test(x.link.text) || /sale|business|trade|supply|purchase|booking/i.test(x.link.url));
  const best = business ?? linkOf(pages, "terms");
  const kind: TermsCheck["kind"] = !best ? null : business ? "terms_of_business" : WEBSITE_TERMS.test(best.link.text) ? "website_terms" : "terms";
  return {
    status: best ? "found" : "not_found",
    ok: best ? true : null,
    requirement: "good_practice",
    rules: [...RULES.termsOfBusiness],
    evidence: best ? [linkEvidence(best)] : [],
    findings: best ? [] : ["No link to terms and conditions was found."],
    note:
      kind === "website_terms"
        ? "Only website terms of use were found. Terms of business are good practice for every business; for consumer sales the Consumer Contracts Regulations 2013 require the pre-contract information, usually given in terms of sale."
        : "Terms of business are good practice for every business; for sales to consumers at a distance the Consumer Contracts Regulations 2013 require pre-contract information (usually given in terms of sale).",
    link: best ? { url: best.link.url, text: best.link.text, page: best.page } : null,
    kind,
  };
}

function modernSlavery(pages: PageRead[]): LinkCheck {
  const home = linkOf(pages, "modernSlavery", true);
  const elsewhere = home ? null : linkOf(pages.slice(1), "modernSlavery");
  return {
    status: home ? "found" : "not_found",
    ok: home ? true : null,
    requirement: "required_if",
    rules: [...RULES.modernSlaveryStatement],
    evidence: home ? [linkEvidence(home)] : elsewhere ? [linkEvidence(elsewhere)] : [],
    findings: home
      ? []
      : [
          elsewhere
            ? "A modern slavery statement is linked from another page, but not from the homepage."
            : "No link to a modern slavery statement on the homepage.",
        ],
    note: "Required only of commercial organisations supplying goods or services in the UK with a total turnover of £36m or more, which must link to the statement from a prominent place on the homepage.",
    link: home ? { url: home.link.url, text: home.link.text, page: home.page } : null,
  };
}

/** Domains of the public sector, for which an accessibility statement is required. */
const PUBLIC_SECTOR =
  /(?:^|\.)(?:gov\.uk|nhs\.uk|sch\.uk|police\.uk|mod\.uk|parliament\.uk|ac\.uk|gov\.scot|gov\.wales|llyw\.cymru|nhs\.scot|nhs\.wales|hscni\.net)$/i;

function accessibility(pages: PageRead[], site: string): LinkCheck {
  const l = linkOf(pages, "accessibility");
  const publicSector = PUBLIC_SECTOR.test(site);
  return {
    status: l ? "found" : "not_found",
    ok: l ? true : publicSector ? false : null,
    requirement: publicSector ? "required" : "good_practice",
    rules: [...RULES.accessibilityStatement],
    evidence: l ? [linkEvidence(l)] : [],
    findings: l ? [] : ["No link to an accessibility statement was found."],
    note: publicSector
      ? "This looks like a public sector site: public sector bodies must publish an accessibility statement."
      : "Required of public sector bodies; good practice for everyone else.",
    link: l ? { url: l.link.url, text: l.link.text, page: l.page } : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------------------------------

export interface LegalInput {
  /** The homepage first, then the legal pages read. */
  pages: PageRead[];
  notRead: PageNotRead[];
  /** Companies House's answers for the numbers asked (numbersToCheck); null when no number was asked about. */
  register: RegisterAnswer[] | null;
  rendered: RenderOutcome;
}

export function assessLegal(input: LegalInput): LegalReport {
  const { pages, notRead, register, rendered } = input;
  let site = "";
  try {
    site = siteOf(new URL(pages[0].url).hostname);
  } catch {
    site = "";
  }
  const checks: LegalChecks = {
    tradingDisclosures: tradingDisclosures(pages, register),
    contactDetails: contactDetails(pages),
    vatNumber: vatNumber(pages),
    privacyNotice: privacyNotice(pages, notRead),
    cookiesBeforeConsent: cookiesBeforeConsent(rendered),
    termsOfBusiness: termsOfBusiness(pages),
    modernSlaveryStatement: modernSlavery(pages),
    accessibilityStatement: accessibility(pages, site),
  };
  const profile = register?.find((r) => r.profile)?.profile ?? null;
  const problems = (Object.keys(checks) as (keyof LegalChecks)[]).flatMap((k) => (checks[k].ok === false ? checks[k].findings : []));
  return {
    company: profile ? { name: profile.name, number: profile.number, status: profile.status } : null,
    summary: summaryOf(checks, site, notRead.length),
    problems,
    checks,
  };
}

/**
 * One plain paragraph (issue 28 §3): a check that could not run (status `unknown`) leads, with why; then what is
 * missing, what is wrong, what is required only in some cases, and what was found in order. "Nothing required was
 * found missing or wrong" is said of the whole site only when every check ran; otherwise only of the checks that ran.
 */
export function summaryOf(checks: LegalChecks, site: string, pagesNotRead = 0): string {
  const keys = Object.keys(checks) as (keyof LegalChecks)[];
  const label = (k: keyof LegalChecks) => CHECK_LABELS[k];
  const missing = keys.filter((k) => k !== "cookiesBeforeConsent" && checks[k].status === "not_found" && checks[k].ok === false);
  const wrong = keys.filter((k) => checks[k].ok === false && !missing.includes(k));
  const notRun = keys.filter((k) => checks[k].status === "unknown");
  const conditional = keys.filter((k) => checks[k].status === "not_found" && checks[k].ok === null);
  const fine = keys.filter((k) => checks[k].ok === true);
  const parts: string[] = [];
  const where = site ? ` on ${site}` : "";
  if (notRun.length)
    parts.push(
      `${notRun.length === 1 ? "1 check" : `${notRun.length} checks`} could not run${where}: ${notRun.map((k) => `${label(k)} (${checks[k].note.replace(/^Couldn't tell:\s*/, "").replace(/\.$/, "")})`).join("; ")}.`,
    );
  if (!missing.length && !wrong.length)
    parts.push(notRun.length ? "Of the checks that ran, nothing required was found missing or wrong." : `Nothing required was found missing or wrong${where}.`);
  if (missing.length)
    parts.push(
      `Missing${where}: ${missing.map((k) => `${label(k)}${checks[k].findings.length ? ` (${checks[k].findings.join(" ").replace(/\.$/, "")})` : ""}`).join("; ")}.`,
    );
  for (const k of wrong) parts.push(`${cap(label(k))}: ${checks[k].findings.join(" ")}`);
  if (conditional.length) parts.push(`Not found, required only in some cases: ${conditional.map(label).join("; ")}.`);
  if (fine.length) parts.push(`In order: ${fine.map(label).join("; ")}.`);
  if (pagesNotRead) parts.push(`${pagesNotRead} linked page${pagesNotRead === 1 ? "" : "s"} could not be read.`);
  return parts.join(" ");
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
