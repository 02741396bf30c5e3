import { data, type MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { SITE } from "~/content/site";

// Every unknown path: the not-found page with a 404, rendered without throwing so nothing is
// logged as an error (docs/decisions/001-platform.md).
export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: `Page Not Found | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function CatchAll() {
  return <NotFound path={useLocation().pathname} />;
}
