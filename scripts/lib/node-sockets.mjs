// `cloudflare:sockets` for `npm run dev` only: there the app runs in Node (Vite's SSR), where
// workerd's module is missing, so vite.config.ts (nodeSockets below) points its imports here. Same shape as
// the runtime's `connect()` (readable/writable web streams, `opened`, `closed`, `close()`), over
// node:net and node:tls. STARTTLS is not offered: under `npm run dev` mail goes to the local server
// in plain text or to a provider over TLS ("tls"); `npm start` runs the real runtime.
import { connect as netConnect } from "node:net";
import { Duplex } from "node:stream";
import { connect as tlsConnect } from "node:tls";
import { fileURLToPath } from "node:url";

/** The Vite plugin that resolves `cloudflare:sockets` to this file. @returns {import("vite").Plugin} */
export function nodeSockets() {
  const self = fileURLToPath(import.meta.url);
  return { name: "afx-node-sockets", enforce: "pre", resolveId: (id) => (id === "cloudflare:sockets" ? self : null) };
}

export function connect(address, options = {}) {
  const { hostname, port } = typeof address === "string" ? parseAddress(address) : address;
  const tls = options.secureTransport === "on";
  const socket = tls
    ? tlsConnect({ host: hostname, port, servername: hostname })
    : netConnect({ host: hostname, port });
  const opened = new Promise((resolve, reject) => {
    socket.once(tls ? "secureConnect" : "connect", () =>
      resolve({ remoteAddress: socket.remoteAddress, localAddress: socket.localAddress }),
    );
    socket.once("error", reject);
  });
  opened.catch(() => {});
  const closed = new Promise((resolve) => socket.once("close", () => resolve()));
  const { readable, writable } = Duplex.toWeb(socket);
  return {
    readable,
    writable,
    opened,
    closed,
    close: () => {
      socket.destroy();
      return closed;
    },
    startTls: () => {
      throw new Error("STARTTLS is not available under `npm run dev` (use SMTP_SECURITY=tls, or `npm start`)");
    },
  };
}

function parseAddress(address) {
  const at = address.lastIndexOf(":");
  return { hostname: address.slice(0, at), port: Number(address.slice(at + 1)) };
}
