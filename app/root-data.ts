import { useRouteLoaderData } from "@remix-run/react";
import type { AdminLink } from "~/components/shell/nav-links";
import type { SidebarState } from "~/components/shell/sidebar-state";
import type { CurrentUser } from "~/features/auth/current-user";
import type { SignupResult } from "~/features/leads/newsletter";
import type { PublicConfig } from "~/utils/config.server";
import type { ToastMessage } from "~/utils/toast";
import type { Venture } from "~/content/ventures";

/**
 * What the root route's loader gives every page, declared here rather than inferred from the
 * loader in root.tsx, so the shell and the pages that read it never import the root route back.
 */
export interface RootData extends PublicConfig {
  user: CurrentUser | null;
  /** The admin pages' sidebar entries (components/shell/admin-links.server.ts); empty unless an admin. */
  adminLinks: readonly AdminLink[];
  /** A newsletter form posted without JavaScript: its result, shown once by its signup block. */
  signup: SignupResult | null;
  sidebarState: SidebarState;
  /** The portfolio: the shown ventures in order (features/ventures `shownVentures`), for every page. */
  ventures: readonly Venture[];
  /** A pending toast from a redirect. */
  flash: ToastMessage | null;
}

export function useRootData() {
  return useRouteLoaderData<RootData>("root");
}
