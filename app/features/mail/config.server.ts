import { isMailAddress } from "./message";

export type SmtpSecurity = "starttls" | "tls" | "off";

export interface SmtpConfig {
  host: string;
  port: number;
  security: SmtpSecurity;
  /** Absent when SMTP_USER is empty (the local server takes no login). */
  credentials?: { username: string; password: string };
  from: { name?: string; email: string };
}

export type SmtpEnv = Pick<Env, "SMTP_HOST" | "SMTP_PORT" | "SMTP_USER" | "SMTP_PASSWORD" | "SMTP_SECURITY" | "MAIL_FROM">;

/** The SMTP settings from the environment; throws, naming the variable, when one is unusable. */
export function smtpConfig(env: SmtpEnv): SmtpConfig {
  const host = env.SMTP_HOST?.trim() ?? "";
  if (!host || /[\s/]/.test(host)) throw new Error("SMTP_HOST is not a host name");
  const port = Number(env.SMTP_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error("SMTP_PORT is not a port number");
  const security = (env.SMTP_SECURITY?.trim() || "starttls") as SmtpSecurity;
  if (!["starttls", "tls", "off"].includes(security)) throw new Error('SMTP_SECURITY is not "starttls", "tls" or "off"');
  const from = parseMailFrom(env.MAIL_FROM ?? "");
  if (!from) throw new Error('MAIL_FROM is not "Name <address>" or an address');
  const username = env.SMTP_USER?.trim() ?? "";
  return { host, port, security, from, ...(username ? { credentials: { username, password: env.SMTP_PASSWORD ?? "" } } : {}) };
}

/** `Name <address>` or a bare address; the name without quotes or line breaks (written as is). */
export function parseMailFrom(value: string): SmtpConfig["from"] | null {
  const match = /^\s*(?:([^<>"\r\n]*?)\s*<([^<>\s]+)>|([^<>\s]+))\s*$/.exec(value);
  const email = match?.[2] ?? match?.[3];
  if (!email || !isMailAddress(email)) return null;
  const name = match?.[1]?.trim();
  return name ? { name, email } : { email };
}

const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|0\.0\.0\.0|\[?::1?\]?)$/i;
// Reserved for documentation and tests (RFC 2606, RFC 6761): never a real provider or sender.
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|net|org)|example|test|invalid|localhost)$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.trim());
}

export function isExampleDomain(domain: string): boolean {
  return EXAMPLE_DOMAIN.test(domain.trim().replace(/\.$/, ""));
}
