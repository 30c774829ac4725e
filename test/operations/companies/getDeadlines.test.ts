import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { balanceOf, call, createTestKey, json } from "../../helpers";

/** Issue 12 §2 deadlines, and its calendar feed (fixtures: test/fixtures/hosts/ch.test/company/01234567/…). */

const daysFrom = (today: string, date: string) => Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);

async function deadlines(company: string, key?: string) {
  const k = key ? { key, keyId: "" } : await createTestKey();
  const r = await call(`/api/v1/deadlines?company=${encodeURIComponent(company)}`, { key: k.key });
  return { r, body: await json(r), ...k };
}

describe("SPEC §4.8 deadlines", () => {
  it("SPEC §4.8 every date, sorted, with days left; identity statements counted by date, never named; 1 credit", async () => {
    const { r, body, keyId } = await deadlines("01234567");
    expect(r.status).toBe(200);
    expect(await balanceOf(keyId)).toBe(99);
    const today = body.today;
    expect(body.deadlines.map((d: { kind: string; date: string }) => [d.kind, d.date])).toEqual(
      [
        ["psc-identity-statement-due", "2026-11-18"],
        ["officer-identity-statement-due", "2026-11-18"],
        ["accounts-due", "2026-12-31"],
        ["officer-identity-statement-due", "2027-02-28"],
        ["confirmation-statement-made-up-to", "2027-03-01"],
        ["confirmation-statement-due", "2027-03-15"],
        ["accounts-made-up-to", "2026-03-31"],
      ].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0])),
    );
    for (const d of body.deadlines) expect(d.daysLeft, d.kind).toBe(daysFrom(today, d.date));
    const accounts = body.deadlines.find((d: { kind: string }) => d.kind === "accounts-due");
    expect(accounts).toMatchObject({ overdue: false, title: "Accounts for the period to 31 March 2026 are due at Companies House" });
    expect(body.deadlines.find((d: { kind: string; date: string }) => d.kind === "officer-identity-statement-due" && d.date === "2026-11-18")).toMatchObject({
      people: 1,
    });
    // The resigned officer's date is not there; two active officers and one PSC have statement dates.
    expect(body.deadlines.some((d: { date: string }) => d.date === "2026-12-01")).toBe(false);
    expect(body.identityVerification).toEqual({ officersWithStatementDue: 2, pscsWithStatementDue: 1 });
    expect(body).toMatchObject({ accountsOverdue: false, confirmationStatementOverdue: false, proposalToStrikeOff: false, company: { number: "01234567" } });
    for (const name of ["HARPER", "Harper", "OKONJO", "Okonjo"]) expect(JSON.stringify(body)).not.toContain(name);
  });

  it("SPEC §4.8 the calendar feed: the same address on each ask, no header needed, all-day events with stable UIDs and a reminder 14 days before; revoked, it is gone", async () => {
    const { key, body } = await deadlines("01234567");
    const again = await deadlines("01234567", key);
    expect(again.body.calendar.url).toBe(body.calendar.url);
    const path = new URL(body.calendar.url).pathname + new URL(body.calendar.url).search;
    expect(path).toMatch(/^\/api\/v1\/deadlines\.ics\?token=[A-Za-z0-9_-]{32}$/);
    const feed = await call(path);
    expect(feed.status).toBe(200);
    expect(feed.headers.get("content-type")).toMatch(/^text\/calendar/);
    const text = await feed.text();
    // Parsed back with an iCalendar library (ical.js).
    const cal = new ICAL.Component(ICAL.parse(text));
    const events = cal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    expect(events).toHaveLength(body.deadlines.length);
    const accounts = events.find((e) => e.summary.includes("Accounts for the period"))!;
    expect(accounts.startDate.isDate).toBe(true);
    expect(accounts.startDate.toString()).toBe("2026-12-31");
    expect(accounts.uid).toBe("01234567-accounts-due-2026-12-31@api.test");
    const alarm = accounts.component.getFirstSubcomponent("valarm")!;
    const trigger = alarm.getFirstPropertyValue("trigger") as ICAL.Duration;
    expect([trigger.isNegative, trigger.days, trigger.toSeconds()]).toEqual([true, 14, -14 * 86_400]);
    expect(text).toMatch(/\r\nTRIGGER:-P14D\r\n/); // RFC 5545: CRLF line ends, a day duration
    // UIDs are stable across refreshes.
    const uids = (t: string) =>
      new ICAL.Component(ICAL.parse(t))
        .getAllSubcomponents("vevent")
        .map((v) => v.getFirstPropertyValue("uid"))
        .sort();
    expect(uids(await (await call(path)).text())).toEqual(uids(text));
    // Switched off: the address answers 404; asking again makes a new one.
    const off = await call("/api/v1/deadlines/feed?company=1234567", { key, method: "DELETE" });
    expect(off.status).toBe(200);
    expect((await call(path)).status).toBe(404);
    const fresh = await deadlines("01234567", key);
    expect(fresh.body.calendar.url).not.toBe(body.calendar.url);
    expect((await call("/api/v1/deadlines.ics?token=short")).status).toBe(404);
  });

  it("SPEC §7 an unknown company is 404 with query and free; revoking a feed that does not exist is 404", async () => {
    const { r, body, keyId } = await deadlines("99999999");
    expect(r.status).toBe(404);
    expect(body).toMatchObject({ code: "not_found", query: "99999999" });
    expect(await balanceOf(keyId)).toBe(100);
    const { key } = await createTestKey();
    expect((await call("/api/v1/deadlines/feed?company=04712345", { key, method: "DELETE" })).status).toBe(404);
  });
});
