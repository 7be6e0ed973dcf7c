/**
 * Timestamps as Weblate writes them: Python's isoformat() of the UTC time with
 * `Z`, microseconds in six digits, the fraction left out when it is zero.
 *
 * Internally a timestamp is the UTC time as `YYYY-MM-DDTHH:MM:SS.ffffff`
 * (always six digits), so comparing two strings compares the instants.
 */
import { ownCopy } from './text-copy.ts';

/** A normalized UTC timestamp: `YYYY-MM-DDTHH:MM:SS.ffffff`. */
export type Timestamp = string & { readonly __timestamp: unique symbol };

type ParsedTimestamp = { ok: true; value: Timestamp } | { ok: false; reason: string };

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date and time. An offset is converted to UTC; no offset
 * means UTC (Weblate's default time zone). More than six fraction digits are
 * refused rather than silently cut, since Weblate stores microseconds.
 */
export function parseTimestamp(text: string): ParsedTimestamp {
  const canonical = parseCanonical(text);
  if (canonical) return { ok: true, value: canonical };
  const match = ISO_8601.exec(text.trim());
  if (!match)
    return { ok: false, reason: 'an ISO 8601 date and time such as 2024-05-02T10:20:05.499000Z' };
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  if (fraction.length > 6)
    return { ok: false, reason: 'at most six fraction digits (microseconds)' };
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return { ok: false, reason: 'a valid calendar date and time' };
  }
  const offsetMinutes = parseOffset(zone);
  if (offsetMinutes === null)
    return { ok: false, reason: 'a UTC offset between -23:59 and +23:59' };
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute - offsetMinutes, second, 0);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return { ok: false, reason: 'a date in years 1 to 9999' };
  const iso =
    `${pad(utcYear, 4)}-${pad(utc.getUTCMonth() + 1, 2)}-${pad(utc.getUTCDate(), 2)}` +
    `T${pad(utc.getUTCHours(), 2)}:${pad(utc.getUTCMinutes(), 2)}:${pad(utc.getUTCSeconds(), 2)}` +
    `.${fraction.padEnd(6, '0')}`;
  // Copied: built by concatenation, it would otherwise be held as a tree of its parts.
  return { ok: true, value: ownCopy(iso) as Timestamp };
}

/** The text Weblate writes: `2024-05-02T10:20:05.499000Z`, or `2024-05-02T10:20:05Z` at zero microseconds. */
export function formatTimestamp(timestamp: Timestamp): string {
  return timestamp.endsWith('.000000') ? `${timestamp.slice(0, 19)}Z` : `${timestamp}Z`;
}

/** The later of two timestamps; null counts as "never". */
export function laterTimestamp(a: Timestamp | null, b: Timestamp | null): Timestamp | null {
  if (a === null) return b;
  if (b === null) return a;
  return a >= b ? a : b;
}

// --- internal ---

/** Weblate's own form (`2024-05-02T10:20:05.499000Z`, the fraction optional): read without date arithmetic. */
const CANONICAL = /^\d{4}-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.(\d{1,6}))?Z$/;

/** The timestamp of a text in Weblate's own form with a valid date, else null (the general parser decides). */
function parseCanonical(text: string): Timestamp | null {
  const match = CANONICAL.exec(text);
  if (!match) return null;
  const year = Number(text.slice(0, 4)),
    month = Number(match[1]),
    day = Number(match[2]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const iso = `${text.slice(0, 19)}.${(match[4] ?? '').padEnd(6, '0')}`;
  return ownCopy(iso) as Timestamp;
}

function parseOffset(zone: string): number | null {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

function daysInMonth(year: number, month: number): number {
  const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return month === 2 && isLeap(year) ? 29 : days;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
