import type { CurrentUser } from "~/features/auth/current-user";
import { useRootData } from "~/root-data";

export type { CurrentUser };

export function useOptionalUser(): CurrentUser | null {
  return useRootData()?.user ?? null;
}

export function isAdmin(user: Pick<CurrentUser, "role"> | null | undefined): boolean {
  return user?.role === "admin";
}

type NamedUser = Pick<CurrentUser, "firstName" | "lastName" | "email"> | null | undefined;

/** Avatar fallback: first and last initials, else the e-mail's first letter, else "U". */
export function userInitials(user: NamedUser): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return (first.charAt(0) + last.charAt(0)).toUpperCase();
  const email = user?.email?.trim();
  if (email) return email.charAt(0).toUpperCase();
  return "U";
}

/** The display name beside the avatar: the full name, else the e-mail, else "User". */
export function userDisplayName(user: NamedUser): string {
  const name = [user?.firstName?.trim(), user?.lastName?.trim()].filter(Boolean).join(" ");
  return name || user?.email?.trim() || "User";
}
