import ICAL from "ical.js";
import type { Deadline } from "./deadlines";

/**
 * The deadlines as an iCalendar feed (RFC 5545, built with Mozilla's ical.js): one all-day event per date, each
 * with a reminder 14 days before. A deadline keeps its UID across refreshes (company, kind and date), so a
 * calendar app updates events instead of adding copies.
 */
export function deadlinesCalendar(company: { name: string; number: string }, deadlines: Deadline[], origin: string, now: Date = new Date()): string {
  const host = new URL(origin).hostname;
  const cal = new ICAL.Component(["vcalendar", [], []]);
  cal.updatePropertyWithValue("prodid", "-//uk-business-intelligence-api//deadlines//EN");
  cal.updatePropertyWithValue("version", "2.0");
  cal.updatePropertyWithValue("calscale", "GREGORIAN");
  cal.updatePropertyWithValue("method", "PUBLISH");
  cal.updatePropertyWithValue("x-wr-calname", `${company.name} (${company.number}): Companies House deadlines`);
  cal.updatePropertyWithValue("x-published-ttl", "PT6H");
  const stamp = ICAL.Time.fromJSDate(now, true);
  for (const d of deadlines) {
    const event = new ICAL.Component("vevent");
    const start = ICAL.Time.fromDateString(d.date);
    const end = start.clone();
    end.adjust(1, 0, 0, 0);
    event.updatePropertyWithValue("uid", `${company.number}-${d.kind}-${d.date}@${host}`);
    event.updatePropertyWithValue("dtstamp", stamp);
    event.updatePropertyWithValue("dtstart", start);
    event.updatePropertyWithValue("dtend", end);
    event.updatePropertyWithValue("summary", `${company.name}: ${d.title}`);
    event.updatePropertyWithValue("description", `${d.title} (${company.name}, company ${company.number}). From the Companies House register.`);
    event.updatePropertyWithValue("transp", "TRANSPARENT");
    const alarm = new ICAL.Component("valarm");
    alarm.updatePropertyWithValue("action", "DISPLAY");
    alarm.updatePropertyWithValue("description", `${company.name}: ${d.title} in 14 days`);
    alarm.updatePropertyWithValue("trigger", ICAL.Duration.fromString("-P14D"));
    event.addSubcomponent(alarm);
    cal.addSubcomponent(event);
  }
  return cal.toString().replace(/\r?\n/g, "\r\n") + "\r\n";
}
