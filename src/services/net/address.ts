/**
 * Host classification for the safe fetcher (issue: safe fetcher). Pure: no DNS, no fetch.
 * An address is refused when it, or any IPv4 address embedded in it, is not globally routable.
 */
export interface IpAddress {
  kind: "ipv4" | "ipv6";
  bytes: number[];
}

/**
 * One IPv4 part as WHATWG URL / inet_aton read it: `0x` hex (empty digits mean 0), a leading 0 octal, else decimal.
 * Returns null when the part is not a number.
 */
function ipv4Part(s: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(s)) return s.length === 2 ? 0 : parseInt(s.slice(2), 16);
  if (/^0[0-7]+$/.test(s)) return parseInt(s.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(s)) return Number(s);
  return null;
}

/** IPv4 in every notation: a.b.c.d, a.b.c, a.b and a single number; each part decimal, octal or hex; one trailing dot. */
function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.length > 4) return null;
  const nums = parts.map(ipv4Part);
  if (nums.some((n) => n === null)) return null;
  const last = nums.pop() as number;
  // The last part fills the remaining bytes (127.1 = 127.0.0.1; 2130706433 = 127.0.0.1).
  if ((nums as number[]).some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const value = (nums as number[]).reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/** IPv6 groups with at most one `::` and an optional dotted-decimal IPv4 tail, as 16 bytes. */
function parseIpv6(h: string): number[] | null {
  const v4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (v4) {
    const tail = v4[2].split(".").map(Number);
    if (tail.some((n) => n > 255) || /(^|\.)0\d/.test(v4[2])) return null; // dotted decimal only here
    h = v4[1] + ((tail[0] << 8) | tail[1]).toString(16) + ":" + ((tail[2] << 8) | tail[3]).toString(16);
  }
  const halves = h.split("::");
  if (halves.length > 2) return null;
  const groups = halves.map((x) => (x === "" ? [] : x.split(":")));
  if (groups.flat().some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const count = groups.flat().length;
  if (halves.length === 1 ? count !== 8 : count > 7) return null;
  const words = halves.length === 1 ? groups[0] : [...groups[0], ...Array(8 - count).fill("0"), ...groups[1]];
  return words.flatMap((w) => [parseInt(w, 16) >> 8, parseInt(w, 16) & 255]);
}

/** Parses an IP literal (raw or as `new URL().hostname` normalised it), with or without brackets and zone id; else null. */
export function parseIpLiteral(host: string): IpAddress | null {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.includes(":")) {
    h = h.replace(/%.*$/, ""); // zone id, raw (`%eth0`) or URL-encoded (`%25eth0`)
    const v6 = parseIpv6(h);
    return v6 ? { kind: "ipv6", bytes: v6 } : null;
  }
  const v4 = parseIpv4(h);
  return v4 ? { kind: "ipv4", bytes: v4 } : null;
}

/** IPv4 ranges that are not public: [first octets, prefix length]. */
const V4_BLOCKED: [number[], number][] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[172, 16], 12],
  [[192, 0, 0], 24],
  [[192, 0, 2], 24],
  [[192, 168], 16],
  [[198, 18], 15],
  [[198, 51, 100], 24],
  [[203, 0, 113], 24],
  [[224], 4],
  [[240], 4], // 240/4 also covers 255.255.255.255
];

/** True when the first `bits` bits of `bytes` equal those of `prefix`. */
function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 8 < bits; i++) {
    const mask = bits - i * 8 >= 8 ? 0xff : (0xff << (8 - (bits - i * 8))) & 0xff;
    if ((bytes[i] & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

const zeros = (b: number[], from: number, to: number) => b.slice(from, to).every((x) => x === 0);

function isPublicV4(b: number[]): boolean {
  return !V4_BLOCKED.some(([p, bits]) => inPrefix(b, p, bits));
}

function isPublicV6(b: number[]): boolean {
  if (zeros(b, 0, 12)) return false; // ::, ::1 and deprecated IPv4-compatible ::a.b.c.d: never fetched
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(b.slice(12)); // ::ffff:a.b.c.d
  if (zeros(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(b, 10, 12)) return isPublicV4(b.slice(12)); // ::ffff:0:a.b.c.d
  if (inPrefix(b, [0x00, 0x64, 0xff, 0x9b], 32)) return zeros(b, 4, 12) && isPublicV4(b.slice(12)); // NAT64 64:ff9b::/96; the local-use 64:ff9b:1::/48 is refused
  if (inPrefix(b, [0x20, 0x02], 16)) return isPublicV4(b.slice(2, 6)); // 6to4
  if (inPrefix(b, [0x20, 0x01, 0x00, 0x00], 32))
    // Teredo: server, then client address (stored inverted)
    return isPublicV4(b.slice(4, 8)) && isPublicV4(b.slice(12).map((x) => x ^ 0xff));
  if (inPrefix(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return false; // documentation
  if (inPrefix(b, [0xfc], 7) || inPrefix(b, [0xfe, 0x80], 10) || inPrefix(b, [0xfe, 0xc0], 10)) return false; // ULA, link-local, site-local
  if (b[0] === 0xff) return false; // multicast
  return true;
}

/** True when the address (parsed, or any literal parseIpLiteral accepts) is public; unparsable input is not. */
export function isPublicAddress(ip: IpAddress | string): boolean {
  const a = typeof ip === "string" ? parseIpLiteral(ip) : ip;
  if (!a) return false;
  return a.kind === "ipv4" ? a.bytes.length === 4 && isPublicV4(a.bytes) : a.bytes.length === 16 && isPublicV6(a.bytes);
}

/** Local and special-use names (RFC 6761, 6762, 7686, 8375, 9476): never a public web site. All of .arpa is infrastructure. */
const LOCAL_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".intranet",
  ".lan",
  ".home.arpa",
  ".arpa",
  ".localdomain",
  ".test",
  ".example",
  ".invalid",
  ".onion",
  ".alt",
];

/** True for names that only mean something on a local network, or that are reserved and never public. */
export function isLocalName(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/\.+$/, "");
  if (!h.includes(".")) return true; // localhost, intranet single labels, empty
  return LOCAL_SUFFIXES.some((s) => h.endsWith(s) || h === s.slice(1));
}
