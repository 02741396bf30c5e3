// `PORT=<port> npm run fault -- d1 on|off` (or `r2`): makes the local server that `npm start`
// started on that port (8787 by default) fail every D1 (or R2) call until switched off, without
// a restart; `npm run fault` alone prints both switches (docs/operate.md "Outages"). It posts to
// the server's local-only /__fault/ path (worker/local-faults.ts), which production does not have.
const port = Number(process.env.PORT || 8787);
const [kind, state] = process.argv.slice(2);
const base = `http://localhost:${port}/__fault/`;
const usage = "usage: PORT=<port> npm run fault -- d1|r2 on|off";

let res;
try {
  res =
    kind === undefined
      ? await fetch(base)
      : ["d1", "r2"].includes(kind) && ["on", "off"].includes(state)
        ? await fetch(`${base}${kind}`, { method: "POST", body: state })
        : (console.error(usage), process.exit(2));
} catch (error) {
  console.error(
    `No local server answers on port ${port} (${error.cause?.code ?? error.message}): start it with npm start.`,
  );
  process.exit(1);
}
const text = (await res.text()).trim();
if (!res.ok) {
  console.error(
    res.status === 404 ? `The server on port ${port} has no fault switch (a production configuration?).` : text,
  );
  process.exit(1);
}
console.log(text);
