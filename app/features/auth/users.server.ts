import { sql } from "drizzle-orm";
import { users, type User } from "~/db/schema";
import { getConfig } from "~/utils/config.server";
import { getDb } from "~/utils/db.server";
import { readSession } from "~/features/auth/session.server";
import type { CurrentUser } from "~/features/auth/user";

/** The signed-in user of this request, or null (no session, a tampered cookie, a deleted user). */
export async function getUser(request: Request, env: Env): Promise<CurrentUser | null> {
  return (await getUserAndSession(request, env)).user;
}

/**
 * The user and the session's Set-Cookie, if any: a renewal when it is due (rolling 30 days), or
 * the removal of a cookie the server refused. The root loader passes `headers` on, so any page
 * view keeps an active member signed in.
 */
export async function getUserAndSession(request: Request, env: Env) {
  const { user, setCookies } = await readSession(request, env);
  const headers = setCookies.length
    ? new Headers(setCookies.map((c): [string, string] => ["Set-Cookie", c]))
    : undefined;
  return { user: user ? toCurrentUser(user, env) : null, headers };
}

/** The user as pages see it; the role is decided now, from ADMIN_EMAILS and the verified e-mail. */
function toCurrentUser(row: User, env: Env): CurrentUser {
  return {
    id: row.id,
    role: roleFor(row, getConfig(env).adminEmails),
    emailVerified: row.emailVerified,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    profileImageUrl: row.profileImageUrl,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What a sign-in learned about a person from the provider's verified claims. */
export interface SignInProfile {
  /** `{issuer host}|{sub}`: unique per provider account. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

/**
 * `admin` when the provider vouches for the e-mail (`email_verified`) and it is in ADMIN_EMAILS;
 * an unverified address could be anyone's, so it never grants admin.
 */
function roleFor(profile: Pick<SignInProfile, "email" | "emailVerified">, adminEmails: readonly string[]) {
  if (!profile.email || !profile.emailVerified) return "member" as const;
  return adminEmails.includes(profile.email.toLowerCase()) ? ("admin" as const) : ("member" as const);
}

/**
 * Inserts or refreshes the user of a sign-in. `role` records the role at this sign-in; requests
 * decide it again (toCurrentUser), so removing an e-mail from ADMIN_EMAILS takes effect at once.
 */
export async function upsertUser(env: Env, profile: SignInProfile): Promise<User> {
  const values = {
    email: profile.email,
    emailVerified: profile.emailVerified,
    firstName: profile.firstName,
    lastName: profile.lastName,
    profileImageUrl: profile.profileImageUrl,
    role: roleFor(profile, getConfig(env).adminEmails),
    lastLoginAt: sql`(unixepoch('subsec') * 1000)`,
  };
  const [row] = await getDb(env)
    .insert(users)
    .values({ id: crypto.randomUUID(), subject: profile.subject, ...values })
    .onConflictDoUpdate({ target: users.subject, set: values })
    .returning();
  if (!row) throw new Error("The sign-in upsert returned no row");
  return row;
}
