// The admin pages' sidebar entries, sent with the root loader's data to admins only: the shell's
// bundle carries no admin page, title or icon, so an admin page costs visitors nothing.
import {
  ArrowRightLeft,
  Building2,
  CalendarDays,
  ChartColumn,
  FileStack,
  Handshake,
  Inbox,
  LockKeyhole,
  Newspaper,
} from "~/components/ui/icons.generated";
import type { Icon } from "~/components/ui/lucide-icon";
import { ADMIN_PAGE_KEYS, pages, type AdminPageKey } from "~/content/pages";
import type { AdminLink } from "./nav-links";

/** Each admin page's sidebar icon; the compiler asks for one when a page is marked `admin`. */
const ADMIN_ICONS: Record<AdminPageKey, Icon> = {
  leads: ChartColumn,
  subscriberHandoff: ArrowRightLeft,
  messages: Inbox,
  documentLibrary: FileStack,
  newsAdmin: Newspaper,
  eventsAdmin: CalendarDays,
  venturesAdmin: Building2,
  roomsAdmin: LockKeyhole,
  investorsAdmin: Handshake,
};

/** The admin pages (app/content/pages.ts) in their order, labelled by their titles. */
export const ADMIN_LINKS: readonly AdminLink[] = ADMIN_PAGE_KEYS.map((key) => ({
  path: pages[key].path,
  label: pages[key].title,
  icon: ADMIN_ICONS[key].data,
}));
