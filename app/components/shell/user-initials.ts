/**
 * The avatar fallback of SPEC.md "Sidebar": first and last initials, else the e-mail's first
 * letter, else "U".
 */
export function userInitials(
  user: { firstName?: string | null; lastName?: string | null; email?: string | null } | null | undefined,
): string {
  const first = user?.firstName?.trim();
  const last = user?.lastName?.trim();
  if (first && last) return (first[0] + last[0]).toUpperCase();
  const email = user?.email?.trim();
  if (email) return email[0].toUpperCase();
  return "U";
}

/** The display name beside the avatar: the full name, else the e-mail, else "User". */
export function userDisplayName(
  user: { firstName?: string | null; lastName?: string | null; email?: string | null } | null | undefined,
): string {
  const name = [user?.firstName?.trim(), user?.lastName?.trim()].filter(Boolean).join(" ");
  return name || user?.email?.trim() || "User";
}
