/**
 * SRA Data Share API `organisation/GetAll` JSON → RegisterRecord (SPEC §2.6, §3.2, §4.5).
 * Keyed by the public SRA number. Freelance solicitors (people practising under their own name)
 * are skipped (SPEC §1 rule 7); office phone numbers and email addresses are never copied.
 */
import type { RegisterRecord } from "../../services/registers/types";
import { normaliseCompanyNumber } from "../../services/matching/companyNumber";
import { JSONParser } from "@streamparser/json";
import { RegisterFormatError } from "../format-error";

interface SraOffice {
  Name?: string | null;
  OfficeType?: string | null;
  Town?: string | null;
  County?: string | null;
  Postcode?: string | null;
  Country?: string | null;
  Website?: string | null;
}

interface SraOrganisation {
  SraNumber?: number | string | null;
  PracticeName?: string | null;
  AuthorisationStatus?: string | null;
  AuthorisationStatusDate?: string | null;
  AuthorisationDate?: string | null;
  AuthorisationType?: string | null;
  Type?: string | null;
  OrganisationType?: string | null;
  Constitution?: string | null;
  CompanyRegNo?: string | null;
  FreelanceBasis?: string | boolean | null;
  Regulator?: string | null;
  NoOfOffices?: number | null;
  Offices?: SraOffice[] | null;
  TradingNames?: string[] | null;
  PreviousNames?: string[] | null;
  Websites?: string[] | null;
  WorkArea?: string[] | null;
  ReservedActivites?: string[] | null;
}

const STATUS: Record<string, string> = {
  YES: "authorised",
  CONDITION: "authorised with conditions",
  CONDITIONS: "authorised with conditions",
  CEASE: "ceased",
  CEASED: "ceased",
  REVOKE: "revoked",
  REVOKED: "revoked",
  INTERVENE: "intervened",
  INTERVENED: "intervened",
};

const CONSTITUTION: Record<string, string> = {
  SOLP: "sole practice",
  PART: "partnership",
  ILLP: "limited liability partnership",
  COMP: "company",
  CORP: "corporation",
  UCOP: "unlimited company",
};

/** Values of FreelanceBasis that mean "not freelance" despite being non-empty strings. */
const NOT_FREELANCE = new Set(["no", "n", "false", "0"]);
/** Organisation codes naming an individual rather than a firm. */
const INDIVIDUAL = /freelance|individual/i;

const str = (v: unknown): string | null => {
  if (v == null) return null;
  const t = String(v).trim();
  return t ? t : null;
};
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter((s): s is string => s !== null) : []);
const date = (v: unknown): string | null => {
  const s = str(v);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null;
};

function isIndividual(o: SraOrganisation): boolean {
  const f = o.FreelanceBasis;
  if (f === true || (typeof f === "string" && f.trim() && !NOT_FREELANCE.has(f.trim().toLowerCase()))) return true;
  return INDIVIDUAL.test(o.OrganisationType ?? "") || INDIVIDUAL.test(o.Type ?? "") || INDIVIDUAL.test(o.AuthorisationType ?? "");
}

/** "RecognisedBodyClosed" → "recognised body"; AuthorisationType or Constitution when Type says nothing. */
function kind(o: SraOrganisation): string | null {
  const t = `${o.Type ?? ""} ${o.AuthorisationType ?? ""}`.toLowerCase();
  if (t.includes("solepractice") || t.includes("recsole")) return "sole practice";
  if (t.includes("recognisedbody")) return "recognised body";
  if (t.includes("licensedbody")) return "licensed body";
  return o.Constitution?.trim().toUpperCase() === "SOLP" ? "sole practice" : null;
}

function toRecord(o: SraOrganisation): RegisterRecord<"sra"> | null {
  const sraNumber = Number(o.SraNumber);
  const name = str(o.PracticeName);
  if (!Number.isInteger(sraNumber) || sraNumber <= 0 || !name || isIndividual(o)) return null;
  const statusCode = str(o.AuthorisationStatus);
  const status = statusCode ? (STATUS[statusCode.toUpperCase()] ?? statusCode.toLowerCase()) : "unknown";
  const offices = Array.isArray(o.Offices) ? o.Offices : [];
  const ho = offices.find((f) => str(f?.OfficeType)?.toUpperCase() === "HO") ?? offices[0];
  const headOffice = ho
    ? {
        name: str(ho.Name),
        town: str(ho.Town),
        county: str(ho.County),
        country: str(ho.Country),
        website: str(ho.Website) ?? list(o.Websites)[0] ?? null,
        postcode: str(ho.Postcode),
      }
    : null;
  const companyNumber = normaliseCompanyNumber(str(o.CompanyRegNo));
  const tradingNames = list(o.TradingNames);
  const previousNames = list(o.PreviousNames);
  const constitutionCode = str(o.Constitution);
  return {
    source: "sra",
    key: String(sraNumber),
    entity: String(sraNumber),
    part: null,
    name,
    companyNumber,
    altNames: [...new Set([...tradingNames, ...previousNames])].filter((n) => n !== name),
    status,
    rating: null,
    town: headOffice?.town ?? null,
    data: {
      sraNumber,
      name,
      companyNumber,
      authorised: status.startsWith("authorised"),
      status,
      statusCode,
      authorisedSince: date(o.AuthorisationDate),
      statusDate: date(o.AuthorisationStatusDate),
      kind: kind(o),
      constitution: constitutionCode ? (CONSTITUTION[constitutionCode.toUpperCase()] ?? constitutionCode) : null,
      offices: typeof o.NoOfOffices === "number" ? o.NoOfOffices : offices.length,
      headOffice,
      workAreas: list(o.WorkArea),
      tradingNames,
      previousNames,
      regulator: str(o.Regulator),
      reservedActivities: list(o.ReservedActivites),
    },
  };
}

/** The reply's bytes in pieces: a stream as it arrives, or a whole reply cut up. */
async function* piecesOf(input: Uint8Array | string | AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array | string> {
  if (typeof input === "string") yield input;
  else if (input instanceof Uint8Array) for (let i = 0; i < input.length; i += 1 << 20) yield input.subarray(i, i + (1 << 20));
  else yield* input;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Parses a GetAll reply, `{ "Organisations": [...] }` (other keys ignored) or a bare array, as a
 * stream: each organisation is read and handed on as its JSON completes, so the whole register (tens
 * of MB) is never one object graph in memory.
 */
export async function* parseSraOrganisations(input: Uint8Array | string | AsyncIterable<Uint8Array>): AsyncGenerator<RegisterRecord<"sra">> {
  const notJson = (why: string) => new RegisterFormatError(`sra: the reply is not JSON (${why})`);
  const noList = () => new RegisterFormatError("sra: the reply has no Organisations array");
  let parser: JSONParser | null = null;
  let root: "array" | "object" | null = null;
  let organisations = 0;
  let misshapen = false;
  const found: unknown[] = [];
  const start = (first: number) => {
    if (first === 0x5b) root = "array";
    else if (first === 0x7b) root = "object";
    else throw notJson("it starts with neither [ nor {");
    // Only the organisations are emitted, each deleted from its array once emitted (keepStack: false).
    parser = new JSONParser({ paths: [root === "array" ? "$.*" : "$.Organisations.*"], keepStack: false });
    parser.onValue = ({ value, parent }) => {
      if (!Array.isArray(parent)) misshapen = true;
      else {
        organisations++;
        found.push(value);
      }
    };
  };
  const BOM = [0xef, 0xbb, 0xbf];
  let bomAt = 0; // bytes of a leading byte-order mark passed so far; -1 once past the start
  for await (let piece of piecesOf(input)) {
    // A byte-order mark may lead (the tokenizer does not take one), even split across pieces.
    if (typeof piece === "string") {
      if (bomAt === 0 && piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1);
      bomAt = -1;
    } else
      while (bomAt >= 0 && piece.length) {
        if (piece[0] !== BOM[bomAt]) bomAt = -1;
        else {
          piece = piece.subarray(1);
          bomAt = bomAt === 2 ? -1 : bomAt + 1;
        }
      }
    if (!piece.length) continue;
    if (!parser) {
      let i = 0;
      const code = (k: number) => (typeof piece === "string" ? piece.charCodeAt(k) : piece[k]);
      while (i < piece.length && WHITESPACE.has(code(i))) i++;
      if (i === piece.length) continue;
      start(code(i));
    }
    try {
      parser!.write(piece);
    } catch (e) {
      throw notJson((e as Error).message);
    }
    if (misshapen) throw noList();
    for (const o of found.splice(0)) {
      const rec = o && typeof o === "object" ? toRecord(o as SraOrganisation) : null;
      if (rec) yield rec;
    }
  }
  if (!parser) throw notJson("it is empty");
  if (!(parser as JSONParser).isEnded) throw notJson("it ends before the JSON does");
  if (root === "object" && organisations === 0) throw noList();
}
