/** The investor's own paths under /rooms/<id>/ (issue 59), for components too. */
import { roomPath } from "~/features/rooms/paths";

export const readingPath = (roomId: string) => `${roomPath(roomId)}/reading`;
export const viewerPath = (roomId: string, documentId: string) =>
  `${roomPath(roomId)}/read/${encodeURIComponent(documentId)}`;
export const recordPath = (roomId: string) => `${roomPath(roomId)}/record`;
export const updatesStopPath = (roomId: string, token: string) => `${roomPath(roomId)}/updates/${token}`;
