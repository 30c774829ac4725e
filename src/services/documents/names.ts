/**
 * People's names out of what the document readers quote (SPEC §1 rule 7: people are counted, never named). One
 * redactor for every reader (issue 31): the CQC, Ofsted, charity, modern slavery and carbon reduction plan readers
 * call `redactNames` on each quote and section heading they give, `Reading.passages` on the headings it lists, and
 * `redactQuotes` passes it over every quote and section of a reply once more, as the last guard.
 *
 * A name is a run of one to four capitalised words or initials (after a title, surnames may be any word: "Mrs June
 * Hall"), taken out only when something marks it as a person's:
 * - a title before it ("Mrs Jane Smith", "Dr A. Patel") — not when an organisation's word follows ("Lady Margaret
 *   School", "Dr Challoner's Grammar School");
 * - a label before it: a signature's ("Signed:", "Print name", "Name:", "approved by", a dotted line), a role whose
 *   holder is always a person ("Registered manager", "Headteacher", "Lead inspector", "Dear", "chaired by", "the
 *   headteacher is"), or any role ("Chair: …", "the chief executive officer, …", "Managing Director …");
 * - a role after it ("…, Managing Director", "… (Chair)", "… FCCA Independent Examiner", "…, lead inspector",
 *   "… Chief Inspector of Hospitals");
 * - a line of its own that is nothing but a name ("Margaret Ellison (Chair)" as a heading, "Kristian Glass 2026-01-14"
 *   under "Print name");
 * - a name the document's layout shows to be a person's elsewhere (`peopleOf`: a name on a line of its own over a role,
 *   under "Signed", in a list of such names), or one the reader found (a carbon plan's signers): `known`.
 * Where only the run's words say it (a role after it without a comma, a heading), it must also look like a person's
 * name: a title, an initial, or a known given name first (matching/people.ts looksLikePerson). Words that are never part of a person's name (roles, labels, organisations' and places' words,
 * report and web page words) end a run, so "Due Diligence Director", "Modern Slavery Statement" and "Care Quality
 * Commission" are never a name.
 *
 * Every reader uses the same rules: no document kind needed its own (test/accuracy/redactNames.accuracy.test.ts
 * measures this redactor against each reader's former one on the real documents and the fixtures). What differs is
 * where a text stands, which the options say: a line of its own (`line`), a signature block (`signOff`), the section
 * it is in (`section`), and the names found in the document (`known`).
 */
import { looksLikePerson } from "../matching/people";

export interface RedactOptions {
  /** The text stands on a line of its own (a section heading, a line of a list): when it is only a person's name (with a role, post-nominals or a date), the name goes. */
  line?: boolean;
  /**
   * The text is from a signature block (the reader has found the sign-off): there a run of name words beside a role
   * or alone on its line is a name without further sign ("Jo Sampleton, Director", "S.M.").
   */
  signOff?: boolean;
  /** The heading of the section the text is in: under a signature's heading ("Signature", "Approval"), a short line that starts with a name is one. */
  section?: string | null;
  /** People's names found elsewhere in the document (`peopleOf`, a carbon plan's signers): taken out wherever they stand. */
  known?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------------------------
// Words

const wordSet = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const TITLE = /^(?:mr|mrs|ms|miss|mx|dr|prof|professor|sir|dame|lord|lady|rev|revd|reverend|cllr|canon)$/i;
const PARTICLES = wordSet("van von de der den da di du le la al bin ibn el del");
/** Letters after a name: kept, and never part of it. */
const POSTNOMINAL =
  /^(?:OBE|CBE|MBE|KBE|DBE|FRS|FREng|FCA|ACA|FCCA|ACCA|CIMA|ACMA|FCMA|CGMA|CTA|ATT|MRICS|FRICS|MCIPS|FCIPS|CIPD|MCIPD|FCIPD|BSc|MSc|BA|MA|PhD|MBA|Dip|Hons|QC|KC|JP|DL|MP|MEP|CPA|FCIS|ACIS|FCG|ACG|CDir|LLB|LLM|FRCP|FRCS|MRCGP|RGN|RMN|CEng|MICE|FICE|MIET|FIET|FCIOB|FCMI|Jnr|Snr)$/;
/** A date, as a signature line gives it ("2026-01-14", "14/05/2024", "5 May 2024", "May 2024"). */
const DATE = String.raw`(?:\d{4}-\d{2}-\d{2}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}(?:st|nd|rd|th)?\s+\p{L}{3,9}\.?,?\s+\d{4}|\p{L}{3,9}\s+\d{4})`;
const MONTHS = wordSet("january february march april may june july august september october november december");

/** Words that are never part of a person's name, even after a title: function words, labels, roles, organisations' kinds, grades. */
const NEVER = wordSet(
  "the a an and or of in on at for to by with from as into onto over under about after before between during within without upon via per than then " +
    "this that these those it its is are was were be been being has have had do does did will would shall should can could might must " +
    "we they he she his her him hers their them our ours your you us my me i who whom whose which what when where how why not no nor but if so " +
    "all any each every both either neither some such also only very more most less much many own same new " +
    "signed signature signatory sign name names title titles position role job print printed date dated approved approval authorised authorized behalf " +
    "dear yours sincerely faithfully regards telephone tel phone fax email e-mail website web address postcode " +
    "director directors managing executive executives non-executive chief officer officers ceo cfo coo cto cio cpo cro cmo cso president vice " +
    "chair chairs chairman chairwoman chairperson manager managers general head heads secretary treasurer trustee trustees governor governors " +
    "principal headteacher headteachers headmaster headmistress teacher teachers deputy assistant associate interim acting joint sole partner partners " +
    "member members designated founder co-founder owner proprietor inspector inspectors hmi examiner auditor auditors accountant accountants counsel clerk " +
    "registered nominated individual responsible provider providers leader leaders lead senior " +
    "ltd limited plc llp lp inc llc gmbh ag corporation corp holdings group company co cic cio vice-chancellor pro-vice-chancellor trust foundation federation council charity charities " +
    "school schools academy academies college colleges university nursery diocese society association committee board boards commission institute " +
    "partnership memorial hospital hospice surgery clinic practice services healthcare road street avenue drive crescent square gardens terrace " +
    "good outstanding inadequate requires improvement effective safe caring responsive well-led",
);
/** Organisations' kinds: after a run they make it an organisation's name ("Lady Margaret School", "Oakfield Learning Trust"). */
const ORG_AFTER =
  /^(?:['’]s)?\s+(?:School|Schools|Academy|College|University|Institute|Trust|Foundation|Federation|Partnership|Council|Diocese|Church|Chapel|Cathedral|Ltd|Limited|LIMITED|LTD|PLC|[Pp]lc|LLP|LP|CIC|CIO|Inc|Group|Holdings|Nursery|Centre|Center|Association|Society|Club|Primary|Secondary|Grammar|High|Infant|Infants|Junior|Juniors|CofE|C of E|RC|Catholic|Hospital|Hospice|Surgery|Practice|Clinic|Memorial|Care|Home|Homes|Services|Healthcare|Board|Road|Street|Avenue|Drive|Crescent|Square|Gardens|Estate|Disability|Support)\b|^\s*\((?:UK|U\.K\.)\)/;
/** An organisation's name that runs on past the run: "Four Seasons (No 9) Limited", "Maria Mallaband Care Group". */
const ORG_CONTINUES =
  /^(?:['’]s)?(?:\s+(?:\(?(?:No|Nos)\.?|\d+\)?|\p{Lu}[\p{L}'’.-]*[),]?|\([\p{Lu}][\p{L}'’.-]*\)?|&|and|of|the|in|on|for)){0,5}?\s+\(?(?:Ltd|Limited|LTD|LIMITED|PLC|[Pp]lc|LLP|CIC|CIO|C\.I\.C\.?|Inc|Trust|Group|Holdings|Services|Care|Homes?|Healthcare|Foundation|Association|Society|Partnership|Charity|Council|Company|Corporation|Housing|Fellowship|Hospital|Hospice|Church)\b/u;
/**
 * Words that are not part of a person's name unless a title says so (surnames may be any word: "Mrs Hall", "Mr Wood"):
 * places', buildings' and organisations' words, report and statement words, web page words, the regulators' words.
 */
const NOT_ALONE = wordSet(
  "care quality service services health home homes house houses lodge court hall manor centre center church chapel road street lane avenue close drive way " +
    "crescent place square gardens garden park green hill wood woods view bridge gate gates cottage cottages villa villas grange heights rise meadow meadows " +
    "farm estate industrial business tower mill mills depot site office offices unit station " +
    "uk england english wales welsh scotland scottish ireland irish northern southern eastern western north south east west british national international global " +
    "european europe regional local county city borough district royal kingdom united states republic america americas asia pacific africa middle " +
    "statement statements report reports policy policies procedure procedures code codes standard standards act modern slavery human trafficking rights " +
    "supply chain chains due diligence risk risks assessment assessments training review reviews plan plans summary introduction contents appendix section " +
    "sections notes note accounts account financial annual year years reduction carbon emissions net zero scope baseline footprint reporting " +
    "going concern public benefit principal objectives objects activities achievements performance structure reference administrative details " +
    "responsibilities welcome highlights impact thanks acknowledgements volunteers volunteering funding fundraising grants grant investments " +
    "reserves accounting basis preparation future looking ahead forward key facts figures message foreword people staff supporters " +
    "legal information aims mission vision values history background strategy strategic outcomes outputs beneficiaries programme programmes " +
    "project projects events event campaigns campaign safety equality diversity inclusion data protection complaints remuneration pay related " +
    "party transactions taxation pension pensions employees employee trading subsidiary subsidiaries connected disclosure bankers solicitors " +
    "advisers advisors contact patrons patron opinion conclusion conclusions matters schedule analysis movement cash flows assets liabilities " +
    "creditors debtors fixed current tangible intangible income expenditure costs cost support day young older children adults families women men " +
    "food bank cafe café shop club youth sport arts art music education housing advice " +
    "about cookie cookies privacy notice terms conditions menu search map news press read more view sign follow login careers jobs categories " +
    "types type latest quick links case study studies overview preferences subscription newsletter blog media social resources products product " +
    "solutions customers customer suppliers supplier partners partner members team teams management leadership governance framework " +
    "ethics ethical compliance procurement finance sales operations operating commercial technical hr marketing sustainability corporate " +
    "responsibility property strategy development trade initiative initiatives programme monitoring audit audits auditing workforce labour " +
    "labor worker workers recruitment agency agencies contract contracts whistleblowing grievance effectiveness measures measuring progress " +
    "pupils pupil leaders parents students learners inspection inspections ofsted behaviour safeguarding curriculum teaching learning reception " +
    "early sixth form key stage primary secondary infant junior grammar high regulation regulations regulated activity outstanding requires " +
    "disability support options community mind autism living life lives response illness enterprises independent concern guild holidays " +
    "limited group holdings international constitution other others " +
    "one two three four five six seven eight nine ten first second third old little black white blue red big great grand upper lower " +
    "metropolitan country countryside rural urban therapeutic properties fellowship jewish christian catholic blind deaf neighbours choices " +
    "cares caring reach sisters brothers missionaries residential supported supporting adult adults nursing respite retirement carehomes " +
    "homecare healthcare medical specialist hotel hotels inn charitable trucks construction materials fertilisers amenity accreditation " +
    "accountancy accountants solicitors consultancy consulting associates organisations organisation large small airlines network topic taskforce milestones oil palm quote brochure request knowledge base",
);

/** Place words that are surnames as often ("Ian Woods", "Jane Hill"): a name's last word when the whole looks like a person's name. */
const SURNAME_TOO = wordSet(
  "wood woods hill hills green hall lane park field fields house brook brooks bridge gate gates mill mills church king young white black brown grey gray little rose moor banks",
);
const NAME_WORD = /^(?:\p{Lu}[\p{Ll}'’]*(?:-\p{Lu}?[\p{Ll}'’]+)*|(?:Mc|Mac|O['’]|D['’])\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?)$/u;
const CAPS_WORD = /^\p{Lu}{2,}(?:-\p{Lu}{2,})*$/u;
const INITIALS = /^(?:\p{Lu}\.){1,3}$|^\p{Lu}$/u;

interface Tok {
  /** Where the word (`core`) starts and ends in the text. */
  at: number;
  end: number;
  /** Punctuation before the word ("(", a quote mark). */
  lead: string;
  core: string;
  /** What follows the word in its token: a possessive "'s", punctuation. */
  trail: string;
}

function tokensOf(text: string): Tok[] {
  const out: Tok[] = [];
  for (const m of text.matchAll(/\S+/g)) {
    const raw = m[0];
    const lead = /^[("“‘'[]+/.exec(raw)?.[0] ?? "";
    let rest = raw.slice(lead.length);
    let core: string;
    if (/^(?:\p{Lu}\.){1,3}$/u.test(rest)) core = rest;
    else if (/^\p{Lu}\.\p{Lu}\p{Ll}/u.test(rest))
      core = rest.replace(/[)"”’'\],;:.!?…]+$/, ""); // "G.Crowther"
    else {
      core = rest.replace(/[)"”’'\],;:.!?…]+$/, "");
      const poss = /['’]s$/.exec(core);
      if (poss && core.length > 3) core = core.slice(0, -2);
    }
    rest = rest.slice(core.length);
    out.push({ at: m.index + lead.length, end: m.index + lead.length + core.length, lead, core, trail: rest });
  }
  return out;
}

const lower = (w: string) => w.toLowerCase().replace(/[’]/g, "'");
const isTitle = (t: Tok) => TITLE.test(t.core) && (t.trail === "" || t.trail === ".");
const isInitials = (w: string) => INITIALS.test(w);
const shaped = (w: string) => NAME_WORD.test(w) || CAPS_WORD.test(w) || isInitials(w) || /^\p{Lu}\.\p{Lu}\p{Ll}+$/u.test(w);
/** A word that may be part of a name after a title: anything capitalised but the words that never are. */
const titledWord = (w: string) => isInitials(w) || (shaped(w) && !NEVER.has(lower(w)) && !POSTNOMINAL.test(w));
/** A word that may be part of a name without a title: capitalised, and not an organisation's, a place's or a report's word. */
const plainWord = (w: string) => titledWord(w) && !NOT_ALONE.has(lower(w)) && !MONTHS.has(lower(w));

interface Run {
  /** Token indexes: the titles, then the name's words. */
  titles: number[];
  words: number[];
  start: number;
  end: number;
}

/** The run of name words starting at token i (titles first), or null. */
function runAt(toks: Tok[], i: number): Run | null {
  const titles: number[] = [];
  let j = i;
  while (j < toks.length && isTitle(toks[j]) && (j === i || !toks[j].lead)) {
    titles.push(j);
    j++;
  }
  const titled = titles.length > 0;
  const words: number[] = [];
  while (j < toks.length && words.length < 4) {
    const t = toks[j];
    if ((words.length || titled) && t.lead) break;
    // After a title or initials a surname may be any word ("Mrs Hall", "A. N. Other").
    const surname = titled || (words.length > 0 && words.every((k) => isInitials(toks[k].core)) && toks[words[0]].core.length > 1);
    const ok = surname ? titledWord(t.core) || (MONTHS.has(lower(t.core)) && j + 1 < toks.length && titledWord(toks[j + 1].core)) : plainWord(t.core);
    // A surname that is also a place's or a thing's word ("Ian Woods", "Jane Hill"), when the whole looks like a person's name.
    const lastCapital = !toks[j + 1] || !!t.trail || !shaped(toks[j + 1].core);
    if (
      !ok &&
      !titled &&
      words.length &&
      !t.lead &&
      lastCapital &&
      SURNAME_TOO.has(lower(t.core)) &&
      looksLikePerson([...words.map((k) => toks[k].core), t.core].join(" "), "standalone")
    ) {
      words.push(j++);
      break;
    }
    if (!ok) {
      // A particle inside a name ("Dirk Van de Put", "Ludwig van Beethoven").
      if (words.length && PARTICLES.has(lower(t.core)) && !t.trail && j + 1 < toks.length && (titled ? titledWord : plainWord)(toks[j + 1].core)) {
        words.push(j++);
        continue;
      }
      break;
    }
    words.push(j++);
    if (t.trail && t.trail !== ".") break;
    if (t.trail === "." && !isInitials(t.core)) break; // the end of a sentence
  }
  // A bare "A" or "I" is an article or a pronoun, not an initial, unless a title or another initial says so ("I K Smith").
  if (!titled && words.length && /^[AI]$/.test(toks[words[0]].core) && !(words.length > 2 && isInitials(toks[words[1]].core))) return null;
  if (!words.length) return null;
  const last = toks[words[words.length - 1]];
  return { titles, words, start: toks[titled ? titles[0] : words[0]].at, end: last.end };
}

/** A title, an initial, or a given name first: the run looks like a person's name on its own. */
function looksPersonal(toks: Tok[], r: Run): boolean {
  if (r.titles.length) return true;
  const ws = r.words.map((k) => toks[k].core);
  if (ws.some((w, k) => isInitials(w) && !(k === 0 && /^[AI]$/.test(w)))) return ws.some((w) => !isInitials(w) && w.length >= 2);
  return looksLikePerson(ws.join(" "), "standalone");
}

// ---------------------------------------------------------------------------------------------------------------------
// What marks a run as a person's name

/** Labels whose value is a person's name, matched at the end of the text before the run. */
const LABEL_BEFORE =
  /(?:\b(?:signed|signature|signatory|signed\s+by|print(?:ed)?\s+name|(?:full\s+)?name\s*\(s\)|name(?:\s*\/\s*title)?\s*[:\-–]|approved\s+by|authori[sz]ed\s+by|(?:registered|home|service|deputy)\s+manager|nominated\s+individual|responsible\s+individual|registered\s+person|lead\s+inspector|inspector|(?:executive\s+)?head\s*teacher|headmaster|headmistress|head\s+of\s+school|dear|yours\s+(?:sincerely|faithfully)|chaired\s+by|led\s+by|chair\s+of\s+(?:the\s+)?(?:governing\s+body|governors|(?:the\s+)?board(?:\s+of\s+(?:trustees|governors|directors))?|trustees|local\s+governing\s+body|interim\s+executive\s+board))|\.{3,}|…+|_{3,})\s*[:\-–,]?\s*$/i;
/** "Supplier name:", "Company name:": an organisation's name follows, not a person's. */
const ORG_LABEL =
  /\b(?:supplier|client|company|organi[sz]ation|business|charity|service|school|provider|trading|registered|legal|brand|product|file|bidder|setting|location|trust|employer)(?:['’]s)?\s+name\s*[:\-–]?\s*$/i;
/** "The headteacher of this school is …", "… was led by …": a role's holder is named next. */
const ROLE_IS =
  /\b(?:(?:executive\s+)?head\s*teacher|principal|chief\s+executive(?:\s+officer)?(?:\s+\(CEO\))?|CEO|chair(?:person)?|(?:registered\s+)?manager|proprietor|head\s+of\s+school)(?:\s+of\s+(?:this|the)\s+(?:school|college|setting|provider|academy|trust|service|home))?,?\s+(?:is|was)\s*$/i;
/** "Provided and run by", "managed by": a provider who is a person is named so (a CQC location page); an organisation's kind after the run says it is not one. */
const RUN_BY = /\b(?:run|managed|owned)\s+by\s*:?\s*$/i;
/** "…signed on their behalf by:", "…approved by the board and signed by": a signer follows "by". */
const SIGNING_BY = /\b(?:sign(?:ed)?|approv(?:ed|al)|authori[sz]ed|behalf)\b[^.;]{0,100}?\bby\s*:?\s*$/i;

/** The head of a role (and the words a role may start with): as in a signature's role line. */
const ROLE_HEAD = String.raw`designated\s+members?|managing\s+member|(?:managing|senior|equity|salaried)\s+partner|partner|member|directors?(?!['’]s\s+(?:report|statement))|chief\s+executive(?:\s+officer)?|chief\s+[a-z]+(?:\s+[a-z]+)?\s+officer|ceo|cfo|coo|cto|cpo|cro|cmo|vice[- ]president|president|vice[- ]chair(?:man|woman|person)?|chair(?:man|woman|person)?|general\s+manager|manager|head(?=\s+of\b)|company\s+secretary|secretary(?:[- ]general)?|trustee|governor|owner|founder|co-founder|proprietor|principal|vice[- ]chancellor|general\s+counsel|treasurer|accounting\s+officer|officer|(?:executive\s+)?head\s*teacher|headmaster|headmistress|examiner|auditor|reporting\s+accountant|registered\s+manager|registered\s+person|nominated\s+individual|responsible\s+individual|clerk(?:\s+to\s+the\s+governors)?`;
const MODIFIERS =
  "group|uk|global|international|european|emea|regional|national|country|interim|acting|deputy|joint|co|managing|executive|non-executive|non\\s+executive|independent|senior|lead|sole|finance|financial|sales|operations|operating|commercial|technical|hr|people|legal|ethics|ethical|compliance|risk|procurement|company|board|founding|general|assistant|associate|divisional|area|site|branch|vice|marketing|it|sustainability|corporate|quality|property|programme|strategy|business|development|customer|chief|designated|local|retail|supply\\s+chain|trading|office|practice|engineering|production|manufacturing|health|safety|esg|responsible|statutory|honorary|hon\\.?|representative|ethical\\s+trade";
const ROLE = String.raw`(?:(?:${MODIFIERS})[\s-]+){0,4}(?:${ROLE_HEAD})\b`;
/** A role before the run ("Managing Director Alex Sample", "Chair: …", "the chief executive officer, …"). */
const ROLE_BEFORE = new RegExp(String.raw`\b(?:${ROLE}|head\s+of\s+(?:[\w&]+\s+){0,2}[\w&]+)\s*(?:\([^)]{0,40}\))?\s*[:\-–,]?\s*$`, "i");
/** Roles whose holder is always a person, after the name: an inspector's, the Chief Inspector's. */
const INSPECTOR_AFTER =
  /^\s*[,–—-]?\s*(?:the\s+)?(?:lead\s+inspector|(?:Her|His)\s+Majesty['’]s\s+Inspector|Senior\s+HMI|HMI\b|Ofsted\s+Inspector|Social\s+Care\s+Regulatory\s+Inspector|Early\s+Years\s+Regulatory\s+Inspector|(?:Deputy\s+)?Chief\s+Inspector)/i;
/** A role after the run, set off or not: "…, Managing Director", "… (Chair)", "… FCCA Independent Examiner"; group 2 is what sets it off ("" for nothing). */
const ROLE_AFTER = new RegExp(
  String.raw`^(?:['’]s)?((?:\s+(?:${POSTNOMINAL.source.slice(1, -1)})\.?,?)*)\s*([,;–—(-]?)\s*(?:the\s+|our\s+|a\s+|an\s+)?(?:${ROLE}|(?:resigned|appointed|retired|co-opted|elected|until|from)\b)`,
  "i",
);

const SIGNATURE_TAIL = new RegExp(String.raw`^(?:['’]s)?\s*(?:$|[,(–—-]|${DATE})`, "u");
/** Words of signing: a short line in a text or section about signing that starts with a name is a signature. */
const SIGNING = /\b(?:sign|signed|signature|signatory|approved|approval|behalf|print(?:ed)?\s+name|declaration|authori[sz]ation)\b/i;

/** What may follow a name on a line of its own: post-nominals, a role in brackets or after a comma or dash, a date. */
const LINE_TAIL = new RegExp(String.raw`^(?:['’]s)?(?:\s+(?:${POSTNOMINAL.source.slice(1, -1)})\.?,?)*\s*(?:[,(–—-].*|${DATE}.*)?$`, "su");
/** Post-nominal letters after the run: a person's. */
const POSTNOMINAL_AFTER = new RegExp(String.raw`^,?\s+(?:${POSTNOMINAL.source.slice(1, -1)})\b`);

/** Whether the run at r is a person's name, by what is around it; `joined`: it follows a name taken out, after "and" or "&". */
function isName(text: string, toks: Tok[], r: Run, opts: RedactOptions, joined = false): boolean {
  // Only what is near the run counts (and a long text is not searched once a run).
  const before = text.slice(Math.max(0, r.start - 160), r.start);
  const after = text.slice(r.end, r.end + 160);
  const n = r.words.length;
  const firstTok = toks[r.words[0]];
  const lastTok = toks[r.words[n - 1]];
  // An organisation named after a person: "Lady Margaret School", "Dr Challoner's Grammar School", "Smith & Co",
  // "Four Seasons (No 9) Limited" — unless a role follows ("Dr Alex Sample Group Chief Executive").
  const ra = ROLE_AFTER.exec(after);
  if (!ra && !INSPECTOR_AFTER.test(after)) {
    if (ORG_AFTER.test(after) || /^['’]s\s+\p{Lu}/u.test(after)) return false;
    if (!r.titles.length && (/^\s*&/.test(after) || (!/[,;:)]$/.test(lastTok.trail) && ORG_CONTINUES.test(after)))) return false;
  }
  const nameWords = r.words.map((k) => toks[k].core);
  const initialsOnly = nameWords.every(isInitials);
  const two = n >= 2 && !initialsOnly;
  if (r.titles.length) return true;
  const personal = () => looksPersonal(toks, r);
  // In a signature block a run of name words is a name without more ado, unless it is all in capitals ("CARLISLE BRASS"
  // over "Group Chief Executive" is the company's name; "JANE SMITH" is still one if it looks like a person's).
  const loose = !!opts.signOff && !nameWords.every((w) => CAPS_WORD.test(w) || isInitials(w));
  // "Stephen Oldale and Susan Leigh", "Mr Tay Sivri & Mrs Goulsen Sivri": a name joined to a name.
  if (joined && two) return true;
  // A label: a signature's, a role whose holder is always a person, "the headteacher is".
  if (LABEL_BEFORE.test(before) && !ORG_LABEL.test(before)) return two;
  if (ROLE_IS.test(before)) return two;
  if (RUN_BY.test(before)) return two;
  if (SIGNING_BY.test(before)) return two;
  // A role before it ("Chair: …", "the chief executive officer, …", "Principal Jane Smith"): what follows a role is
  // its holder; a run of two name words (no report's, place's or organisation's word among them) is one.
  if (two && ROLE_BEFORE.test(before)) return true;
  // A role after it, or post-nominal letters.
  if (INSPECTOR_AFTER.test(after)) return two;
  if (two && POSTNOMINAL_AFTER.test(after)) return true;
  if (ra) {
    const setOff = ra[2] !== "" || /[,;]$/.test(lastTok.trail);
    if (two && (setOff || loose || personal())) return true;
    if (n === 1 && !initialsOnly && (ra[2] === "(" || /^\s*\(/.test(after)) && NAME_WORD.test(nameWords[0])) return true;
  }
  // A short signature line that starts with the name ("Kristian Glass 2026-01-14" under "Signature Print Name").
  const atStart = /^[\s("“‘'[]*$/.test(before);
  if (two && atStart && text.length < 80 && (loose || SIGNING.test(opts.section ?? "") || SIGNING.test(text)) && SIGNATURE_TAIL.test(after)) return true;
  // A line that is only a name (in a signature block, initials too: "S.M.").
  if ((opts.line || opts.signOff) && atStart && LINE_TAIL.test(after)) {
    if (initialsOnly) return !!opts.signOff && n === 1 && firstTok.core.includes(".");
    if (two && (loose || personal())) return true;
  }
  return false;
}

/** A run of capitalised words glued to a role by a PDF ("Jane ExampleFounder"): split before the role. */
const GLUED_ROLE =
  /(\p{Ll})((?:Founder|Director|Managing|Chief|Chair(?:man|woman|person)?|CEO|Group|General|Head|Company|Partner|Designated|Senior|Executive)\b)/gu;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** At most this many known names are looked for (a document that is a list of thousands of names is not read for each). */
const MAX_KNOWN = 200;
const knownRes = new WeakMap<readonly string[], RegExp | null>();

/** One pattern for a document's known names (longest first), as written or in capitals ("JANE SMITH" in a heading); built once per list. */
function knownRe(known: readonly string[]): RegExp | null {
  let re = knownRes.get(known);
  if (re === undefined) {
    const forms = new Set<string>();
    for (const k of known.slice(0, MAX_KNOWN)) {
      const words = k.trim().split(/\s+/);
      if (k.trim().length < 3) continue;
      forms.add(words.map(escapeRe).join("\\s+"));
      forms.add(words.map((w) => escapeRe(w.toUpperCase())).join("\\s+"));
    }
    const alternatives = [...forms].sort((a, b) => b.length - a.length);
    re = alternatives.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}])`, "gu") : null;
    knownRes.set(known, re);
  }
  return re;
}

/**
 * The text with every person's name in it replaced by "[name]" (a title goes with the name; post-nominals, roles and
 * punctuation stay). Pure and deterministic.
 */
export function redactNames(text: string, opts: RedactOptions = {}): string {
  const re = opts.known?.length ? knownRe(opts.known) : null;
  const start = re ? text.replace(re, "[name]") : text;
  const src = start.replace(GLUED_ROLE, "$1 $2");
  const toks = tokensOf(src);
  const cuts: [number, number][] = [];
  for (let i = 0; i < toks.length; ) {
    const r = runAt(toks, i);
    if (!r) {
      i++;
      continue;
    }
    const prev = cuts[cuts.length - 1];
    const joined = !!prev && /^\s*(?:&|and)\s*$/.test(src.slice(prev[1], r.start));
    if (isName(src, toks, r, opts, joined)) cuts.push([r.start, r.end]);
    else if (!r.titles.length && r.words.length >= 3 && /^\s*&/.test(src.slice(r.end))) {
      // "Imogen Falconer Falconer & Co": the last word is the firm's.
      const shorter = { ...r, words: r.words.slice(0, -1), end: toks[r.words[r.words.length - 2]].end };
      if (isName(src, toks, shorter, opts)) cuts.push([shorter.start, shorter.end]);
    }
    i = r.words[r.words.length - 1] + 1;
  }
  if (!cuts.length) return start === text ? text : start;
  let out = "";
  let last = 0;
  for (const [a, b] of cuts) {
    out += src.slice(last, a) + "[name]";
    last = b;
  }
  out += src.slice(last);
  return out.replace(/\[name\](?:\s+\[name\])+/g, "[name]");
}

// ---------------------------------------------------------------------------------------------------------------------
// People the document's layout names

/** A role line: what stands under a signer's name ("Chief Executive Officer", "President and Representative Director"). */
const ROLE_LINE = new RegExp(String.raw`^\s*(?:[,–—-]\s*)?(?:the\s+)?(?:${ROLE})`, "i");
/** A line that leads to a signer: "Signed", "Signature:", "…approved by the Board on 5 May 2024", "on behalf of the board by:", a dotted line. */
const SIGNING_LINE =
  /\b(?:signed|signature|signatory|approved|authori[sz]ed|behalf|yours\s+(?:sincerely|faithfully)|print(?:ed)?\s+name)\b|\bby\s*:?\s*$|^[\s.…_]{3,}$/i;

/** The name a line of its own is, when it is nothing else (with post-nominals, a role in brackets or after a comma, a date). */
function nameLine(line: string): { name: string; personal: boolean; marked: boolean } | null {
  const text = line.trim();
  if (text.length < 4 || text.length > 80) return null;
  const toks = tokensOf(text);
  const r = runAt(toks, 0);
  if (!r || r.words.length < 2 || r.words.every((k) => isInitials(toks[k].core)) || toks[0].lead) return null;
  const after = text.slice(r.end);
  if (!LINE_TAIL.test(after) || ORG_AFTER.test(after)) return null;
  const ws = r.words.map((k) => toks[k].core);
  // A real name has a word with a small letter in it, or one of four capitals or more (not "C H AT", "HGC MSP").
  if (!ws.some((w) => /\p{Ll}/u.test(w) || w.length >= 4)) return null;
  return {
    name: text.slice(r.start, r.end),
    personal: looksPersonal(toks, r),
    marked: ROLE_AFTER.test(after) || POSTNOMINAL_AFTER.test(after) || INSPECTOR_AFTER.test(after),
  };
}

/**
 * People's names the document's layout shows: a line (a heading, a short sentence) that is only a name and has a
 * role or post-nominals after it, stands over a role line ("Kazuo Ushida" over "President and Representative
 * Director"), stands under or over a signing line ("…approved by the Board on 19 May 2020.", a dotted line), or
 * stands beside another such line, or beside a line that is a name too when one of the two looks like a person's (a
 * list of trustees, an inspection team, signatories). `lines` are the document's headings and sentences in order.
 * Readers pass these to `redactNames` as `known`, so the name goes wherever the document repeats it. A name-shaped
 * line on its own ("Palm Oil", "Talbot Green") is not taken: only the layout makes it a person's.
 */
export function peopleOf(lines: readonly string[]): string[] {
  const cands = lines.map(nameLine);
  const near = (i: number, test: (l: string) => boolean) => test(lines[i]?.trim() ?? "");
  const person = cands.map((c, i) => {
    if (!c) return false;
    if (c.marked) return true;
    if (near(i + 1, (l) => l.length < 100 && ROLE_LINE.test(l)) || (c.personal && near(i - 1, (l) => l.length < 40 && ROLE_LINE.test(l)))) return true;
    // (Not after "on behalf of": an organisation's name follows.)
    if (near(i - 1, (l) => l.length < 200 && SIGNING_LINE.test(l) && !/\bof\s*:?\s*$/i.test(l)) || near(i + 1, (l) => /^[\s.…_]{3,}$/.test(l))) return true;
    return c.personal && (!!cands[i - 1] || !!cands[i + 1]);
  });
  for (let changed = true; changed; ) {
    changed = false;
    cands.forEach((c, i) => {
      if (c && !person[i] && (person[i - 1] || person[i + 1])) person[i] = changed = true;
    });
  }
  const out = new Set<string>();
  cands.forEach((c, i) => {
    if (c && person[i]) out.add(c.name);
  });
  return [...out];
}

// ---------------------------------------------------------------------------------------------------------------------
// The last guard

/** Every `quote` and `section` string in a reply with people's names out (a copy): a quote as text, a section as a line of its own. */
export function redactQuotes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(redactQuotes) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "quote" && typeof v === "string") out[k] = redactNames(v);
      else if (k === "section" && typeof v === "string") out[k] = redactNames(v, { line: true });
      else out[k] = redactQuotes(v);
    }
    return out as T;
  }
  return value;
}
