/**
 * Ground truth for test/accuracy/redactNames.accuracy.test.ts: which runs of words in the corpora are people's names.
 *
 * - The repo's fixtures: the people the fixtures' people.txt files list (env.PERSON_NAMES, test/privacy/personNames.ts),
 *   and the few fictional people the fixtures name that those lists miss (FIXTURE_PEOPLE_UNLISTED).
 * - The real documents in ../shared/corpora: every run of words any redactor took out of them (before or after issue 31)
 *   was read by hand and sorted into people and not-people. The people are real and are not written here (people are
 *   counted, never named, SPEC §1 rule 7): REAL_PEOPLE holds a 53-bit hash (cyrb53) of each name as `nameKey` writes it.
 * - The CQC register export (../shared/data/cqc): a provider is a person (a sole provider or a partnership of named
 *   people) when its name has the shape of people's names (`cqcProviderIsPerson`), less the organisations of that shape
 *   found by reading every such provider by hand (CQC_SHAPED_ORGANISATIONS).
 */

/** cyrb53 (bryc, public domain): a fast 53-bit string hash. */
export function cyrb53(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The words of a text as the truth compares them: letters (accents dropped), apostrophes and hyphens, lower case. */
export const WORD = /\p{L}[\p{L}'’-]*/gu;
export const wordKey = (w: string) =>
  w
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/’/g, "'")
    .replace(/'s$/, "")
    .replace(/[-']+$/, "")
    .toLowerCase();
/** A name as a key: its words, titles left out ("Mrs Jane Smith" and "Jane Smith" are one key). */
export const nameKey = (name: string) =>
  (name.match(WORD) ?? [])
    .map(wordKey)
    .filter((w) => !TITLE_WORDS.has(w))
    .join(" ");
export const TITLE_WORDS = new Set(["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "professor", "sir", "dame", "lord", "lady", "rev", "revd", "reverend"]);

/** Fictional people the fixtures name that their people.txt does not list (none now: each is in its folder's people.txt). */
export const FIXTURE_PEOPLE_UNLISTED: string[] = [];

/** The real people named in ../shared/corpora (Ofsted inspectors and governors, charity trustees, statements' signers), as cyrb53(nameKey(name)). */
export const REAL_PEOPLE = new Set<number>([
  5942864611298933, 3483555467830561, 381180278212297, 5360884854914916, 4342460433523226, 8651109601159674, 8078849357582097, 3625941592798212,
  8007466188005322, 8834508389443381, 2333072968381403, 5215444511438766, 8187558412849279, 6621008661686076, 4087433918799084, 4361678430442103,
  922857363688155, 690172608787720, 2039362330366148, 4165784547673196, 2447250547218955, 8650276196662378, 750375920236397, 697359247129583, 8945324334319817,
  3198746212663563, 3528636276820470, 6251962887040317, 5805481919945996, 8878850880590952, 2675208005131251, 7699258808576665, 6283590713059758,
  8766122051589785, 4320337565471514, 5801553797762552, 4966330840814929, 2801701447583131, 4519729470378850, 6620932026297925, 7910552143263919,
  8669191107654408, 7379567216119531, 5125873955678554, 760279615599570, 2514109827993919, 8118006401127929, 608186323831499, 3739221494703196,
  3945464327462069, 5879900300639018, 4728464052259763, 3172635070741900, 1008443902844281, 4641946392090007, 3108226975139634, 6423193595916649,
  6415028685308620, 8644251555326901, 2284685434809219, 5946264733890999, 5399687576852786, 920029674777396, 8118897119971481, 7547822076069855,
  8485883306376852, 6286213271940206, 5889700886891950, 7859963227274134, 6260896936335569, 2352375772577604, 4500672135329003, 1110222876472360,
  2443078456733226, 8098477703347113, 6902885687539382, 5134134614288954, 6987428402024367, 5931205740448626, 227461949784040, 4454869850387393,
  5074908812803580, 6271615546921405, 3760881216786403, 8700909588943090, 8919516689723721, 5187317766861145, 8730960651203344, 1775109743065666,
  8012042877175192, 4475086231565504, 8311768519894382, 5788261174439741, 2344652219516197, 7036876760101894, 8871165121671986, 3216598828429786,
  2262803826555176, 8424333818338305, 1689118951701880, 3893945697045123, 872052525805038, 7437289913554155, 1592573062610125, 2296878876089086,
  9006308323249253, 1372521602047126, 4917215985823616, 1957975942475646, 3364374829813584, 278138074659576, 7299740489368524, 2656455907823887,
  6651151618486129, 5738543940629826, 7215132572270963, 5638131699342429, 8505108696849695, 8682429710545315, 63880525415976, 3092268664508758,
  8138946899805493, 2065952096974227, 3139965634645202, 5805882857973810, 5262525679221559, 6221280739351249, 7717227820914059, 4617798526511189,
  2697207096915650, 3100167543692619, 7645269533774923, 7184329613436132, 7892608789478938, 4562226597350318, 901812314389335, 8095180961021310,
  929701190791379, 4589933624431119, 2894987975909859, 6168183140490521, 139262990805754, 4264676752431405, 6743372613142108, 5441129918089422,
  5208442684548680, 3116056079191207, 5619554922194019, 3410079551071253, 2839921713285994, 7255411293561032, 8661185787397170, 7499151077378235,
  1180739221996359, 7629447473463182, 2939276543379391, 4895024107047935, 2546623940745851, 634330971441100, 3930551765203142, 5081276067498938,
  6866897384216016, 5247870961861041, 7670845740114001, 2225611418975910, 1909848475658911, 2204721398263054, 2211291628879410, 8537854927025810,
  6176726202504984, 5813209110755790, 4292344955306867, 7448931554613103, 6837322629419295, 4668675928075310, 2662291931488160, 7856887702844527,
  4882540426426235, 1511183039514110, 1588505319964727, 2418671281086223,
]);

/** CQC providers whose names have the shape of people's names but are organisations (read by hand). */
export const CQC_SHAPED_ORGANISATIONS = new Set<string>([
  "Avenues South",
  "Avenues South East",
  "Cedars Castle Hill",
  "Donisthorpe Hall",
  "Making Space",
  "St. John's Winchester",
  "Sue Ryder",
  "Thera East",
  "Turning Point",
  "Willows Lull",
]);

const PROVIDER_TOKEN = [
  /^(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Rev|Revd)\.?$/,
  /^(?:\p{Lu}\.?){1,3}$/u,
  /^(?:\p{Lu}\.)+\p{Lu}[\p{Ll}'’]+$/u,
  /^\(?\p{Lu}[\p{Ll}'’]+(?:-\p{Lu}[\p{Ll}'’]+)*\)?\.?$/u,
  /^(?:Mc|Mac|O['’]|De|Di|Le)\p{Lu}\p{Ll}+$/u,
  /^(?:&|and|\/|van|von|de|der|da|du|Partners|Jnr|Snr)$/,
];
const LEGAL_OR_ORGANISATION =
  /\b(?:ltd|limited|plc|llp|cic|c\.i\.c|cio|trust|care|homes?|services|group|council|society|association|partnership|foundation|charity|healthcare|nursing|company|church|hospital|health|uk|centre|residential|mission|sisters|order|support|holdings|institute|fund|borough|the|of|for|house|lodge|court|autism|mind|options|residence|college|school|community|disability|response|illness|enterprises|independent|meadows|place|guild|holidays|concern)\b|\d/i;

/** Whether a CQC provider's name is a person's (or named people's): only name-shaped words, no organisation's word. */
export function cqcProviderIsPerson(provider: string): boolean {
  if (CQC_SHAPED_ORGANISATIONS.has(provider) || LEGAL_OR_ORGANISATION.test(provider)) return false;
  const tokens = provider.split(/[\s,]+/).filter(Boolean);
  return tokens.length >= 2 && tokens.every((t) => PROVIDER_TOKEN.some((re) => re.test(t)));
}
