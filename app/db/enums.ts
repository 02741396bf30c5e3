/** Column value lists, free of drizzle so the browser may import them. */

/**
 * Where a lead stands (docs/decisions/016-newsletter-double-opt-in.md); "undeliverable": its
 * address bounced for good (a hard bounce: docs/decisions/015-mail-delivery.md), no more mail.
 */
export const LEAD_STATUSES = ["pending", "confirmed", "unsubscribed", "undeliverable"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
/** How the lead's consent was given. */
export const CONSENT_METHODS = ["double-opt-in", "verified-member", "before-double-opt-in"] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

/** The document library's categories, in the documents page's order (app/features/documents). */
export const DOCUMENT_CATEGORIES = ["Corporate", "Pitch Decks", "Reports", "Presentations"] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
/**
 * Who may read a published document: anyone, signed-in members only (docs/decisions/073), or only
 * the investors of a room that holds it ("rooms": listed nowhere, docs/rooms.md).
 */
export const DOCUMENT_VISIBILITIES = ["public", "members", "rooms"] as const;
export type DocumentVisibility = (typeof DOCUMENT_VISIBILITIES)[number];
/**
 * What a lead subscribed to (docs/decisions/005, 016): the newsletter, or the investor alerts
 * (075). One address has one lead per topic, each with its own consent record and way out.
 */
export const LEAD_TOPICS = ["newsletter", "alerts"] as const;
export type LeadTopic = (typeof LEAD_TOPICS)[number];
/** A venture's stage, in the order a venture goes through them (docs/product.md). */
export const VENTURE_STAGES = ["ideation", "mvp-development", "beta-testing", "validation", "live-in-market"] as const;
export type VentureStage = (typeof VENTURE_STAGES)[number];
/** What a room records when an investor reads one of its documents (docs/rooms.md). */
export const ROOM_VIEW_KINDS = ["open", "download"] as const;
export type RoomViewKind = (typeof ROOM_VIEW_KINDS)[number];
/** The pipeline's stages an admin sets for an investor and a venture (docs/decisions/118). */
export const SET_STAGES = ["Meeting", "Term sheet", "Committed", "Passed"] as const;
export type SetStage = (typeof SET_STAGES)[number];
