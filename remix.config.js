// Remix's own options. The Vite plugin does not read this file by itself: vite.config.ts
// imports it and passes it to the plugin, so these flags live in exactly one place. Routes are
// app/routes.ts's (v3_routeConfig): the plugin ignores `routes` and `ignoredRouteFiles` here, so
// neither appears (tests/node/remix-config.test.ts).
/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  serverModuleFormat: "esm",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    // Off: its turbo-stream 2 protocol carries advisories Remix v2 will not fix; turbo-stream is
    // overridden to 3, with which single fetch fails at the first render (docs/decisions/058-data-protocol.md).
    v3_singleFetch: false,
    v3_routeConfig: true,
  },
};
