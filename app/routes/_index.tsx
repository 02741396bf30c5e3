import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Dashboard } from "~/components/home/dashboard";
import { Landing } from "~/components/home/landing";
import { pages } from "~/content/pages";
import { pageMeta } from "~/utils/meta";
import { useOptionalUser } from "~/utils/user";

const page = pages.home;

export async function loader(_args: LoaderFunctionArgs) {
  return null;
}

export const meta: MetaFunction = ({ matches, location }) =>
  pageMeta({ page, matches, path: location.pathname });

/** "/" and "/home": the members' dashboard for a session, the public landing page otherwise. */
export default function Home() {
  const user = useOptionalUser();
  return user ? <Dashboard user={user} /> : <Landing />;
}
