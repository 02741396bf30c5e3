// punycode.js ships no types; the two functions the address code calls.
declare module "punycode.js" {
  export function toUnicode(domain: string): string;
  export function toASCII(domain: string): string;
}
