import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Dashboard } from "~/components/home/dashboard";
import { Landing } from "~/components/home/landing";
import { pages } from "~/content/pages";
import { SITE } from "~/content/site";
import { organizationJsonLd } from "~/content/structured-data";
import type { RootData } from "~/root-data";
import { pageMeta, siteUrlFrom } from "~/utils/meta";
import { useOptionalUser } from "~/features/auth/user";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

/** The page's title and description come with its data: the landing's bundle carries no page list. */
export async function loader(_args: LoaderFunctionArgs) {
  const { path, title, description } = pages.home;
  return { page: { path, title, description } };
}

// "/" and "/home" are one page: one canonical URL, and the group's Organization JSON-LD.
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const root = matches.find((m) => m.id === "root")?.data as RootData | undefined;
  return pageMeta({
    page: data?.page ?? { path: "/", title: SITE.defaultTitle, description: SITE.defaultDescription },
    matches,
    jsonLd: organizationJsonLd(siteUrlFrom(matches), root?.contact, root?.ventures ?? []),
  });
};

/** "/" and "/home": the members' dashboard for a session, the public landing page otherwise. */
export default function Home() {
  const user = useOptionalUser();
  return user ? <Dashboard user={user} /> : <Landing />;
}
