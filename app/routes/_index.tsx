import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Dashboard } from "~/components/home/dashboard";
import { Landing } from "~/components/home/landing";
import { pages } from "~/content/pages";
import { organizationJsonLd } from "~/content/structured-data";
import { subsidiaries, withDomains } from "~/content/subsidiaries";
import type { RootData } from "~/root-data";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
import { useOptionalUser } from "~/features/auth/user";
export { keepDataAfterSignup as shouldRevalidate } from "~/features/leads/signup-action";

const page = pages.home;

export async function loader(_args: LoaderFunctionArgs) {
  return null;
}

// "/" and "/home" are one page: one canonical URL, and the group's Organization JSON-LD.
export const meta: MetaFunction = ({ matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
  return pageMeta({
    page,
    matches,
    jsonLd: organizationJsonLd(siteUrlFrom(matches), root?.contact, withDomains(subsidiaries, root?.domains)),
  });
};

/** "/" and "/home": the members' dashboard for a session, the public landing page otherwise. */
export default function Home() {
  const user = useOptionalUser();
  return user ? <Dashboard user={user} /> : <Landing />;
}
