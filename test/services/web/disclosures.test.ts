import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import {
  classifyVat,
  findName,
  normalisePostcode,
  poBoxes,
  sameCompanyName,
  scrubPeople,
  statedAddresses,
  statedCharityNumbers,
  statedCompanyNames,
  statedCompanyNumbers,
  statedEmails,
  statedPlaces,
  statedVatNumbers,
  vatCheckDigits,
} from "../../../src/services/web/disclosures";

const numbers = (t: string) => statedCompanyNumbers(t).map((s) => s.number);

describe("statedCompanyNumbers", () => {
  it("reads the usual labels, normalised to 8 characters", () => {
    expect(numbers("Acme Widgets Ltd. Company No. 01234567")).toEqual(["01234567"]);
    expect(numbers("Registered in England and Wales No: 1234567")).toEqual(["01234567"]);
    expect(numbers("Company registration number SC123456")).toEqual(["SC123456"]);
    expect(numbers("Registered number: 09876543")).toEqual(["09876543"]);
    expect(numbers("Company Number:08881845")).toEqual(["08881845"]);
    expect(numbers("Co. Reg. No. 4567890")).toEqual(["04567890"]);
    expect(numbers("Company Reg: 12345678")).toEqual(["12345678"]);
    expect(numbers("CRN 11223344")).toEqual(["11223344"]);
    expect(numbers("Registered in England & Wales. Company No 0123 4567")).toEqual(["01234567"]);
    expect(numbers("LLP number OC301234")).toEqual(["OC301234"]);
    expect(numbers("Registered in Northern Ireland, company number NI 612345")).toEqual(["NI612345"]);
    expect(numbers("A company registered in England and Wales under number 02345678.")).toEqual(["02345678"]);
    expect(numbers("Registered in England: 17350497")).toEqual(["17350497"]);
    expect(numbers("Incorporated in Scotland with registered number SC 98765")).toEqual(["SC098765"]);
    expect(numbers("Registered in England and Wales as a private limited company, number 07654321")).toEqual(["07654321"]);
    expect(numbers("Company No. R0000123")).toEqual(["R0000123"]);
  });

  it("never takes a phone, VAT, charity or ICO number", () => {
    expect(numbers("Tel: 020 7946 0000. VAT Registration Number: 123 4567 89")).toEqual([]);
    expect(numbers("VAT Reg No. GB123456789")).toEqual([]);
    expect(numbers("Registered Charity No. 1098765")).toEqual([]);
    expect(numbers("Scottish Charity Number SC012345")).toEqual([]);
    expect(numbers("Charity registration number 1234567")).toEqual([]);
    expect(numbers("ICO Registration: ZC052947")).toEqual([]);
    expect(numbers("ICO registration number ZA123456")).toEqual([]);
    expect(numbers("FCA Firm Reference Number 123456")).toEqual([]);
    expect(numbers("Registered number 020 7946 0000")).toEqual([]);
    expect(numbers("Registered in England and Wales at 12 High Street")).toEqual([]);
    expect(numbers("Registered in England and Wales since 2012")).toEqual([]);
  });

  it("takes the company number beside other schemes' numbers", () => {
    expect(numbers("VAT No. GB 123 4567 89 | Company Reg No 7654321 | Registered Charity 1098765")).toEqual(["07654321"]);
    expect(numbers("Charity Number: 1123456. Company Number: 5987654")).toEqual(["05987654"]);
    expect(numbers("Registered in England and Wales No. 1234567, registered charity no. 7654321")).toEqual(["01234567"]);
  });

  it("states each number once, with a short quote around it and no person's name", () => {
    const text = "© 2026 Acme Widgets Limited. Registered in England and Wales, company number 01234567. Directors: Jane Example, John Sample.";
    const [s] = statedCompanyNumbers(text);
    expect(s.number).toBe("01234567");
    expect(s.quote).toContain("company number 01234567");
    expect(s.quote).not.toMatch(/Jane|John/);
    expect(s.quote.length).toBeLessThanOrEqual(202);
    expect(statedCompanyNumbers("Company No. 01234567 … Company number 1234567")).toHaveLength(1);
    const long = `${"word ".repeat(100)}Company No. 01234567 ${"word ".repeat(100)}`;
    const [l] = statedCompanyNumbers(long);
    expect(l.quote).toContain("01234567");
    expect(l.quote.length).toBeLessThanOrEqual(202);
  });

  it.skipIf(!SHARED_PRESENT)("reads real footers (shared corpus)", async () => {
    const text = async (p: string) => {
      const html = await (await fetch(`http://shared.test/${p}`)).text();
      return html
        .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/gi, " ")
        .replace(/<[^>]+>/g, "\n")
        .replace(/&amp;/g, "&")
        .replace(/&copy;/g, "©");
    };
    expect(numbers(await text("corpora/modern-slavery/statements/cwiri-mss-2026.html"))).toEqual(["SC859594"]);
    expect(numbers(await text("corpora/modern-slavery/statements/planned-ltd-modern-slavery.html"))).toEqual(["08881845"]);
    expect(numbers(await text("corpora/modern-slavery/statements/wildfig-research-mss.html"))).toEqual(["17350497"]);
    expect(numbers(await text("corpora/carbon-reduction-plans/planned-ltd-crp.html"))).toEqual(["08881845"]);
  });
});

describe("the other extractors", () => {
  it("statedAddresses: the address before each UK postcode, the registered office label, PO boxes", () => {
    const a = statedAddresses("© Acme Ltd. Registered office: 10 Quay Road, Bristol BS1 4QA. Showroom: Unit 4, Mill Lane, Leeds LS14AB");
    expect(a.map((x) => [x.address, x.postcode, x.registeredOffice, x.poBoxOnly])).toEqual([
      ["10 Quay Road, Bristol BS1 4QA", "BS1 4QA", true, false],
      ["Unit 4, Mill Lane, Leeds LS14AB", "LS1 4AB", false, false],
    ]);
    const block = statedAddresses("Contact us\nRegistered office\nAcme Ltd\n7 Anchor Road\nBristol\nBS1 5DB\nTel 0117 496 0000");
    expect(block).toMatchObject([{ address: "Acme Ltd, 7 Anchor Road, Bristol, BS1 5DB", registeredOffice: true }]);
    expect(statedAddresses("Write to PO Box 4521, Leeds LS2 7UE")).toMatchObject([{ poBoxOnly: true }]);
    expect(statedAddresses("PO Box 12, 3 High Street, Leeds LS2 7UE")).toMatchObject([{ poBoxOnly: false }]);
    expect(poBoxes("Post: P.O. Box 4521, Leeds")).toMatchObject([{ text: "P.O. Box 4521" }]);
  });

  it("POSTCODE: every valid format, nothing else", () => {
    for (const pc of ["M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "W1A 0AX", "EC1A 1BB", "GIR 0AA"])
      expect(normalisePostcode(pc.replace(" ", "")), pc).toBe(pc);
    for (const bad of ["QA1 1AA", "AB1 1CI", "12 345", "BS1"]) expect(normalisePostcode(bad), bad).toBeNull();
  });

  it("statedPlaces", () => {
    expect(statedPlaces("Registered in England & Wales no. 1").map((p) => [p.place, p.part])).toEqual([["England and Wales", "england-wales"]]);
    expect(statedPlaces("A company incorporated in Scotland").map((p) => p.part)).toEqual(["scotland"]);
    expect(statedPlaces("Registered in Northern Ireland").map((p) => p.part)).toEqual(["northern-ireland"]);
    expect(statedPlaces("A charity registered in Scotland")).toEqual([]);
  });

  it("statedVatNumbers: format and both HMRC check-digit schemes", () => {
    expect(vatCheckDigits("503638407")).toBe("mod9755");
    expect(vatCheckDigits("123456782")).toBe("mod97");
    expect(vatCheckDigits("123456789")).toBeNull();
    const v = statedVatNumbers(
      "VAT Registration: 503 6384 07. Our VAT no is GB123456782001. VAT number GB 123 4567 89. VAT No. GBGD001, GBHA599. VAT: 12345. Prices exclude VAT at 20%.",
    );
    expect(v.map((x) => [x.number, x.format, x.checkDigits])).toEqual([
      ["GB503638407", "standard", "pass"],
      ["GB123456782001", "branch", "pass"],
      ["GB123456789", "standard", "fail"],
      ["GBGD001", "government", "not_applicable"],
      ["GBHA599", "health", "not_applicable"],
      ["GB12345", "invalid", "not_applicable"],
    ]);
    expect(classifyVat("GBGD600").format).toBe("invalid");
    expect(statedVatNumbers("VAT No. GB 123 4567 82 Tel 0117 496 0000")[0].number).toBe("GB123456782");
  });

  it("statedEmails: plain and obfuscated; a personal address is never shown", () => {
    const e = statedEmails("Write to info@acme.co.uk or jane.example@acme.co.uk, or sales [at] acme [dot] co [dot] uk. Logo: logo@2x.png");
    expect(e.map((x) => x.shown)).toEqual(["info@acme.co.uk", "…@acme.co.uk", "sales@acme.co.uk"]);
    expect(e[1].email).toBeNull();
  });

  it("statedCharityNumbers", () => {
    expect(statedCharityNumbers("Registered charity no. 1098765. Scottish charity SC012345").map((c) => c.number)).toEqual(["1098765", "SC012345"]);
    expect(statedCharityNumbers("Company number SC012345")).toEqual([]);
  });

  it("findName and statedCompanyNames: Ltd/Limited, '&'/'and', case and punctuation aside", () => {
    expect(findName("© 2026 Harbourside & Co. Solicitors Ltd.", "HARBOURSIDE AND CO SOLICITORS LIMITED")).toMatchObject({ exact: true });
    expect(findName("Welcome to Acme Widgets, Bristol", "ACME WIDGETS LIMITED")).toMatchObject({ exact: false });
    expect(findName("Acme Widgetry Ltd", "ACME WIDGETS LIMITED")).toBeNull();
    expect(sameCompanyName("The O'Brien Group PLC", "OBRIEN GROUP PUBLIC LIMITED COMPANY")).toBe(true);
    expect(statedCompanyNames("© 2026 Acme Widgets Ltd. All rights reserved. Where Acme Widgets Ltd works…").map((n) => n.name)).toEqual(["Acme Widgets Ltd"]);
  });

  it("quotes never carry a person's name", () => {
    expect(scrubPeople("Acme Ltd, Jane Example, 10 Quay Road")).toBe("Acme Ltd, [name removed], 10 Quay Road");
    expect(scrubPeople("Registered office: 5 South Charlotte Street, Edinburgh EH2 4AN")).toBe(
      "Registered office: 5 South Charlotte Street, Edinburgh EH2 4AN",
    );
    const [a] = statedAddresses("Proprietor: John Sample | Registered office: 10 Quay Road, Bristol BS1 4QA");
    expect(a.quote).not.toMatch(/John|Sample/);
  });
});
