/** The investor's own paths under /rooms/<id>/ (issue 59) and their private answer, for components too. */
import { roomPath } from "~/features/rooms/paths";
import { NO_STORE } from "~/utils/no-store";

/** A personal answer: never stored by a browser or a shared cache. */
export const PRIVATE_HEADERS = NO_STORE;
export const readingPath = (roomId: string) => `${roomPath(roomId)}/reading`;
export const viewerPath = (roomId: string, documentId: string) =>
  `${roomPath(roomId)}/read/${encodeURIComponent(documentId)}`;
export const recordPath = (roomId: string) => `${roomPath(roomId)}/record`;
export const updatesStopPath = (roomId: string, token: string) => `${roomPath(roomId)}/updates/${token}`;
