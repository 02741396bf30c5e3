import { contactMessages } from "~/db/schema";
import { getDb } from "~/utils/db.server";

/** Stores one Help-form message. */
export async function saveContactMessage(
  env: Pick<Env, "DB">,
  message: { name: string; email: string; subject: string; message: string; userId: string | null; userAgent: string | null },
) {
  await getDb(env).insert(contactMessages).values({ ...message, userAgent: message.userAgent?.slice(0, 512) ?? null });
}
