import { describe, expect, it } from "vitest";
import { isLocalName, isPublicAddress, parseIpLiteral } from "../../src/services/net/address";

const LOOPBACK = [127, 0, 0, 1];

describe("issue: safe fetcher: parseIpLiteral reads every notation", () => {
  it.each([
    ["127.0.0.1"],
    ["2130706433"],
    ["0177.0.0.1"],
    ["0x7f.0.0.1"],
    ["0x7f.1"],
    ["0x7f000001"],
    ["0X7F000001"],
    ["127.1"],
    ["127.0.1"],
    ["017700000001"],
    ["127.0.0.1."],
  ])("IPv4 %s is 127.0.0.1", (host) => {
    expect(parseIpLiteral(host)).toEqual({ kind: "ipv4", bytes: LOOPBACK });
  });

  it("reads mixed notations byte by byte", () => {
    expect(parseIpLiteral("0xc0.0250.1")?.bytes).toEqual([192, 168, 0, 1]);
    expect(parseIpLiteral("10.1")?.bytes).toEqual([10, 0, 0, 1]);
    expect(parseIpLiteral("0")?.bytes).toEqual([0, 0, 0, 0]);
    expect(parseIpLiteral("4294967295")?.bytes).toEqual([255, 255, 255, 255]);
  });

  it.each([
    ["example.com"],
    ["1.2.3.4.5"],
    ["256.0.0.1"],
    ["4294967296"],
    ["08.0.0.1"],
    ["1..2"],
    [""],
    ["127.0.0.1.com"],
    ["::g"],
    [":::1"],
    ["1::2::3"],
    ["1:2:3:4:5:6:7:8:9"],
    ["1:2:3:4:5:6:7"],
    ["::1.2.3"],
    ["::ffff:1.2.3.256"],
  ])("%j is not an IP literal", (host) => expect(parseIpLiteral(host)).toBeNull());

  it("reads IPv6 with brackets, zone ids and embedded IPv4", () => {
    expect(parseIpLiteral("[::1]")).toEqual({ kind: "ipv6", bytes: [...Array(15).fill(0), 1] });
    expect(parseIpLiteral("fe80::1%eth0")?.bytes.slice(0, 2)).toEqual([0xfe, 0x80]);
    expect(parseIpLiteral("[fe80::1%25eth0]")?.bytes[15]).toBe(1);
    expect(parseIpLiteral("::ffff:127.0.0.1")?.bytes.slice(10)).toEqual([0xff, 0xff, ...LOOPBACK]);
    expect(parseIpLiteral("[::ffff:7f00:1]")?.bytes.slice(10)).toEqual([0xff, 0xff, ...LOOPBACK]);
    expect(parseIpLiteral("::127.0.0.1")?.bytes).toEqual([...Array(12).fill(0), ...LOOPBACK]); // IPv4-compatible, not mapped
    expect(parseIpLiteral("2002:7f00:0001::")?.bytes.slice(0, 6)).toEqual([0x20, 0x02, ...LOOPBACK]);
    expect(parseIpLiteral("2606:4700::1111")?.bytes).toEqual([0x26, 0x06, 0x47, 0, ...Array(10).fill(0), 0x11, 0x11]);
    expect(parseIpLiteral("1:2:3:4:5:6:7:8")?.bytes[15]).toBe(8);
  });

  it("reads a bracketed IPv4 literal too, so it is never mistaken for a name", () => {
    expect(parseIpLiteral("[127.0.0.1]")).toEqual({ kind: "ipv4", bytes: LOOPBACK });
  });
});

describe("issue: safe fetcher: isPublicAddress", () => {
  it.each([
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "100.64.0.1",
    "100.127.255.255",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.168.0.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    // the same loopback in other notations
    "2130706433",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "127.1",
    // IPv6 and IPv4 embedded in IPv6
    "::",
    "[::1]",
    "fc00::1",
    "fd12:3456::1",
    "[fe80::1]",
    "fe80::1%eth0",
    "fec0::1",
    "ff02::1",
    "2001:db8::1",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "::8.8.8.8",
    "::ffff:0:127.0.0.1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::808:808",
    "2002:7f00:0001::",
    "2002:c0a8:0101::1",
    "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo whose client is 127.0.0.1 (stored inverted)
    "not an address",
  ])("issue: safe fetcher refuses %s", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "100.128.0.1",
    "172.32.0.1",
    "198.20.0.1",
    "223.255.255.255",
    "[2606:4700::1111]",
    "2a00:1450:4009:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:0808:0808::1",
    "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
  ])("issue: safe fetcher allows public %s", (ip) => expect(isPublicAddress(ip)).toBe(true));

  it("accepts an already parsed address", () => {
    expect(isPublicAddress({ kind: "ipv4", bytes: [8, 8, 4, 4] })).toBe(true);
    expect(isPublicAddress({ kind: "ipv4", bytes: [10, 8, 4, 4] })).toBe(false);
  });
});

describe("issue: safe fetcher: isLocalName", () => {
  it.each([
    "localhost",
    "LOCALHOST.",
    "foo.localhost",
    "printer.local",
    "metadata.google.internal",
    "wiki.intranet",
    "nas.lan",
    "router.home.arpa",
    "box.localdomain",
    "intranet",
    "fileserver",
    "logo.test",
    "www.example",
    "x.invalid",
    "",
    "printer.local.",
  ])("%j is local or reserved", (h) => expect(isLocalName(h)).toBe(true));

  it.each(["example.com", "www.gov.uk", "localhost.example.com", "local.co.uk", "internal.company.co.uk"])("%s is a public name", (h) => {
    expect(isLocalName(h)).toBe(false);
  });
});
