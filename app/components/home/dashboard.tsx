import type { CurrentUser } from "~/utils/user";

/** SPEC.md "Signed-in dashboard" (sign-in issue). */
export function Dashboard({ user }: { user: CurrentUser }) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Welcome back{user.firstName ? `, ${user.firstName}` : ""}</h1>
    </section>
  );
}
