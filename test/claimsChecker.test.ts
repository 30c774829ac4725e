import { describe, expect, it } from "vitest";
import { CLAIM_RULES, checkClaims, claimsOf, proseOf, sentencesOf } from "./support/claims";

/**
 * The claims checker itself (issue 28 §4, "say it once, check it always"; SPEC §1 rules 2 and 6, §2.5, §2.6, §4.5,
 * §4.8): sentences that must pass and sentences that must fail, so the test over every operation's reply
 * (test/claims.test.ts) can fail. Replies here are small made-up shapes of the real ones.
 */

const rulesOf = (reply: unknown) => checkClaims(reply).disagreements.map((d) => d.rule);
const claimed = (reply: unknown) => checkClaims(reply).claims.map((c) => c.rule);

describe("SPEC §4.5, §4.8: a register check's positive sentence needs its positive field, for a definite match", () => {
  const sponsor = (fields: Record<string, unknown>, summary: string) => ({ query: "07654321", ...fields, summary });

  it("'is a licensed sponsor' agrees with licensed: true and possibleMatch false", () => {
    expect(rulesOf(sponsor({ licensed: true, possibleMatch: false }, "Bayside Hotel Group Ltd is a licensed sponsor (workers; A rating)."))).toEqual([]);
    expect(claimed(sponsor({ licensed: true }, "Bayside Hotel Group Ltd is a licensed sponsor (workers; A rating)."))).toEqual(["licensed-sponsor"]);
  });

  it("'is a licensed sponsor' with licensed: false, or possibleMatch: true, or no field at all, fails", () => {
    const s = "Bayside Hotel Group Ltd is a licensed sponsor (workers; A rating).";
    expect(rulesOf(sponsor({ licensed: false, possibleMatch: true }, s))).toEqual(["licensed-sponsor"]);
    expect(rulesOf(sponsor({ licensed: true, possibleMatch: true }, s))).toEqual(["licensed-sponsor"]);
    expect(rulesOf(sponsor({}, s))).toEqual(["licensed-sponsor"]);
  });

  it("a negated or hedged sentence is not a positive: 'is not', 'no longer', 'Possible match only: …, listed as a sponsor'", () => {
    const f = { licensed: false, possibleMatch: true };
    expect(claimed(sponsor(f, "Bayside Hotel Group Ltd is no longer on the register of licensed sponsors (removed 2026-06-29)."))).toEqual([]);
    expect(claimed(sponsor(f, "Bayside Hotel Group Ltd is not a licensed sponsor."))).toEqual([]);
    // The possible-match sentence is a claim of its own, and agrees with possibleMatch: true.
    expect(
      rulesOf(
        sponsor(
          f,
          'Possible match only: Bayside Hotel Group Ltd, listed as a sponsor (workers; A rating), matches 07654321 through the company\'s former name "BAYSIDE HOTEL GROUP LTD".',
        ),
      ),
    ).toEqual([]);
    expect(claimed(sponsor(f, "Possible match only: Bayside Hotel Group Ltd may be a licensed sponsor."))).toEqual(["possible-match"]);
  });

  it("'supervised by HMRC' / 'on HMRC's supervised business register' needs supervisedByHmrc: true", () => {
    const s = "OAKHILL HOMES LIMITED is on HMRC's supervised business register (XEML00000111222: Approved).";
    expect(rulesOf({ supervisedByHmrc: true, possibleMatch: false, summary: s })).toEqual([]);
    expect(rulesOf({ supervisedByHmrc: false, possibleMatch: true, summary: s })).toEqual(["hmrc-supervised"]);
    expect(rulesOf({ supervisedByHmrc: false, summary: "The business is supervised by HMRC." })).toEqual(["hmrc-supervised"]);
    // "Not being on HMRC's register does not mean …" is not a positive.
    expect(
      claimed({ supervisedByHmrc: false, summary: "Not being on HMRC's register does not mean the business is unsupervised: another body may supervise it." }),
    ).toEqual([]);
  });

  it("'authorised by the Solicitors Regulation Authority' needs authorised: true; a firm's own note is judged on the firm", () => {
    const s = "Riverine Solicitors (SRA 8005864) is authorised by the Solicitors Regulation Authority.";
    expect(rulesOf({ authorised: true, possibleMatch: false, summary: s, firms: [{ authorised: true }] })).toEqual([]);
    expect(rulesOf({ authorised: false, possibleMatch: true, summary: s, firms: [{ authorised: true }] })).toEqual(["sra-authorised"]);
    // The firm is authorised whatever the match: its own statusMeaning agrees with its own field.
    expect(
      rulesOf({
        authorised: false,
        possibleMatch: true,
        summary: "Possible match only.",
        firms: [{ authorised: true, statusMeaning: "Authorised by the SRA to practise." }],
      }),
    ).toEqual([]);
    expect(rulesOf({ authorised: true, firms: [{ authorised: false, statusMeaning: "Authorised by the SRA to practise." }] })).toEqual(["sra-authorised"]);
  });

  it("'registered with CQC' and 'registered with the Charity Commission' need registered: true", () => {
    expect(
      rulesOf({ registered: true, possibleMatch: false, summary: "Meadow Care Homes Limited is registered with CQC with 2 registered locations." }),
    ).toEqual([]);
    expect(
      rulesOf({ registered: false, possibleMatch: true, summary: "Meadow Care Homes Limited is registered with CQC with 2 registered locations." }),
    ).toEqual(["cqc-registered"]);
    expect(
      rulesOf({ registered: true, summary: "RIVERSIDE COMMUNITY TRUST (charity 1100001) is registered with the Charity Commission; latest income £245,310." }),
    ).toEqual([]);
    expect(
      rulesOf({ registered: false, possibleMatch: true, summary: "RIVERSIDE COMMUNITY TRUST (charity 1100001) is registered with the Charity Commission." }),
    ).toEqual(["registered-charity"]);
    // "registered office", "registered under SIC code", "registered manager" are not register claims.
    expect(
      claimed({ summary: "Your company is registered under SIC code 69102. The registered office is in Bristol. There was a registered manager." }),
    ).toEqual([]);
  });

  it("'registered charity number N' needs the charity register to have it (a reader's `register: {charityNumber, found}`)", () => {
    expect(rulesOf({ register: { charityNumber: "1187654", found: true }, summary: "Riverside Reading Project (registered charity number 1187654)." })).toEqual(
      [],
    );
    expect(
      rulesOf({ register: { charityNumber: "1187654", found: false }, summary: "Riverside Reading Project (registered charity number 1187654)." }),
    ).toEqual(["registered-charity"]);
    // Reported speech is not our assertion.
    expect(
      claimed({
        register: { charityNumber: "1187654", found: false },
        recognition: { note: "Read as a charity's report (it mentions a registered charity, a trustees' report)." },
      }),
    ).toEqual([]);
  });
});

describe("SPEC §4.8: a reply listing several registers judges each sentence on the register it names", () => {
  const reg = (register: string, found: boolean, possibleMatch = false) => ({ register, found, possibleMatch });
  it("'is on the SRA register' needs the sra entry found, not another register's", () => {
    const summary = "HARBOURSIDE LEGAL LIMITED (01234567) is on the SRA register (authorised).";
    expect(rulesOf({ summary, registers: [reg("aml", false), reg("sra", true)] })).toEqual([]);
    expect(rulesOf({ summary, registers: [reg("aml", true), reg("sra", false)] })).toEqual(["sra-authorised"]);
    expect(rulesOf({ summary, registers: [reg("sra", true, true)] })).toEqual(["sra-authorised"]);
  });

  it("'Not found on <registers>' fails when a register it names has the company, and 'On this register' needs its own found", () => {
    const summary =
      "Not found on the HMRC money-laundering supervision register (edition of 2026-11-07), the licensed sponsors register (edition of 2026-06-29).";
    expect(rulesOf({ summary, registers: [reg("aml", false), reg("sponsors", false), reg("sra", true)] })).toEqual([]);
    expect(rulesOf({ summary, registers: [reg("aml", false), reg("sponsors", true)] })).toEqual(["not-on-register"]);
    expect(rulesOf({ registers: [{ ...reg("sra", true), note: "On this register (edition of 2026-10-08)." }] })).toEqual([]);
    expect(rulesOf({ registers: [{ ...reg("sra", false), note: "On this register (edition of 2026-10-08)." }] })).toEqual(["on-this-register"]);
    expect(rulesOf({ registers: [{ ...reg("sra", true), note: "Not on this register (edition of 2026-10-08)." }] })).toEqual(["not-on-register"]);
  });

  it("each item of a batch is judged on its own fields, not on another item's", () => {
    const item = (licensed: boolean) => ({ profile: { licensed, summary: "It is a licensed sponsor." } });
    expect(rulesOf({ results: [item(true), item(true)] })).toEqual([]);
    expect(rulesOf({ results: [item(true), item(false)] })).toEqual(["licensed-sponsor"]);
    expect(checkClaims({ results: [item(true), item(false)] }).disagreements[0].path).toBe("results[1].profile.summary");
  });
});

describe("issue 28 §1: 'possible match' needs possibleMatch: true where the field exists, and no positive beside it where it does not", () => {
  it("agrees with possibleMatch: true", () => {
    expect(rulesOf({ registered: false, possibleMatch: true, matchedBy: "name (possible match)" })).toEqual([]);
  });
  it("fails with possibleMatch: false, or without the field while a positive is true (charity-check's old reply)", () => {
    expect(rulesOf({ registered: true, possibleMatch: false, matchedBy: "name (possible match)" })).toEqual(["possible-match"]);
    expect(rulesOf({ registered: true, matchedBy: "name (possible match)" })).toEqual(["possible-match"]);
    expect(rulesOf({ registered: false, matchedBy: "name (possible match)" })).toEqual([]);
  });
});

describe("SPEC §4.4, §4.8: 'meets', 'passes' and 'qualifies' need their fields", () => {
  it("'meets the template' needs meetsTemplate: true; a verdict 'meets' counts", () => {
    const reading = "The plan has 8 of the 8 parts the template asks for: it meets the template.";
    expect(rulesOf({ meetsTemplate: true, reading })).toEqual([]);
    expect(rulesOf({ meetsTemplate: false, reading })).toEqual(["meets"]);
    expect(rulesOf({ reading })).toEqual(["meets"]);
    expect(rulesOf({ signOff: { verdict: "meets" }, summary: "Sign-off under s.54(6): meets the requirement." })).toEqual([]);
    expect(rulesOf({ signOff: { verdict: "does_not_meet" }, summary: "Sign-off under s.54(6): meets the requirement." })).toEqual(["meets"]);
    expect(claimed({ meetsTemplate: false, reading: "It does not meet the template." })).toEqual([]);
  });
  it("'passes' needs a pass verdict; 'cannot show a pass' is not a claim", () => {
    expect(rulesOf({ ppn018: { overall: "pass" }, summary: "The company passes the PPN 018 payment test." })).toEqual([]);
    expect(rulesOf({ ppn018: { overall: "fail" }, summary: "The company passes the PPN 018 payment test." })).toEqual(["passes"]);
    expect(claimed({ ppn018: { overall: "not-enough-reports", explanation: "The published reports cannot show a pass." } })).toEqual([]);
  });
  it("'qualifies' needs qualifies: true", () => {
    expect(rulesOf({ signature: { value: { qualifies: true }, note: "Qualifies: a director signs." } })).toEqual([]);
    expect(rulesOf({ signature: { value: { qualifies: false }, note: "Qualifies: a director signs." } })).toEqual(["qualifies"]);
  });
});

describe("SPEC §1 rule 6 and issue 28 §2: absences must not be claimed against the fields", () => {
  it("'no proposal to strike off' fails when a status field shows one, or when no status was read", () => {
    const summary = "Active; no proposal to strike off.";
    expect(rulesOf({ company: { status: "active", statusDetail: null }, summary })).toEqual([]);
    expect(rulesOf({ company: { status: "active", statusDetail: "active-proposal-to-strike-off" }, summary })).toEqual(["no-strike-off"]);
    expect(rulesOf({ summary })).toEqual(["no-strike-off"]);
  });
  it("'a proposal to strike … off' said as a fact needs a status field showing it", () => {
    const summary = "Companies House shows a proposal to strike BAYSIDE HOSPITALITY LIMITED off the register.";
    expect(rulesOf({ company: { statusDetail: "active-proposal-to-strike-off" }, summary })).toEqual([]);
    expect(rulesOf({ company: { status: "active" }, summary })).toEqual(["strike-off-proposed"]);
  });
  it("'no insolvency' fails against a liquidation status", () => {
    expect(rulesOf({ status: "active", summary: "There is no insolvency on record." })).toEqual([]);
    expect(rulesOf({ status: "liquidation", summary: "There is no insolvency on record." })).toEqual(["no-insolvency"]);
  });
  it("sanctions: 'no definite match' needs a check that ran with none; 'is on the sanctions list' needs a definite match", () => {
    expect(
      rulesOf({
        sanctions: { checked: true, definiteMatches: [] },
        summary: "No definite match on the UK sanctions list (list of 2026-10-01); this is not a clearance.",
      }),
    ).toEqual([]);
    expect(rulesOf({ sanctions: { checked: false, definiteMatches: [] }, summary: "No definite match on the UK sanctions list." })).toEqual([
      "no-sanctions-match",
    ]);
    expect(rulesOf({ sanctions: { checked: true, definiteMatches: [{ id: "RUS0001" }] }, summary: "No definite match on the UK sanctions list." })).toEqual([
      "no-sanctions-match",
    ]);
    expect(rulesOf({ sanctions: { checked: true, definiteMatches: [] }, summary: "The company is on the UK sanctions list." })).toEqual(["sanctions-listed"]);
    expect(
      claimed({
        sanctions: {
          checked: false,
          definiteMatches: [],
          note: "The UK sanctions list has not been loaded on this service yet, so it was not checked; this is not a clearance.",
        },
      }),
    ).toEqual([]);
  });
  it("'nothing required was found missing or wrong' needs an empty problems list", () => {
    expect(rulesOf({ problems: [], summary: "Nothing required was found missing or wrong on example.co.uk." })).toEqual([]);
    expect(rulesOf({ problems: [{ id: "email-missing" }], summary: "Nothing required was found missing or wrong on example.co.uk." })).toEqual([
      "nothing-missing",
    ]);
  });
  it("'no X found' needs found: false, or the list named after X empty", () => {
    expect(rulesOf({ reports: [], note: "No payment practices report found for this company." })).toEqual([]);
    expect(rulesOf({ reports: [{ period: "2025" }], note: "No payment practices report found for this company." })).toEqual(["no-x-found"]);
    expect(rulesOf({ found: false, reading: "No carbon reduction plan was found on the site." })).toEqual([]);
    expect(rulesOf({ found: true, reading: "No carbon reduction plan was found on the site." })).toEqual(["no-x-found"]);
  });
});

describe("the walk: prose is found by walking the reply, sources and the echo are not prose", () => {
  it("finds prose at any depth and in lists, and skips the query echo, quotes, names and labels", () => {
    const reply = {
      query: { text: "This charity is a registered charity." },
      summary: "One two.",
      nested: { deeper: { conclusion: "Three four." } },
      notes: ["Five six."],
      evidence: { quote: "It is a licensed sponsor." },
      name: "Home Office register of licensed sponsors",
      label: "No proposal to strike off",
    };
    expect(proseOf(reply).map((p) => p.path)).toEqual(["summary", "nested.deeper.conclusion", "notes[0]"]);
    expect(checkClaims(reply).claims).toEqual([]);
  });
  it("splits sentences and finds the claim in the right one", () => {
    expect(sentencesOf("X is a licensed sponsor (workers; A rating). Companies House shows a proposal to strike X off the register.")).toHaveLength(2);
    expect(claimsOf("X is a licensed sponsor (workers; A rating).").map((r) => r.id)).toEqual(["licensed-sponsor"]);
  });
  it("every rule of the table is exercised by a failing case above (the table cannot grow a rule that never fails)", () => {
    // Kept in step by hand: a new rule needs its pass and fail cases in this file.
    const tested = new Set([
      "licensed-sponsor",
      "hmrc-supervised",
      "sra-authorised",
      "cqc-registered",
      "registered-charity",
      "on-this-register",
      "meets",
      "passes",
      "qualifies",
      "sanctions-listed",
      "possible-match",
      "no-strike-off",
      "strike-off-proposed",
      "no-insolvency",
      "no-sanctions-match",
      "not-on-register",
      "nothing-missing",
      "no-x-found",
    ]);
    expect(CLAIM_RULES.map((r) => r.id).filter((id) => !tested.has(id))).toEqual([]);
  });
});
