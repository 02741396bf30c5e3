import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getSubsidiary, SUBSIDIARY_ALIASES } from "~/content/subsidiaries";
import { SITE } from "~/content/site";
import { pageMeta } from "~/utils/meta";

export function loader({ params }: LoaderFunctionArgs) {
  const id = params.id ?? "";
  const alias = SUBSIDIARY_ALIASES[id];
  if (alias) throw redirect(`/subsidiary/${alias}`, 301);
  const subsidiary = getSubsidiary(id);
  if (!subsidiary) return data({ subsidiary: null }, { status: 404 });
  return { subsidiary };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches, location }) =>
  data?.subsidiary
    ? pageMeta({
        page: { title: data.subsidiary.name, description: `${data.subsidiary.name}: ${data.subsidiary.tagline}` },
        matches,
        path: location.pathname,
      })
    : [{ title: `Subsidiary Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }];

export default function SubsidiaryPage() {
  const { subsidiary } = useLoaderData<typeof loader>();
  if (!subsidiary) {
    return (
      <section className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-3xl font-semibold">Subsidiary Not Found</h1>
        <p className="mt-3 text-muted-foreground">The subsidiary you're looking for doesn't exist.</p>
        <Link to="/" className="btn btn-primary mt-8">
          Back to Home
        </Link>
      </section>
    );
  }
  return (
    <header className="mx-auto max-w-6xl px-4 pb-6 pt-10">
      <h1 className="text-3xl font-bold tracking-tight">{subsidiary.name}</h1>
      <p className="mt-2 text-muted-foreground">{subsidiary.tagline}</p>
    </header>
  );
}
