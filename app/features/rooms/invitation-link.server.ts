/**
 * An invitation's personal link (docs/decisions/112): a random handle, signed with the house's
 * signed-link helper (features/mail/signed-link.server.ts) under a key of its own. D1 keeps the
 * handle's SHA-256 only, so neither a copy of D1 nor a guessed handle opens a room, and inviting
 * again (a new handle) retires the old link.
 */
import { readLink, signLink, type LinkKind } from "~/features/mail/signed-link.server";
import { randomToken } from "~/utils/crypto.server";

const INVITATION_LINK: LinkKind = { purpose: "room-invitation-link", label: "room-invitation" };

/** A new link's random part: 32 URL-safe characters (192 bits). */
export const newInvitationHandle = () => randomToken(24);

export const invitationToken = (env: Env, handle: string) => signLink(env, INVITATION_LINK, handle);

/** The handle a link's token carries, when its signature holds; else null. */
export const invitationHandle = (env: Env, token: string) => readLink(env, INVITATION_LINK, token);
