import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { SITE } from "~/content/site";
import { attemptedPath } from "~/utils/not-found-page";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

// Every unknown path: the not-found page with a 404, returned so this route's own meta and view
// render it (docs/decisions/030-not-found-answers.md; no response under 500 is logged).
export function loader({ request }: LoaderFunctionArgs) {
  // The path as opened: the worker's render of a refused resource comes under a prefix.
  return json({ path: attemptedPath(new URL(request.url).pathname) }, { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: `Page Not Found | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function CatchAll() {
  return <NotFound path={useLoaderData<typeof loader>().path} />;
}
