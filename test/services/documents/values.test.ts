import { describe, expect, it } from "vitest";
import { docFromText } from "../../../src/services/documents/document";
import { Reading, quoteOf } from "../../../src/services/documents/evidence";
import { datesIn, firstDate, moneyIn, monthsBetween } from "../../../src/services/documents/values";

describe("values read from sentences", () => {
  it("dates in the forms UK documents write them, day first; impossible dates refused", () => {
    const d = datesIn("Approved 23rd Feb. 2024, signed 1 March 2024 (2024-03-05), reviewed 05/04/2025 and 6.4.25; covers March 2023; not 31/02/2024.");
    expect(d.map((x) => x.iso)).toEqual(["2024-02-23", "2024-03-01", "2024-03-05", "2025-04-05", "2025-04-06", "2023-03"]);
    expect(firstDate("Signed on 12th of January, 2026 by a director")).toBe("2026-01-12");
    expect(firstDate("the year 2024")).toBeNull();
  });

  it("sums of money: separators, units, brackets and minus for negatives", () => {
    expect(moneyIn("Income £1,234,567; reserves £1.2m; a loss of £(4,500) and -£300; grants £12k.").map((m) => m.amount)).toEqual([
      1234567, 1200000, -4500, -300, 12000,
    ]);
    expect(moneyIn("£ 245", { thousands: true })[0].amount).toBe(245000);
  });

  it("months between dates", () => {
    expect(monthsBetween("2024-03-31", "2025-09-30")).toBe(17);
    expect(monthsBetween("2024-03", "2025-10")).toBe(19);
  });

  it("a quote is shortened around its match, on word boundaries", () => {
    const long = `${"word ".repeat(100)}the board approved this statement ${"more ".repeat(100)}`;
    const q = quoteOf(long, /board approved/);
    expect(q.length).toBeLessThanOrEqual(322);
    expect(q).toMatch(/^….*board approved.*…$/);
  });

  it("pasted text: a heading followed by a blank line is still a heading; a sentence standing alone is not", () => {
    const doc = docFromText(
      "Our supply chains\n\nWe buy timber from six mills in Scotland.\n\nWe are proud of our people.\n\nTraining\n\nAll buyers were trained in March.\n",
    );
    expect(doc.sections.map((s) => s.heading)).toEqual(["Our supply chains", "Training"]);
    expect(doc.sentences.map((s) => s.section)).toEqual(["Our supply chains", "Our supply chains", "Training"]);
  });

  it("text read as sections (Markdown headings, capitalised lines, bullets); a Reading remembers the passages cited", () => {
    const doc = docFromText(
      "# Statement\n\nWe are a small firm. We buy from ten suppliers.\n\nTraining\nAll staff were trained in 2024.\n- Buyers had extra sessions.\n- Managers too.\n",
    );
    expect(doc.sections.map((s) => s.heading)).toEqual(["Statement", "Training"]);
    expect(doc.sentences.map((s) => s.text)).toEqual([
      "We are a small firm.",
      "We buy from ten suppliers.",
      "All staff were trained in 2024.",
      "• Buyers had extra sessions.",
      "• Managers too.",
    ]);
    const r = new Reading(doc);
    expect(r.mentions(/suppliers/)).toBe(true);
    const s = r.find(/trained|sessions/);
    expect(s.map((x) => x.section)).toEqual(["Training", "Training"]);
    expect(r.cite(s[0])).toEqual({ quote: "All staff were trained in 2024.", page: null, section: "Training" });
    expect(r.passages()).toEqual([{ section: "Training", pages: [], sentences: 1 }]);
  });
});

describe("the last guard against names in quotes (services/documents/names.ts redactNames, redactQuotes)", () => {
  it("a name after an honorific or a signature label, and a heading that is a name, are taken out; roles and organisations stay", async () => {
    const { redactNames, redactQuotes } = await import("../../../src/services/documents/names");
    expect(redactNames("The chair of governors is Mrs Helen Rowbotham and Dr A. Patel visited.")).toBe("The chair of governors is [name] and [name] visited.");
    expect(redactNames("Signed: Jane Doe-Smith, Managing Director")).toBe("Signed: [name], Managing Director");
    expect(redactNames("Signed: Managing Director")).toBe("Signed: Managing Director");
    expect(redactNames("Signed on behalf of the Board of Directors")).toBe("Signed on behalf of the Board of Directors");
    // An organisation's name after a "name" label is not a person's.
    expect(redactNames("Supplier name: Northwold Facilities Services Ltd Publication date: 14/10/2026")).toBe(
      "Supplier name: Northwold Facilities Services Ltd Publication date: 14/10/2026",
    );
    expect(redactNames("Name: Acme Widgets Limited")).toBe("Name: Acme Widgets Limited");
    expect(redactNames("Name: Jane Harper")).toBe("Name: [name]");
    expect(redactQuotes({ a: [{ quote: "Print name: Sam Jones", page: 2, section: "Jane Harper" }], note: "Mr Smith" })).toEqual({
      a: [{ quote: "Print name: [name]", page: 2, section: "[name]" }],
      note: "Mr Smith",
    });
  });
});
