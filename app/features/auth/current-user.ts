/**
 * The signed-in user as the browser sees it (the `/api/auth/user` shape). A module of its own so
 * that app/root-data.ts can name it without importing user.ts, whose hook reads the root data.
 */
export interface CurrentUser {
  id: string;
  role: "member" | "admin";
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The provider vouched for `email`: only then may anything act on it (the newsletter switch). */
  emailVerified: boolean;
  profileImageUrl: string | null;
  /** ISO 8601. */
  createdAt: string;
}
