/** The consent to page times (docs/decisions/116): its words, for the entry page and the room. */
/** The consent's words, on the entry page and in the room. */
export const ANALYTICS_TEXT = {
  label: "Let AFX Holding Group see which pages I read and for how long",
  kept: (months: number) =>
    `If you tick this, we keep the seconds you spend on each page of each document, for ${months} months, and show them to the room's owner; without it we keep only when you opened the room, which documents you opened and your downloads. You can change this in the room at any time.`,
} as const;
