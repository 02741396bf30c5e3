// React's own cost for a page's markup (issue 36 item 4): the saved HTML of a rendered page is turned
// back into the same React elements (every element and attribute, text as text, the inline
// stylesheet and scripts as dangerouslySetInnerHTML as the app renders them) and rendered with
// React's production renderToReadableStream, the server renderer the worker uses, read to the end.
// What it costs is the floor of any render of that markup with React 18: no loader, no Remix, no
// D1, no worker. Node's V8 stands in for workerd's; run it beside the worker's measurement.
//
//   node bench/react-floor.mjs page.html [more.html …]
//
// The pages can be saved by `AB_DUMP_DIR=… node bench/ab-server.mjs <checkout>`.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parse } from "parse5";

const require = createRequire(import.meta.url);
const React = require("react");
// The worker's own file (worker-shims/react-dom-server.cjs); the package does not export the path.
const { renderToReadableStream } = require("../node_modules/react-dom/cjs/react-dom-server.browser.production.min.js");
const RUNS = Number(process.env.FLOOR_RUNS || 300);

const ATTRIBUTE_NAMES = { class: "className", for: "htmlFor", charset: "charSet", tabindex: "tabIndex" };
const propName = (name) =>
  ATTRIBUTE_NAMES[name] ??
  (name.startsWith("data-") || name.startsWith("aria-") || !name.includes("-")
    ? name
    : name.replace(/-([a-z])/g, (_, c) => c.toUpperCase()));

/** parse5's node as a React element (or string), keyed like a rendered list. */
function toElement(node, key) {
  if (node.nodeName === "#text") return node.value;
  if (node.nodeName.startsWith("#")) return null;
  const props = { key };
  for (const { name, value } of node.attrs ?? []) props[propName(name)] = value === "" ? true : value;
  const children = (node.tagName === "template" ? node.content : node).childNodes ?? [];
  if (["script", "style"].includes(node.tagName)) {
    const text = children.map((c) => c.value ?? "").join("");
    if (text) props.dangerouslySetInnerHTML = { __html: text };
    return React.createElement(node.tagName, props);
  }
  const kids = children.map((c, i) => toElement(c, i)).filter((c) => c !== null);
  return React.createElement(node.tagName, props, ...(kids.length ? [kids] : []));
}

async function renderOnce(element) {
  const stream = await renderToReadableStream(element);
  await stream.allReady;
  const reader = stream.getReader();
  let bytes = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
  return bytes;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const file of process.argv.slice(2)) {
  const html = readFileSync(file, "utf8");
  const document = parse(html);
  const root = document.childNodes.find((n) => n.nodeName === "html");
  const element = toElement(root, 0);
  let elements = 0;
  const count = (n) => {
    if (n.tagName) elements++;
    for (const c of n.childNodes ?? []) count(c);
  };
  count(root);
  // Warm the JIT, then time each render's CPU.
  for (let i = 0; i < 50; i++) await renderOnce(element);
  const times = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.cpuUsage();
    bytes = await renderOnce(element);
    const t = process.cpuUsage(t0);
    times.push((t.user + t.system) / 1000);
  }
  console.log(
    `${file}: ${elements} elements, ${bytes} bytes rendered; React alone ${median(times).toFixed(2)} ms CPU median of ${RUNS}`,
  );
}
