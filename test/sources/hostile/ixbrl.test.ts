/**
 * Crafted iXBRL accounts through the reader (issue 29 §1): a company writes its own filing, so a filing can be built
 * to exhaust the reader. Each limit is refused with 422 unreadable_input naming it, quickly; a filing just under each
 * still reads. (Real filings are read by test/sources/companiesHouse.ixbrl.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../src/shared/errors";
import {
  MAX_IXBRL_ATTRIBUTES,
  MAX_IXBRL_CONTEXTS,
  MAX_IXBRL_DEPTH,
  MAX_IXBRL_FACTS,
  MAX_IXBRL_NESTED_FACTS,
  readAccounts,
} from "../../../src/sources/companies-house/ixbrl";
import { cpuNow } from "../../support/cpuClock";

const HEAD =
  '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" ' +
  'xmlns:core="http://xbrl.frc.org.uk/fr/2021-01-01/core" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"><body>' +
  '<ix:header><ix:resources><xbrli:context id="c"><xbrli:entity><xbrli:identifier scheme="http://www.companieshouse.gov.uk/">01234567</xbrli:identifier></xbrli:entity>' +
  "<xbrli:period><xbrli:instant>2024-03-31</xbrli:instant></xbrli:period></xbrli:context>" +
  '<xbrli:unit id="GBP"><xbrli:measure>iso4217:GBP</xbrli:measure></xbrli:unit></ix:resources></ix:header>';
const FACT = '<ix:nonFraction name="core:NetAssetsLiabilities" contextRef="c" unitRef="GBP" decimals="0">1,234</ix:nonFraction>';
const doc = (body: string) => `${HEAD}${body}</body></html>`;

async function timed<T>(f: () => T): Promise<{ value: T | null; error: unknown; s: number }> {
  const t = cpuNow();
  try {
    return { value: f(), error: null, s: (cpuNow() - t) / 1000 };
  } catch (error) {
    return { value: null, error, s: (cpuNow() - t) / 1000 };
  }
}
const refused = (e: unknown) => {
  expect(e).toBeInstanceOf(InputError);
  expect((e as InputError).code).toBe("unreadable_input");
  return (e as InputError).message;
};

describe("crafted iXBRL filings are refused at counted limits", () => {
  for (const wellFormed of [true, false]) {
    it(`200,000 nested elements (${wellFormed ? "well-formed XML" : "tag soup, read as HTML"}): refused at the depth limit, quickly`, async () => {
      const n = 200_000;
      const body = `${FACT}${"<div>".repeat(n)}x${wellFormed ? "</div>".repeat(n) : ""}`;
      const r = await timed(() => readAccounts(doc(body)));
      expect(refused(r.error)).toBe(
        `The accounts document is past a reading limit: more than ${MAX_IXBRL_DEPTH.toLocaleString("en-GB")} elements are open inside one another.`,
      );
      expect(r.s).toBeLessThan(5);
    });
  }

  it("more facts than the limit: refused", async () => {
    const r = await timed(() => readAccounts(doc(FACT.repeat(MAX_IXBRL_FACTS + 1))));
    expect(refused(r.error)).toMatch(/it has more than 50,000 facts/);
    expect(r.s).toBeLessThan(5);
  });

  it("more contexts than the limit: refused", async () => {
    const ctx = (i: number) =>
      `<xbrli:context id="k${i}"><xbrli:entity><xbrli:identifier scheme="s">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2024-03-31</xbrli:instant></xbrli:period></xbrli:context>`;
    const many = Array.from({ length: MAX_IXBRL_CONTEXTS + 1 }, (_, i) => ctx(i)).join("");
    expect(refused((await timed(() => readAccounts(doc(`<ix:header><ix:resources>${many}</ix:resources></ix:header>${FACT}`)))).error)).toMatch(
      /more than 50,000 contexts and units/,
    );
  });

  it("facts inside facts past the limit: refused (each text is added to every fact open around it)", async () => {
    const open = '<ix:nonNumeric name="core:Note" contextRef="c">';
    const body = `${FACT}${open.repeat(MAX_IXBRL_NESTED_FACTS + 1)}text${"</ix:nonNumeric>".repeat(MAX_IXBRL_NESTED_FACTS + 1)}`;
    expect(refused((await timed(() => readAccounts(doc(body)))).error)).toMatch(/more than 32 facts are open inside one another/);
  });

  for (const wellFormed of [true, false]) {
    it(`an element with more attributes than the limit (${wellFormed ? "XML" : "HTML"}): refused`, async () => {
      const attrs = Array.from({ length: MAX_IXBRL_ATTRIBUTES + 1 }, (_, i) => ` a${i}="v"`).join("");
      const body = `${FACT}<div${attrs}>x</div>${wellFormed ? "" : "<p>"}`;
      expect(refused((await timed(() => readAccounts(doc(body)))).error)).toMatch(/an element has more than 1,000 attributes/);
    });
  }
});

describe("crafted filings under the limits read, in linear time", () => {
  it("999 nested elements each declaring 300 namespace prefixes (a scope copied per element would hold 150 million entries)", async () => {
    const decls = (d: number) => Array.from({ length: 300 }, (_, i) => ` xmlns:p${d}x${i}="urn:x:${i}"`).join("");
    let open = "";
    for (let d = 0; d < MAX_IXBRL_DEPTH - 10; d++) open += `<div${decls(d)}>`;
    const body = `${open}${FACT}${"</div>".repeat(MAX_IXBRL_DEPTH - 10)}`;
    const r = await timed(() => readAccounts(doc(body)));
    expect(r.error).toBeNull();
    expect(r.value!.current.figures.netAssets).toBe(1234);
    expect(r.value!.parsedAs).toBe("xml");
    expect(r.s).toBeLessThan(5);
  }, 30_000);

  it("49,000 facts in 49,000 namespaces: read, and the list of taxonomies is not built in quadratic time", async () => {
    const n = MAX_IXBRL_FACTS - 1_000;
    const facts = Array.from(
      { length: n },
      (_, i) => `<span xmlns:t${i}="urn:t:${i}"><ix:nonNumeric name="t${i}:X" contextRef="c">y</ix:nonNumeric></span>`,
    ).join("");
    const r = await timed(() => readAccounts(doc(`${FACT}${facts}`)));
    expect(r.error).toBeNull();
    expect(r.value!.factCount).toBe(n + 1);
    expect(r.value!.taxonomies).toHaveLength(n + 1);
    expect(r.s).toBeLessThan(2.5); // about 0.5 s; 4.2 s when each namespace was looked up in the list so far
  }, 30_000);

  it("a fact nested in a text block (as real filings do) still reads", () => {
    const body = `<ix:nonNumeric name="core:Note" contextRef="c">Net assets were ${FACT} at the year end.</ix:nonNumeric>`;
    const a = readAccounts(doc(body));
    expect(a.current.figures.netAssets).toBe(1234);
  });
});
