import { describe, expect, it } from "vitest";
import { domainIsName, domainLabel, domainsForName, labelsOfName } from "../../src/services/matching/domainName";

/** Issue 18 §1 groundwork: a domain matches a register entry only when the entry's name is the domain's name (SPEC §2.2). */
describe("a domain's name and a registered name", () => {
  it("the label a site is named by, from a host or a pasted URL", () => {
    expect(domainLabel("www.shop.acme-widgets.co.uk")).toBe("acme-widgets");
    expect(domainLabel("https://acme-widgets.com/about?x=1")).toBe("acme-widgets");
    expect(domainLabel("ACMEWIDGETS.UK")).toBe("acmewidgets");
  });

  it.each([
    ["acme-widgets.co.uk", "ACME WIDGETS LIMITED"],
    ["www.acmewidgets.com", "Acme Widgets Ltd"],
    ["acme-widgets-ltd.co.uk", "ACME WIDGETS LTD"],
    ["acmewidgetslimited.co.uk", "ACME WIDGETS LTD"],
    ["obrienandsons.co.uk", "The O'Brien & Sons Limited"],
    ["obriensons.co.uk", "THE O'BRIEN AND SONS LIMITED"],
    ["harbour-freight.co.uk", "HARBOUR FREIGHT LTD"],
  ])("%s is the name of %s", (host, name) => {
    expect(domainIsName(host, name)).toBe(true);
  });

  it.each([
    ["acme.co.uk", "ACME WIDGETS LIMITED", "a shorter name is another name"],
    ["acme-widgets.co.uk", "ACME WIDGETS (UK) LIMITED", "an extra word is another name"],
    ["acmewidget.co.uk", "ACME WIDGETS LIMITED", "one letter apart is another name"],
    ["widgets-acme.co.uk", "ACME WIDGETS LIMITED", "the words in another order"],
    ["ab.co.uk", "AB LIMITED", "too short to stand for a name"],
    ["acme-widgets.co.uk", "LIMITED", "no name at all"],
  ])("%s is not the name of %s (%s)", (host, name) => {
    expect(domainIsName(host, name)).toBe(false);
  });

  it("the labels a registered name is written as", () => {
    expect(labelsOfName("The O'Brien & Sons Limited").sort()).toEqual(
      ["obrienandsons", "obrienandsonsltd", "obrienandsonslimited", "obriensons", "obriensonsltd"].sort(),
    );
  });

  it("domains to try for a named company, most likely first; never evidence on their own", () => {
    expect(domainsForName("ACME WIDGETS LIMITED")).toEqual([
      "acmewidgets.co.uk",
      "acme-widgets.co.uk",
      "acmewidgets.com",
      "acme-widgets.com",
      "acmewidgets.uk",
      "acme-widgets.uk",
    ]);
    expect(domainsForName("Smith and Jones Ltd", 3)).toEqual(["smithandjones.co.uk", "smith-and-jones.co.uk", "smithjones.co.uk"]);
    expect(domainsForName("LIMITED")).toEqual([]);
  });
});
