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
  return foldedText(cal).replace(/\r?\n/g, "\r\n") + "\r\n";
}

/**
 * RFC 5545 §3.1: a content line is at most 75 octets, excluding the line break; a longer one is folded, each
 * continuation line starting with one space, which counts in its 75. ical.js folds between characters (never inside
 * a UTF-8 sequence) but puts `foldLength` octets of content after that space, so at its default (75) continuation
 * lines were 76 octets. Folding the content at 74 makes every line at most 75: the first 74, each continuation 1 + 74.
 */
const FOLD_CONTENT_OCTETS = 74;

function foldedText(cal: ICAL.Component): string {
  const before = ICAL.foldLength;
  ICAL.foldLength = FOLD_CONTENT_OCTETS; // ical.js reads it while writing; set only for this synchronous call
  try {
    return cal.toString();
  } finally {
    ICAL.foldLength = before;
  }
}
