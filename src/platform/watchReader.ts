/**
 * The daily read of one watched company (issue 15 §2 "The daily read"): every source a reading is made of
 * (services/watch/reading.ts), read the way the operations that answer for each source read it, so a watch says
 * what those operations say. A source that cannot be read is an Error in its field, never "none" (SPEC §3.1):
 * the reading then says that section was not read, and the diff keeps the last good one.
 *
 * Companies House calls count against a budget shared with every caller (600 per 5 minutes), so the profile is
 * read once and handed to the register lookups; the other Companies House reads are the distress operation's.
 */
import { paymentReportsOf } from "../app/money/paymentReports";
import { awardKeysByNameAndPostcode } from "../app/money/contractAwards";
import { findOnRegister } from "../app/money/registerLookup";
import type { CompanyProfile } from "../services/companies/profile";
import type { ContractAward } from "../services/contracts/types";
import { normaliseCompanyNumber } from "../services/matching/companyNumber";
import type { Entry, RegisterSource } from "../services/registers/types";
import { matchCompany } from "../services/sanctions/match";
import { type ReadingInput, STRIKE_OFF_DETAIL, WATCHED_REGISTERS } from "../services/watch/reading";
import { NotFoundError } from "../shared/errors";
import type { Services } from "./services";

export interface CompanyRead {
  /** The company's registered name from the profile, or null when the profile could not be read / no such company. */
  name: string | null;
  input: ReadingInput;
}

/** Contract awards read at most (the newest first); the reading keeps the newest MAX_CONTRACTS of them. */
const MAX_AWARDS_READ = 1000;
const AWARDS_PAGE = 100;

/** What `f` gives, or the Error it threw. */
async function attempt<T>(f: () => Promise<T>): Promise<T | Error> {
  try {
    return await f();
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/**
 * Reads one watched company from every source, never throwing for a source failure: each failure is an Error in
 * its field. `company` is a normalised company number. Per company, at most: Companies House 1 profile + up to
 * 5 pages each of officers and PSCs + insolvency + charges + (proposed for strike-off only) 1 filing-history page;
 * The Gazette up to 3 searches and 5 notices' linked data (both cached); the rest is D1.
 */
export async function readWatchedCompany(services: Services, company: string, now: Date): Promise<CompanyRead> {
  const readAt = now.toISOString();
  const ch = services.companiesHouse;
  const profile = await attempt(() => ch.getProfile(company));
  const known: CompanyProfile | null = profile instanceof Error ? null : profile;
  /**
   * The profile for matching by name: null when there is no such company; throws when it could not be read. A
   * source matched by name is then not read at all: read by number alone, what its names match would vanish for a
   * day and come back as news.
   */
  const names = () => {
    if (profile instanceof Error) throw new Error(`the company's names could not be read from Companies House: ${profile.message}`);
    return known;
  };

  // The register lookups (app/registers/lookup.ts) read the profile to match by name: they get the
  // one read above instead (the client's D1 cache would make a second read free of budget, but not of a query).
  const lookups: Pick<Services, "registers" | "companiesHouse"> = {
    registers: services.registers,
    companiesHouse: {
      ...ch,
      getProfile: async (n) => {
        if (normaliseCompanyNumber(n) !== company) return ch.getProfile(n);
        if (profile instanceof Error) throw profile;
        return profile;
      },
    },
  };
  /** A register that was never loaded cannot say the company is not on it. */
  const loaded = async (source: RegisterSource, what: string) => {
    if (!(await services.registers.editionInfo(source)).editionDate) throw new Error(`${what} is not loaded yet`);
  };
  /** What a register lookup found; not on the register (or no such company) is none. */
  const onRegister = async <T>(f: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await f();
    } catch (e) {
      if (e instanceof NotFoundError) return [];
      throw e;
    }
  };

  const [chParts, sanctions, payments, contracts, sponsors, registers] = await Promise.all([
    // Companies House and The Gazette, as checkDistressSignals reads them; none of it for no profile.
    known ? readDistressSources(services, known) : Promise.resolve({}),
    // The UK sanctions list: definite matches only (SPEC §1 rule 6), as checkDistressSignals matches them.
    attempt(async () => {
      const list = await services.sanctions.current();
      if (!list) return null;
      const p = names();
      const definite = matchCompany(list.index, {
        number: company,
        name: p?.name ?? "", // no such company: by the number alone
        previousNames: p?.previousNames.map((x) => x.name),
        postcode: p?.registeredOffice.postcode,
        country: p?.registeredOffice.country,
      }).definite.filter((m) => m.kind !== "individual");
      return { listDate: list.listDate, definite };
    }),
    // Payment practices: by the number on the reports, else the registered and former names (getPaymentPractices).
    attempt(async () => {
      await loaded("payment-practices", "the payment practices register");
      return onRegister(async () => (await paymentReportsOf(lookups, company)).reports);
    }),
    // Contracts won: by company number, and by exact name at the registered office's postcode (listContractsWon).
    attempt(async () => {
      await loaded("contracts", "the contracts register");
      const p = names();
      const keys = p ? await awardKeysByNameAndPostcode(services, p) : [];
      const out: ContractAward[] = [];
      for (let offset = 0; offset < MAX_AWARDS_READ; offset += AWARDS_PAGE) {
        const page = await services.contracts.contractAwardsOf({ numbers: [company], keys, since: null }, AWARDS_PAGE, offset);
        out.push(...page.map((r) => r.award));
        if (page.length < AWARDS_PAGE) break;
      }
      return out;
    }),
    // Licensed sponsors: through the registered and former names (checkSponsorLicence's lookup), removed ones included.
    attempt(async () => {
      await loaded("sponsors", "the register of licensed sponsors");
      // Only a definite match is the company's (issue 28 §1): a sponsor matched through a former name may be another business.
      return onRegister(async () => (await findOnRegister(lookups, "sponsors", company)).sure);
    }),
    // HMRC's AML register, the SRA's, CQC's and the Charity Commission's (issue 33 §3): each loaded register, its
    // definite matches by the company number on its own record or the registered and former names, with its edition.
    attempt(async () => {
      const parts = await Promise.all(
        WATCHED_REGISTERS.map(async (register) => {
          const edition = (await services.registers.editionInfo(register)).editionDate;
          if (!edition) return null; // never loaded: not read, so never "not on it"
          const entries = await onRegister(async () => (await findOnRegister(lookups, register, company)).sure);
          return { register, edition, entries: entries as Entry[] };
        }),
      );
      return parts.filter((p): p is NonNullable<typeof p> => p !== null);
    }),
  ]);

  return {
    name: known?.name ?? null,
    input: { company, readAt, profile, ...chParts, sanctions, payments, contracts, sponsors, registers },
  };
}

/** The Companies House and Gazette parts of a reading: the calls and conditions of checkDistressSignals, in parallel. */
async function readDistressSources(services: Services, p: CompanyProfile): Promise<Partial<ReadingInput>> {
  const ch = services.companiesHouse;
  const n = p.number;
  const forMatching = { number: n, name: p.name, previousNames: p.previousNames.map((x) => x.name), postcode: p.registeredOffice.postcode };
  // Insolvency and charges are read whatever the profile says (CompanyProfile does not carry has_insolvency_history
  // or has_charges): a company without them answers 404, kept in the client's cache as "none".
  const [officers, pscs, insolvency, charges, gazetteFilings, notices] = await Promise.all([
    attempt(() => ch.getOfficers(n)),
    attempt(() => ch.getPscs(n)),
    attempt(() => ch.getInsolvency(n)),
    attempt(() => ch.getCharges(n)),
    p.statusDetail === STRIKE_OFF_DETAIL ? attempt(() => ch.getFilingHistory(n, { category: "gazette", limit: 25 })) : Promise.resolve(null),
    attempt(async () => (await services.gazette.insolvencyNotices(forMatching)).matched),
  ]);
  return { officers, pscs, insolvency, charges, gazetteFilings, notices };
}
