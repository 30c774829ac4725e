/**
 * The caller's address for per-IP limits (the keyless demo, company-logo, sign-up), and the one place that turns it
 * into a limit's bucket. Pure: the Worker decides which header (if any) it trusts (src/platform/app.ts) and passes
 * its value here.
 *
 * - Every notation of one address is one bucket: text is read by ipaddr.js (IPv4 as inet_aton reads it, so
 *   `203.0.113.50`, `0xcb.0.113.50` and `3405803826` agree), an IPv4-mapped IPv6 address is its IPv4 address, brackets
 *   and a zone id are dropped.
 * - IPv6 is limited per network, not per address: every IPv6 line has at least a /64 (2^64 addresses), many a /56 or
 *   /48. The demo and company-logo count per /64, sign-up per /48.
 * - An address that cannot be known (no trusted header, or a value that is not an address) is `unknown`: one bucket
 *   that every such caller shares. It is never a way around a limit, only a shared allowance.
 */
import ipaddr from "ipaddr.js";

/** The address of a caller whose address is not known: one shared bucket. */
export const UNKNOWN_CLIENT = "unknown";

/**
 * The caller's address from a trusted header's value, normalised (`203.0.113.50`, `2001:db8::1`), or `unknown`.
 * A list (`X-Forwarded-For: client, proxy1, proxy2`) gives its last entry: the address the nearest proxy, the trusted
 * one, saw and appended; entries before it are whatever the caller sent.
 */
export function clientAddress(headerValue: string | null | undefined): string {
  if (!headerValue) return UNKNOWN_CLIENT;
  let s = headerValue.split(",").pop()!.trim();
  if (s.startsWith("[") && s.includes("]")) s = s.slice(1, s.indexOf("]")); // [v6] or [v6]:port
  s = s.replace(/%.*$/, ""); // zone id
  if (!ipaddr.isValid(s)) return UNKNOWN_CLIENT;
  return ipaddr.process(s).toString(); // IPv4-mapped IPv6 becomes IPv4; IPv6 in its shortest form
}

/** Bits of an IPv6 address that make one bucket: the demo and company-logo per /64, sign-up per /48. */
export type Ipv6Prefix = 48 | 56 | 64;

/**
 * The bucket of a caller's address (as `clientAddress` gives it, or any notation): the IPv4 address, or the IPv6
 * network of `v6Prefix` bits (`2001:db8:1:2::/64`), or `unknown`.
 */
export function addressBucket(address: string, v6Prefix: Ipv6Prefix): string {
  const a = clientAddress(address);
  if (a === UNKNOWN_CLIENT) return UNKNOWN_CLIENT;
  const ip = ipaddr.parse(a);
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.map((p, i) => {
    const bits = Math.max(0, Math.min(16, v6Prefix - i * 16));
    return bits === 16 ? p : bits === 0 ? 0 : p & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${new ipaddr.IPv6(parts).toString()}/${v6Prefix}`;
}
