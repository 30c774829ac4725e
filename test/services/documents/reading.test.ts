import { SHARED_PRESENT } from "../../support/shared";
import { describe, expect, it } from "vitest";
import { htmlBlocks, pdfBlocks } from "../../../src/services/documents/blocks";
import { sectionsOf, sentences } from "../../../src/services/documents/segment";
import { InputError } from "../../../src/shared/errors";
import { readPdf } from "../../../src/sources/documents/pdf";

/**
 * Issue 17 §1, the reading pipeline's first steps (not yet wired to an operation): HTML through linkedom with the page
 * chrome dropped and headings kept, a PDF page by page through unpdf (a scan refused), segmented into headed sections
 * and sentences that keep their page. Real documents first (../shared/corpora, skipped without it).
 */
const bytes = async (p: string) => new Uint8Array(await (await fetch(`http://shared.test/corpora/${p}`)).arrayBuffer());
const headings = (secs: ReturnType<typeof sectionsOf>) => secs.map((s) => (s.page ? `${s.heading}@${s.page}` : s.heading));

describe.skipIf(!SHARED_PRESENT)("real documents (../shared/corpora)", () => {
  it('Apexiar\'s CRP (PDF): its text layer\'s split "f" ligatures mended ("The f ollowing" reads "The following")', async () => {
    const pdf = await readPdf(await bytes("carbon-reduction-plans/apexiar-crp.pdf"));
    const text = pdf.pages.join("\n");
    expect(text).toContain("The following categories");
    expect(text).not.toMatch(/\bf (?:ollowing|or|igures)\b/);
  });

  it("Cwiri's modern slavery statement (HTML): its ten numbered sections, in order, each with its sentences", async () => {
    const { title, blocks } = htmlBlocks(new TextDecoder().decode(await bytes("modern-slavery/statements/cwiri-mss-2026.html")));
    expect(title).toBe("Cwiri | Modern Slavery Statement 2026");
    const secs = sectionsOf(blocks);
    expect(headings(secs).filter(Boolean)).toEqual([
      "1) Organisation",
      "2) Definitions",
      "3) Commitment",
      "4) Supply chains",
      "5) Potential exposure",
      "6) Steps taken",
      "7) Key performance indicators",
      "8) Policies",
      "9) Training",
      "10) Approval",
    ]);
    for (const s of secs.filter((x) => x.heading)) expect(s.sentences.length, s.heading!).toBeGreaterThan(0);
  });

  it("Planned Ltd's statement (HTML): the eight numbered sections; the site's navigation and footer are not read", async () => {
    const html = new TextDecoder().decode(await bytes("modern-slavery/statements/planned-ltd-modern-slavery.html"));
    const { blocks } = htmlBlocks(html);
    const secs = sectionsOf(blocks);
    expect(headings(secs)).toEqual([
      "Modern Slavery and Human Trafficking Statement",
      "1. Our organisation and supply chain",
      "2. Our position",
      "3. Risk assessment",
      "4. Due diligence and our approach",
      "5. Training and awareness",
      "6. Measuring effectiveness",
      "7. Reporting a concern",
      "8. Approval",
    ]);
    // Nothing before the statement's own heading: the site's header and navigation are not read.
    expect(blocks[0]).toMatchObject({ kind: "heading", text: "Modern Slavery and Human Trafficking Statement" });
    expect(html).toMatch(/<nav[\s>]/i);
  });

  it("EDAN's statement (PDF, 2 pages): headings found by their lines, each sentence keeps its page", async () => {
    const pdf = await readPdf(await bytes("modern-slavery/statements/edan-uk-mss-2024.pdf"));
    expect(pdf).toMatchObject({ totalPages: 2, cut: false });
    const secs = sectionsOf(pdfBlocks(pdf.pages));
    expect(headings(secs)).toEqual(
      expect.arrayContaining(["Organisation’s structure@1", "Our Supply Chains@1", "Due Diligence Processes for Slavery and Human Trafficking@1", "Signed@2"]),
    );
    const all = secs.flatMap((s) => s.sentences);
    // "Ltd.," does not end the sentence.
    expect(all.find((s) => s.text.startsWith("EDAN Medical (UK) Ltd., is a wholly owned subsidiary"))).toMatchObject({ page: 1 });
    expect(all.every((s) => s.page === 1 || s.page === 2)).toBe(true);
  });

  it("the Ofsted 2016 report (PDF, 10 pages): the running header on every page is not a heading; sentence-case headings are", async () => {
    const pdf = await readPdf(await bytes("ofsted/farnham-heath-end-school-2016-s5.pdf"));
    expect(pdf.totalPages).toBe(10);
    const secs = sectionsOf(pdfBlocks(pdf.pages));
    const hs = headings(secs);
    expect(hs.some((h) => /^Inspection report:/.test(h ?? ""))).toBe(false);
    expect(hs).toEqual(expect.arrayContaining(["Full report@2", "Inspection judgements@3", "Outcomes for pupils require improvement@6", "School details@8"]));
    // The grades table is read as lines of text on page 1.
    expect(pdf.pages[0]).toMatch(/^Overall effectiveness Requires improvement$/m);
  });

  it("a carbon reduction plan (PDF): table rows and labelled values are not headings", async () => {
    const pdf = await readPdf(await bytes("carbon-reduction-plans/apexiar-crp.pdf"));
    const hs = headings(sectionsOf(pdfBlocks(pdf.pages)));
    expect(hs).toEqual(expect.arrayContaining(["Baseline Emissions Footprint@1", "Current Emissions Reporting@2", "Declaration and Sign Off@3"]));
    expect(hs.some((h) => /^(Scope \d|Total Emissions|Baseline Year:)/.test(h ?? ""))).toBe(false);
  });

  it("a PDF with no text layer (a scan) is refused as unreadable, saying it looks scanned", async () => {
    const e = await readPdf(await bytes("modern-slavery/statements/edan-uk-mss-older-no-text-layer.pdf")).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect(e).toMatchObject({ code: "unreadable_input", message: expect.stringMatching(/no text layer.*scanned/) });
  });
});

describe("the pipeline on our own inputs", () => {
  it("HTML: navigation, site header and footer, scripts, forms and hidden parts are dropped; a header inside the article is kept", () => {
    const { blocks } = htmlBlocks(`<!doctype html><html><head><title>Statement</title><script>var x = "Menu";</script></head><body>
      <header><a href="/">Home</a><nav><a href="/about">About us</a></nav></header>
      <main><article><header><h1>Modern slavery statement 2025</h1></header>
        <p>This statement is made under section 54(1) of the Modern Slavery Act 2015. It covers the year ending 31 March 2025.</p>
        <h2>Our supply chains</h2><ul><li>Timber from the UK.</li><li>Fixings from Germany.</li></ul>
        <div hidden>Draft notes</div><form><label>Search <input></label><button>Go</button></form>
      </article></main>
      <footer><p>© Example Ltd. Registered in England and Wales No. 01234567.</p></footer></body></html>`);
    expect(blocks).toEqual([
      { kind: "heading", level: 1, text: "Modern slavery statement 2025" },
      { kind: "text", text: "This statement is made under section 54(1) of the Modern Slavery Act 2015. It covers the year ending 31 March 2025." },
      { kind: "heading", level: 2, text: "Our supply chains" },
      { kind: "text", text: "Timber from the UK." },
      { kind: "text", text: "Fixings from Germany." },
    ]);
  });

  it("sentences: abbreviations, initials, numbers and decimals do not end one; a question or a quotation does", () => {
    expect(
      sentences(
        "Example Ltd. is registered as No. 01234567 in England. Emissions were 3.06 tCO2e in 2024. Approved by J. Smith, e.g. the board. Is it signed? Yes.",
      ),
    ).toEqual([
      "Example Ltd. is registered as No. 01234567 in England.",
      "Emissions were 3.06 tCO2e in 2024.",
      "Approved by J. Smith, e.g. the board.",
      "Is it signed?",
      "Yes.",
    ]);
    expect(sentences('He said "we comply." The board agreed.')).toEqual(['He said "we comply."', "The board agreed."]);
  });

  it("PDF pages: a running footer repeated on every page is dropped; a word broken at a line end is joined", () => {
    const page = (n: number, body: string) => `Annual statement\n${body}\nExample Ltd · page ${n} of 3`;
    const blocks = pdfBlocks([
      page(1, "Our approach\nWe assess every sup-\nplier before we buy."),
      page(2, "Training\nAll staff are trained."),
      page(3, "Approval\nApproved by the board."),
    ]);
    expect(blocks.map((b) => `${b.kind}:${b.text}@${b.page}`)).toEqual([
      "heading:Our approach@1",
      "text:We assess every supplier before we buy.@1",
      "heading:Training@2",
      "text:All staff are trained.@2",
      "heading:Approval@3",
      "text:Approved by the board.@3",
    ]);
  });

  it("not a PDF: refused as unreadable before anything is parsed", async () => {
    await expect(readPdf(new TextEncoder().encode("<html>not a pdf</html>"))).rejects.toMatchObject({ code: "unreadable_input" });
  });
});
