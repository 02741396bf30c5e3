// A minimal client of the DevTools protocol over a raw WebSocket (RFC 6455, text frames, client
// masking), enough to read a worker isolate's heap through `wrangler dev --inspector-port`.
// Node 20 has no WebSocket global and the bench needs no more than send/receive JSON.
import { randomBytes } from "node:crypto";
import http from "node:http";

/** The first target's debugger URL at `http://127.0.0.1:port/json` (wrangler's inspector proxy). */
export async function inspectorUrl(port, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
      const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
      if (url) return url;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no inspector target on port ${port}`);
}

function frame(text) {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x81, 0x80 | len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (len >= 126 && len < 65536) {
    head[0] = 0x81;
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else if (len >= 65536) {
    head[0] = 0x81;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  for (let i = 0; i < len; i++) payload[i] ^= mask[i & 3];
  return Buffer.concat([head, mask, payload]);
}

/** Connects to `wsUrl`; `send(method, params)` resolves with the result, `events` collects the rest. */
export function connectCdp(wsUrl) {
  const { hostname, port, pathname, search } = new URL(wsUrl);
  return new Promise((resolveConnect, reject) => {
    const req = http.request({
      host: hostname,
      port,
      path: pathname + search,
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => reject(new Error(`inspector answered ${res.statusCode}, not an upgrade`)));
    req.on("upgrade", (_res, socket, head) => {
      const pending = new Map();
      const listeners = new Set();
      let buffer = head;
      let message = [];
      let nextId = 1;
      const dispatch = (text) => {
        const msg = JSON.parse(text);
        if (msg.id && pending.has(msg.id)) {
          const { resolve, reject: fail } = pending.get(msg.id);
          pending.delete(msg.id);
          if (msg.error) fail(new Error(`${msg.error.message} (${msg.error.code})`));
          else resolve(msg.result);
        } else for (const l of listeners) l(msg);
      };
      socket.on("data", (data) => {
        buffer = Buffer.concat([buffer, data]);
        for (;;) {
          if (buffer.length < 2) return;
          const fin = buffer[0] & 0x80;
          const opcode = buffer[0] & 0x0f;
          let len = buffer[1] & 0x7f;
          let offset = 2;
          if (len === 126) {
            if (buffer.length < 4) return;
            len = buffer.readUInt16BE(2);
            offset = 4;
          } else if (len === 127) {
            if (buffer.length < 10) return;
            len = Number(buffer.readBigUInt64BE(2));
            offset = 10;
          }
          if (buffer.length < offset + len) return;
          const payload = buffer.subarray(offset, offset + len);
          buffer = buffer.subarray(offset + len);
          if (opcode === 0x8) return socket.end();
          if (opcode === 0x9) continue; // ping: the inspector does not need a pong here
          if (opcode === 0x1 || opcode === 0x0) {
            message.push(payload);
            if (fin) {
              const text = Buffer.concat(message).toString("utf8");
              message = [];
              dispatch(text);
            }
          }
        }
      });
      socket.on("close", () => {
        for (const { reject: fail } of pending.values()) fail(new Error("inspector connection closed"));
        pending.clear();
      });
      resolveConnect({
        send(method, params = {}) {
          const id = nextId++;
          return new Promise((resolve, fail) => {
            pending.set(id, { resolve, reject: fail });
            socket.write(frame(JSON.stringify({ id, method, params })));
          });
        },
        on(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
        close() {
          socket.end();
        },
      });
    });
    req.end();
  });
}

/**
 * The isolate's live JS heap: workerd does not answer HeapProfiler.collectGarbage, but a heap
 * snapshot runs a full collection first, so the usage read right after it counts live objects only.
 * The snapshot's chunks are dropped as they arrive.
 */
export async function liveHeap(cdp) {
  await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  return cdp.send("Runtime.getHeapUsage");
}

/**
 * Bytes the isolate allocates while `run` runs, garbage included: V8's sampling heap profiler
 * keeping the samples of objects collected meanwhile (an estimate at `interval` bytes).
 */
export async function allocatedDuring(cdp, run, interval = 16_384) {
  await cdp.send("HeapProfiler.startSampling", {
    samplingInterval: interval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const result = await run();
  const { profile } = await cdp.send("HeapProfiler.stopSampling");
  return { result, bytes: profile.samples.reduce((sum, s) => sum + s.size, 0) };
}
