import { z } from "zod";
import { emailSchema } from "~/utils/email-schema";

/** The account pages' paths (Settings links and posts to them). */
export const ACCOUNT_PATHS = { deleteAccount: "/settings/delete", downloadData: "/settings/data" } as const;

export const DELETE_MISMATCH = "That is not the e-mail address of this account: nothing was deleted.";

/** "Delete Account": the member types their own address to confirm (checked again on the server). */
export const deleteAccountSchema = z.object({
  email: emailSchema(DELETE_MISMATCH, "Type your e-mail address to confirm."),
});
