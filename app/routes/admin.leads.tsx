import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLocation } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { SITE } from "~/content/site";
import { getAdminOrNull } from "~/utils/authorization.server";

// SPEC.md: the leads dashboard is not registered for anonymous visitors, who get the not-found
// page. Sign-in (and the admin check of DESIGN.md) is the only way past this loader.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await getAdminOrNull(request, context.cloudflare.env);
  if (!admin) return data({ notFound: true as const }, { status: 404 });
  // The dashboard itself comes with the leads issue.
  return data({ notFound: true as const }, { status: 404 });
}

export const meta: MetaFunction = () => [
  { title: `Page Not Found | ${SITE.name}` },
  { name: "robots", content: "noindex" },
];

export default function LeadsDashboard() {
  return <NotFound path={useLocation().pathname} />;
}
