/** The three sample notifications (a static list; read state is display only). */
export type NotificationType = "info" | "update" | "welcome";

interface SampleNotification {
  id: string;
  title: string;
  message: string;
  /** Shown as written (the samples are not tied to a clock). */
  time: string;
  read: boolean;
  type: NotificationType;
}

export const notifications: readonly SampleNotification[] = [
  {
    id: "welcome",
    title: "Welcome to AFX Holding Group",
    message: "Thanks for joining. Browse the portfolio to meet our ventures.",
    time: "Just now",
    read: false,
    type: "welcome",
  },
  {
    id: "pitch-decks",
    title: "Pitch decks available",
    message: "A fact sheet for every venture is ready in Documents.",
    time: "2 hours ago",
    read: false,
    type: "update",
  },
  {
    id: "newsletter",
    title: "AFX Insights",
    message: "Read the latest news from our ventures on the blog.",
    time: "1 day ago",
    read: true,
    type: "info",
  },
];
