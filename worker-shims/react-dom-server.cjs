// The worker's react-dom/server (wrangler.toml [alias]): the streaming renderer it uses
// (renderToReadableStream) without the legacy string renderer that react-dom/server.browser
// also bundles (35 KB minified, never called). Same build selection as
// react-dom's own entry; the package does not export these paths, hence the relative requires.
if (process.env.NODE_ENV === "production") {
  module.exports = require("../node_modules/react-dom/cjs/react-dom-server.browser.production.min.js");
} else {
  module.exports = require("../node_modules/react-dom/cjs/react-dom-server.browser.development.js");
}
