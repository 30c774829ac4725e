import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UNKNOWN_CLIENT, addressBucket, clientAddress } from "../../src/services/net/clientBucket";

const byte = fc.integer({ min: 0, max: 255 });
const v4 = fc.tuple(byte, byte, byte, byte);
const word = fc.integer({ min: 0, max: 0xffff });
const v6 = fc.array(word, { minLength: 8, maxLength: 8 });

const dotted = (b: number[]) => b.join(".");
const hex16 = (w: number) => w.toString(16);

/** Every notation of one IPv4 address a header might carry. */
const v4Notations = (b: number[]) => {
  const n = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  return [
    dotted(b),
    ` ${dotted(b)} `,
    b.map((x) => `0x${x.toString(16)}`).join("."), // hex parts
    String(n), // one 32-bit number
    `::ffff:${dotted(b)}`, // IPv4-mapped IPv6
    `::FFFF:${hex16((b[0] << 8) | b[1])}:${hex16((b[2] << 8) | b[3])}`, // the same in hex groups
    `[::ffff:${dotted(b)}]`,
    `0:0:0:0:0:ffff:${dotted(b)}`,
  ];
};

/** Every notation of one IPv6 address: full, zero-padded, upper case, compressed (Node's own form), bracketed, with a zone. */
const v6Notations = (w: number[]) => {
  const full = w.map(hex16).join(":");
  return [
    full,
    w.map((x) => x.toString(16).padStart(4, "0")).join(":"),
    full.toUpperCase(),
    `[${full}]`,
    `${full}%eth0`,
    new URL(`http://[${full}]/`).hostname.slice(1, -1),
  ];
};

describe("issue 29 §3: one bucket per IPv4 address, whatever its notation", () => {
  it("property: every notation of an IPv4 address gives its dotted-decimal bucket (mapped IPv6 included)", () => {
    fc.assert(
      fc.property(v4, (b) => {
        for (const s of v4Notations(b)) {
          expect(clientAddress(s)).toBe(dotted(b));
          for (const p of [48, 64] as const) expect(addressBucket(s, p)).toBe(dotted(b));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("property: two different IPv4 addresses never share a bucket", () => {
    fc.assert(
      fc.property(v4, v4, (a, b) => {
        fc.pre(dotted(a) !== dotted(b));
        expect(addressBucket(dotted(a), 64)).not.toBe(addressBucket(dotted(b), 64));
      }),
    );
  });
});

describe("issue 29 §3: IPv6 is limited per network: /64 (demo, company-logo), /48 (sign-up)", () => {
  it("property: every notation of an IPv6 address gives one bucket", () => {
    fc.assert(
      fc.property(v6, (w) => {
        fc.pre(!(w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff)); // not IPv4-mapped (above)
        for (const p of [48, 64] as const) {
          const buckets = new Set(v6Notations(w).map((s) => addressBucket(s, p)));
          expect(buckets.size).toBe(1);
          expect([...buckets][0]).toMatch(new RegExp(`/${p}$`));
        }
      }),
      { numRuns: 300 },
    );
  });

  const text = (w: number[]) => w.map(hex16).join(":");
  const routed = v6.filter((w) => w[0] !== 0); // clear of ::/16, where IPv4-mapped addresses live

  it("property: any host part on one /64 is that /64's bucket; anything after the first 48 bits is the /48's", () => {
    fc.assert(
      fc.property(routed, fc.array(word, { minLength: 5, maxLength: 5 }), (a, rest) => {
        expect(addressBucket(text([...a.slice(0, 4), ...rest.slice(1)]), 64)).toBe(addressBucket(text(a), 64));
        expect(addressBucket(text([...a.slice(0, 3), ...rest]), 48)).toBe(addressBucket(text(a), 48));
      }),
      { numRuns: 300 },
    );
  });

  it("property: two addresses share a bucket exactly when their first 64 (48) bits agree", () => {
    const near = fc.tuple(routed, routed, fc.integer({ min: 0, max: 4 })).map(([a, b, k]): [number[], number[]] => [a, [...a.slice(0, k), ...b.slice(k)]]);
    fc.assert(
      fc.property(near, ([a, b]) => {
        fc.pre(b[0] !== 0);
        const agree = (n: number) => a.slice(0, n).every((x, i) => x === b[i]);
        expect(addressBucket(text(a), 64) === addressBucket(text(b), 64)).toBe(agree(4));
        expect(addressBucket(text(a), 48) === addressBucket(text(b), 48)).toBe(agree(3));
      }),
      { numRuns: 500 },
    );
  });

  it("five addresses of one /64 are one bucket; the next /64 is another; one /48 for sign-up", () => {
    const one64 = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0000:0000:0000:0005", "[2001:db8:1:2::abcd]"];
    expect(new Set(one64.map((a) => addressBucket(a, 64)))).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(addressBucket("2001:db8:1:3::1", 64)).toBe("2001:db8:1:3::/64");
    expect(new Set(["2001:db8:1:2::1", "2001:db8:1:3::1", "2001:db8:1:ffff::1"].map((a) => addressBucket(a, 48)))).toEqual(new Set(["2001:db8:1::/48"]));
    expect(addressBucket("2001:db8:2::1", 48)).toBe("2001:db8:2::/48");
  });
});

describe("issue 29 §3: what is not an address is the one shared `unknown` bucket", () => {
  it.each([[undefined], [null], [""], ["  "], ["not an address"], ["203.0.113.256"], ["1:2:3:4:5:6:7:8:9"], ["unknown"], ["2001:db8::1::2"]])(
    "%j → unknown",
    (s) => {
      expect(clientAddress(s as string | null | undefined)).toBe(UNKNOWN_CLIENT);
      expect(addressBucket((s ?? "") as string, 64)).toBe(UNKNOWN_CLIENT);
    },
  );

  it("a list (X-Forwarded-For) is read by its last entry, the one the trusted proxy appended", () => {
    expect(clientAddress("198.51.100.9, 203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddress("spoofed, 2001:db8::1")).toBe("2001:db8::1");
    expect(clientAddress("203.0.113.7, garbage")).toBe(UNKNOWN_CLIENT);
  });
});
