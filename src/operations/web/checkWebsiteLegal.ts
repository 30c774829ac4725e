import { defineOperation } from "../../platform/registry";
import { PAGE_ERRORS } from "../../app/web/page";
import { MAX_PAGES, WebsiteLegalInput, WebsiteLegalOutput, WebsiteLegalPrice, exampleReply, websiteLegal } from "../../app/web/websiteLegal";
import { HTML_LIMITS_TEXT } from "../../services/html/parse";

export const checkWebsiteLegal = defineOperation({
  operationId: "checkWebsiteLegal",
  method: "get",
  path: "/api/v1/website-legal",
  family: "web",
  title: "Website legal check",
  summary:
    "The legal basics of a UK business website: trading disclosures checked at Companies House, contact details, VAT number, privacy notice, cookies before consent, terms, modern slavery and accessibility statements.",
  description: `The legal basics of a UK business website (SPEC §4.8). Reads the page given (usually the homepage) and up to ${MAX_PAGES} legal pages it links to on the same site (contact, legal notice, privacy, terms, about, cookies); each one that cannot be read is listed in \`pagesRead\` with the reason. Eight checks, each \`found\`, \`not_found\` or \`unknown\` (couldn't tell), with the evidence quoted (the sentence or link and the page it was on) and the rule cited:

1. **Trading disclosures** (Names and Trading Disclosures Regulations 2015, regs. 24–25): registered name, company number, part of the UK where registered, registered office. The number is checked at Companies House: that it exists, that the name matches (Ltd/Limited, punctuation and "&"/"and" aside) and that the registered office matches (postcode, then first line). A number the register does not know is a finding; when Companies House cannot be reached the call answers 503 and nothing is charged.
2. **Contact details** (E-Commerce Regulations 2002, reg. 6(1)(b)–(c)): a geographic postal address (a PO Box is not one) and an email address.
3. **VAT number** (reg. 6(1)(g)), where shown: the format (GB + 9 or 12 digits, GBGD/GBHA) and HMRC's check digits (mod 97 and mod 9755).
4. **Privacy notice** (UK GDPR Art. 13): a link, and the page reachable.
5. **Cookies before consent** (PECR reg. 6): the homepage rendered in a browser with no click; cookies set and requests made to known trackers are listed, strictly necessary cookies are not counted. Where no browser is available this check is \`unknown\` and the rest still answers.
6. **Terms of business**: good practice; for consumer sales the Consumer Contracts Regulations 2013.
7. **Modern slavery statement** linked from the homepage (Modern Slavery Act 2015 s.54(7)): required only with a turnover of £36m or more.
8. **Accessibility statement**: required of public sector bodies, good practice otherwise.

\`summary\` leads with any check that could not run (status \`unknown\`, e.g. no browser for the cookies check), saying how many and why; then what is missing, what is wrong, what is required only in some cases and what is in order. It says "Nothing required was found missing or wrong" of the site only when every check ran; otherwise "Of the checks that ran, nothing required was found missing or wrong" (issue 28 §3). Quotes are short and never name a person (SPEC §1 rule 7). Not legal advice (SPEC §1 rule 2). A page that cannot be fetched answers 422 and is not charged. ${HTML_LIMITS_TEXT}`,
  input: WebsiteLegalInput,
  output: WebsiteLegalOutput,
  price: WebsiteLegalPrice,
  auth: "key",
  errors: [...PAGE_ERRORS],
  readOnly: true,
  timeoutMs: 40_000,
  example: { url: "https://www.example.co.uk/" },
  exampleReply,
  handler: (input, ctx) => websiteLegal(input, ctx),
});
