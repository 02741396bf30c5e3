import { useRouteLoaderData } from "@remix-run/react";
import type { RootLoaderData } from "~/root";

/** The signed-in user as the browser sees it (the `/api/auth/user` shape, SPEC.md §3). */
export interface CurrentUser {
  id: string;
  role: "member" | "admin";
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  profileImageUrl: string | null;
  /** ISO 8601. */
  createdAt: string;
}

export function useRootData() {
  return useRouteLoaderData<RootLoaderData>("root");
}

export function useOptionalUser(): CurrentUser | null {
  return useRootData()?.user ?? null;
}

export function isAdmin(user: Pick<CurrentUser, "role"> | null | undefined): boolean {
  return user?.role === "admin";
}

/** Avatar fallback (SPEC.md "Sidebar"): first + last initials, else the e-mail's first letter, else U. */
export function userInitials(user: Pick<CurrentUser, "firstName" | "lastName" | "email">): string {
  const fromName = `${user.firstName?.trim()[0] ?? ""}${user.lastName?.trim()[0] ?? ""}`;
  return (fromName || user.email?.trim()[0] || "U").toUpperCase();
}
