import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { deadlinesCalendar } from "../../src/services/companies/calendar";
import type { Deadline } from "../../src/services/companies/deadlines";
import { call, createTestKey, json } from "../helpers";

/**
 * SPEC §4.8 (deadlines: a free calendar feed `deadlines.ics`), issue 28 §4: RFC 5545 §3.1 says lines should not be
 * longer than 75 octets, excluding the line break, and a folded line's continuation starts with one space that counts
 * in its 75; folding must not split a UTF-8 character. The feed used to fold continuation lines at 76 octets.
 */

const octets = (line: string) => new TextEncoder().encode(line).length;
/** A UTF-16 surrogate without its pair: a character (4 UTF-8 octets) split between two lines. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkLines(ics: string): string[] {
  expect(ics.endsWith("\r\n"), "the feed ends with CRLF").toBe(true);
  const lines = ics.slice(0, -2).split("\r\n");
  expect(
    lines.every((l) => !l.includes("\n") && !l.includes("\r")),
    "every line ends with CRLF, never a bare LF or CR",
  ).toBe(true);
  expect(lines.filter((l) => octets(l) > 75).map((l) => `${octets(l)} octets: ${l}`)).toEqual([]);
  expect(lines.filter((l) => LONE_SURROGATE.test(l))).toEqual([]);
  return lines;
}

const deadline = (kind: Deadline["kind"], date: string, title: string): Deadline => ({ kind, date, daysLeft: 30, overdue: false, title });

describe("SPEC §4.8 deadlines.ics: every line at most 75 octets, folded between characters", () => {
  it("long names and titles with multi-byte characters (2, 3 and 4 octets) fold to lines of at most 75 octets, and unfold to the same text", () => {
    const company = { name: "Ærøskøbing Café & Crêperie — Ōsaka Łódź Ünal Žižek Søren 北海道 🍰🥐 Holdings Limited ".repeat(3).trim(), number: "01234567" };
    const title = "Accounts for the period to 31 March 2026 are due at Companies House — “déjà vu” 🧾 ".repeat(4).trim();
    const ics = deadlinesCalendar(
      company,
      [deadline("accounts-due", "2026-12-31", title), deadline("confirmation-statement-due", "2027-03-15", "Confirmation statement due")],
      "https://api.example.co.uk",
      new Date("2026-11-28T09:00:00Z"),
    );
    const lines = checkLines(ics);
    // Folding happened (the test would prove nothing on short lines), and some continuation lines are full.
    const continuations = lines.filter((l) => l.startsWith(" "));
    expect(continuations.length).toBeGreaterThan(10);
    expect(Math.max(...continuations.map(octets))).toBeGreaterThanOrEqual(72);
    // Unfolded and parsed back, every text is the one given (no character lost or split).
    const cal = new ICAL.Component(ICAL.parse(ics));
    expect(cal.getFirstPropertyValue("x-wr-calname")).toBe(`${company.name} (${company.number}): Companies House deadlines`);
    const events = cal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events[0].summary).toBe(`${company.name}: ${title}`);
    expect(events[0].description).toBe(`${title} (${company.name}, company ${company.number}). From the Companies House register.`);
    expect(events[0].component.getFirstSubcomponent("valarm")!.getFirstPropertyValue("description")).toBe(`${company.name}: ${title} in 14 days`);
  });

  it("at every length around the limit, and with a 2-, 3- or 4-octet character at each place a fold may fall, every line is at most 75 octets", () => {
    for (const wide of ["", "é", "€", "🍰"])
      for (let n = 55; n <= 160; n++) {
        // The character is moved through the positions where a fold falls (first line and continuation lines).
        const name = `${"N".repeat(n)}${wide}${"M".repeat(20)}`;
        const ics = deadlinesCalendar(
          { name, number: "01234567" },
          [deadline("accounts-due", "2026-12-31", "x")],
          "https://a.test",
          new Date("2026-11-28T09:00:00Z"),
        );
        checkLines(ics);
        expect(new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!).summary).toBe(`${name}: x`);
      }
  });

  it("the sample company's feed, over HTTP: every line at most 75 octets", async () => {
    const { key } = await createTestKey();
    const r = await call("/api/v1/deadlines?company=01234567", { key });
    expect(r.status).toBe(200);
    const url = new URL((await json(r)).calendar.url);
    const feed = await call(url.pathname + url.search);
    expect(feed.status).toBe(200);
    checkLines(await feed.text());
  });
});
