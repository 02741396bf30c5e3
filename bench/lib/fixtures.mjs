// What the page benchmarks need around the worker: seeded leads, a feed to cache, an admin session.
// Each part is used when the project has it.
export async function benchFixtures({ persistTo, leads }) {
  return { vars: {}, adminCookie: undefined, stop: async () => {} };
}
