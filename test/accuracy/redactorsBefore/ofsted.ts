/**
 * A frozen copy of a name redactor as it was before issue 31 unified them (services/documents/names.ts redactNames),
 * kept only as the baseline test/accuracy/redactNames.accuracy.test.ts measures the unified redactor against. Copied
 * verbatim from src/services/documents/ofsted.ts at commit 174ca49 (only `export` added where a
 * name was otherwise unused); not used by the service.
 */
import { type NameWords, nameAfter as nameAfterBy, nameBefore as nameBeforeBy } from "./guard";

/** A heading as the evidence's section: names removed, and a heading that is only a name (an inspection team's list) is "[name]". */
export function sectionName(heading: string): string {
  const words = heading.trim().split(/\s+/);
  if (words.length >= 2 && words.length <= 4 && words.every(isNameWord)) return "[name]";
  return redactNames(heading);
}

// ---------------------------------------------------------------------------------------------------------------
// Privacy: people named in a report (headteacher, chair, inspectors, a letter's addressee) are never quoted
// ---------------------------------------------------------------------------------------------------------------

/** Capitalised words that are never (part of) a person's name in these reports. */
const NOT_NAME = new Set(
  (
    "the this that these those a an and or of in on at for to by with from it its is are was we they he she his her their our " +
    "school schools academy college nursery primary secondary infant infants junior juniors high grammar trust federation council church england catholic " +
    "telephone website email e-mail unique local type inspection inspections date age gender number appropriate ofsted inspector inspectors " +
    "information pupils pupils’ pupils' leaders governors governing body board chair headteacher principal yes no good outstanding requires inadequate " +
    "address phone fax key stage year years reception early sixth form safeguarding quality overall effectiveness leadership management behaviour " +
    "personal development outcomes previous lead majesty’s majesty's hmi senior chief executive officer ceo manager registered person nominated " +
    "individual responsible proprietor interim dear yours sincerely faithfully signed signature name foundation partnership diocese limited ltd group"
  )
    .split(/\s+/)
    .filter(Boolean),
);

const isNameWord = (w: string) => /^\p{Lu}\.$/u.test(w) || (/^\p{Lu}[\p{L}'’-]*$/u.test(w) && !NOT_NAME.has(w.toLowerCase()));

/** The words after a name that make it an organisation's ("Lady Margaret School", "run by Oak Learning Trust"). */
const ORG_NEXT =
  /^\s*(?:['’]s\s+)?(?:School|Schools|Academy|College|Trust|Foundation|Federation|Partnership|Council|Diocese|Ltd|Limited|Group|Nursery|Centre|Church|Association|Society|University|Institute|Primary|Secondary|Grammar|High|Infant|Junior|CofE|C of E|RC|Catholic)\b/u;

const NAMES: NameWords = { isNameWord, orgNext: ORG_NEXT };
const nameAfter = (text: string, lead: RegExp, min = 2, withLead = false) => nameAfterBy(text, lead, NAMES, { min, withLead });
const nameBefore = (text: string, trail: RegExp) => nameBeforeBy(text, trail, NAMES);

const ROLE_LABEL =
  /\b(?:Principal\s*\/\s*CEO|CEO\s*\/\s*Principal|Principal and (?:CEO|chief executive)|Headteacher\s*\/\s*Principal|Executive headteacher|Headteacher|Head teacher|Headmaster|Headmistress|Head of school|Principal|Chief executive officer|Chief executive|CEO|Chair(?: of (?:the )?(?:governing body|governors|the board of trustees|trustees|local governing body|interim executive board|the board))?|Registered person|Registered manager|Nominated individual|Responsible individual|Proprietor|Manager|Lead inspector|Name|Signed|Signature|Yours sincerely|Yours faithfully|Dear)\b\s*:?/gi;
const ROLE_IS =
  /\b(?:headteacher|head teacher|principal|chief executive officer(?: \(CEO\))?|chief executive|CEO|chair(?:person)?|manager|proprietor|executive headteacher|head of school)(?: of (?:this|the) (?:school|college|setting|provider|academy|trust))?,?\s+(?:is|was)\b|\b(?:chaired|led|run|managed|signed) by(?: the [a-z ]{3,40}?,)?/gi;
const TITLE = /\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Rev|Revd|Reverend|Sir|Dame|Lady|Lord|Professor|Prof)\.?(?=\s+\p{Lu})/gu;
const INSPECTOR_TRAIL =
  /,?\s*(?:lead inspector|(?:Her|His) Majesty[’']s Inspector|Senior HMI|HMI\b|Ofsted Inspector|Social Care Regulatory Inspector|Early Years Regulatory Inspector)/g;
/** "Jane Smith, the headteacher, …": a name before its role. */
const ROLE_TRAIL =
  /,\s*(?:the\s+)?(?:executive\s+)?(?:headteacher|head teacher|principal|chair of (?:the )?(?:governors|governing body|trustees|the board)|chief executive officer|CEO|registered manager|manager|proprietor)\b/gi;

/** A quote with people's names replaced by "[name]": after a title (Mrs …), a role label (Headteacher …, Chair …, Dear …, Signed …), "the headteacher is …", and before an inspector's role. */
export function redactNames(text: string): string {
  let t = nameAfter(text, TITLE, 1, true);
  t = nameAfter(t, ROLE_LABEL, 2);
  t = nameAfter(t, ROLE_IS, 2);
  t = nameBefore(t, INSPECTOR_TRAIL);
  t = nameBefore(t, ROLE_TRAIL);
  return t.replace(/\[name\](?:\s+\[name\])+/g, "[name]");
}
