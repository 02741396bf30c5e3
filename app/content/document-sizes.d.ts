// Written by the fact-sheets Vite plugin (scripts/fact-sheets.ts): byte size of every generated
// PDF, keyed by its URL path.
declare module "virtual:document-sizes" {
  const sizes: Readonly<Record<string, number>>;
  export default sizes;
}
