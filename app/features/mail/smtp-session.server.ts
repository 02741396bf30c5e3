// The plumbing of one SMTP connection over workerd's TCP sockets (`cloudflare:sockets`): whole
// replies in, command lines out, the STARTTLS upgrade. What is said when is in smtp.server.ts.
import { connect } from "cloudflare:sockets";

/** One server reply: its code and every line of it ("250-…" lines then the "250 …" one). */
export interface SmtpReply {
  code: number;
  lines: string[];
}

/** A reply on one line, for error messages (which outbox.server.ts masks and stores). */
export function replyText(reply: SmtpReply): string {
  return reply.lines.join(" ").slice(0, 300);
}

// More than any real reply: a server that sends this much without ending one is not answering.
const MAX_REPLY_CHARS = 64 * 1024;

/** Reads replies whole from a byte stream: a reply may span several reads, a read may end mid-line. */
export class ReplyReader {
  private buffered = "";
  private readonly decoder = new TextDecoder();

  constructor(readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Whether the server sent bytes beyond its last reply. */
  get hasUnread(): boolean {
    return this.buffered.length > 0;
  }

  async read(): Promise<SmtpReply> {
    const lines: string[] = [];
    let size = 0;
    for (;;) {
      const end = this.buffered.indexOf("\n");
      if (end < 0) {
        if (size + this.buffered.length > MAX_REPLY_CHARS)
          throw new Error("the SMTP server sent a reply too long to be one");
        const { value, done } = await this.reader.read();
        if (done) throw new Error(`the SMTP server closed the connection${lines.length ? `: ${lines.join(" ")}` : ""}`);
        this.buffered += this.decoder.decode(value, { stream: true });
        continue;
      }
      const line = this.buffered.slice(0, end).replace(/\r$/, "");
      this.buffered = this.buffered.slice(end + 1);
      const match = /^(\d{3})([ -]|$)/.exec(line);
      if (!match) throw new Error(`the SMTP server sent something that is not a reply: ${line.slice(0, 100)}`);
      lines.push(line);
      size += line.length;
      if (match[2] !== "-") return { code: Number(match[1]), lines };
    }
  }
}

export class SmtpSession {
  private socket: Socket;
  private replies!: ReplyReader;
  private writer!: WritableStreamDefaultWriter<Uint8Array>;
  private readonly encoder = new TextEncoder();

  /** Connects; `opened` (or the first read) tells whether that worked. */
  constructor(hostname: string, port: number, secureTransport: "on" | "off" | "starttls") {
    this.socket = this.attach(connect({ hostname, port }, { secureTransport, allowHalfOpen: false }));
  }

  get opened(): Promise<unknown> {
    return this.socket.opened;
  }

  read(): Promise<SmtpReply> {
    return this.replies.read();
  }

  async write(text: string): Promise<void> {
    await this.writer.write(this.encoder.encode(text));
  }

  async command(line: string): Promise<SmtpReply> {
    await this.write(`${line}\r\n`);
    return this.read();
  }

  /** After the server's 220 to STARTTLS: the rest of the session encrypted, its certificate checked against the host name. */
  startTls(): void {
    // Bytes sent before the handshake would be taken for replies sent over TLS (CVE-2011-0411).
    if (this.replies.hasUnread) throw new Error("the SMTP server sent more than its reply to STARTTLS");
    this.replies.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.attach(this.socket.startTls());
  }

  /** Started, not awaited: close() waits for a clean shutdown, which can take ~20 s (workerd#2060). */
  close(): void {
    this.socket.close().catch(() => {});
  }

  private attach(socket: Socket): Socket {
    // `closed` rejects when the connection fails, which `opened` or a read already reports.
    socket.closed.catch(() => {});
    this.replies = new ReplyReader(socket.readable.getReader());
    this.writer = socket.writable.getWriter();
    return socket;
  }
}
