// The Node suite's files that read only the source (no build, no process, no network): the
// layering, every route's test, the Pages table, the admin guard, the data layer, the one spelling
// of no-store. They take about a second, so the inner loop (`npm run test:fast`, in the unit
// suite) runs them too; `npm test` runs them once, in the Node suite.
export const NO_BUILD_NODE_TESTS = [
  "tests/node/import-graph.test.ts",
  "tests/node/route-tests.test.ts",
  "tests/node/product-pages.test.ts",
  "tests/node/admin-routes.test.ts",
  "tests/node/data-layer.test.ts",
  "tests/node/no-store.test.ts",
];
