import { toUnicode } from "punycode.js";

/**
 * An address as its owner typed it: an internationalised domain is stored in its ASCII form
 * (punycode, `xn--…`, what the mail path sends to) and shown in its own letters.
 */
export function displayAddress(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 0 || !address.includes("xn--", at)) return address;
  return `${address.slice(0, at + 1)}${toUnicode(address.slice(at + 1))}`;
}
