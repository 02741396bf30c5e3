// Venture domains are configuration (VENTURE_DOMAINS): what a value keeps, and the origins the CSP
// may frame. The pages and the CSP without a domain: tests/worker/venture-domains.test.ts.
import { describe, expect, it } from "vitest";
import { embeddableOrigins, parseDomainConfig } from "~/content/ventures";

describe("VENTURE_DOMAINS", () => {
  it("keeps only known ids with a bare host name; the rest is ignored", () => {
    expect(parseDomainConfig(undefined)).toEqual({});
    expect(parseDomainConfig("")).toEqual({});
    expect(
      parseDomainConfig(
        [
          " fiscal-me = FiscalMe.Example ", // trimmed, lower-cased
          "gaas=https://gaas.example", // a URL, not a host
          "gastrotech=gastro.example/path",
          "how-to-raise=localhost", // one label
          "park-your-pup=127.0.0.1", // an address
          "snews=snews.example:8443", // a port
          "vctr=-vctr.example", // a label may not start with a hyphen
          "your-sign-is-out=sign_out.example", // no underscore in host names
          "fiscalme=alias.example", // aliases are not ids
          "nope=nope.example", // unknown venture
          "youtopia=a.example=b", // two '='
          "youtopia", // no value
          "snews=old.example",
          "snews=www.snews.example", // the last entry for an id wins
          "vctr=xn--vctr-9ra.example",
        ].join(","),
      ),
    ).toEqual({ "fiscal-me": "fiscalme.example", snews: "www.snews.example", vctr: "xn--vctr-9ra.example" });
  });

  it("frames each configured site and its www. host, no other", () => {
    expect(embeddableOrigins({})).toEqual([]);
    expect(embeddableOrigins({ gaas: "gaas.example", snews: "www.snews.example" })).toEqual([
      "https://gaas.example",
      "https://www.gaas.example",
      "https://www.snews.example",
    ]);
  });
});
