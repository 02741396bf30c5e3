import { json, type MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { SITE } from "~/content/site";
export { keepDataAfterSignup as shouldRevalidate } from "~/features/leads/signup-action";

// Every unknown path: the not-found page with a 404, returned so this route's own meta and view
// render it (docs/decisions/030-not-found-answers.md; no response under 500 is logged).
export function loader() {
  return json(null, { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: `Page Not Found | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function CatchAll() {
  return <NotFound path={useLocation().pathname} />;
}
