/** The investor rooms' addresses (docs/rooms.md), shared by the pages, the mails and the actions. */
export const ROOMS_ADMIN_PATH = "/admin/rooms";
export const roomAdminPath = (id: string) => `${ROOMS_ADMIN_PATH}/${id}`;
/** Where the room session cookie is sent: every investor page lives under it. */
export const ROOMS_PATH = "/rooms/";
/** The room itself: its NDA, then its documents. */
export const roomPath = (id: string) => `${ROOMS_PATH}${id}`;
/** An invitation's personal link: the address form, then the code form. */
export const joinPath = (id: string, token: string) => `${roomPath(id)}/join/${token}`;
/** A room document's copy, opened in the browser (`download`: as a file, where the room allows it). */
export const roomFilePath = (id: string, documentId: string, download = false) =>
  `${roomPath(id)}/files/${encodeURIComponent(documentId)}${download ? "?download" : ""}`;

/** A room's id as made by `newRoomId`: 16 base64url characters (96 random bits). */
export const ROOM_ID = /^[A-Za-z0-9_-]{16}$/;
export const roomIdOf = (value: string | undefined): string | null => (ROOM_ID.test(value ?? "") ? value! : null);
