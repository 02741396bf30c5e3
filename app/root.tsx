import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { ErrorScreen } from "~/components/error-screen";
import { NotFound } from "~/components/not-found";
import { AppShell } from "~/components/shell/app-shell";
import { readSidebarCookie } from "~/components/shell/sidebar-state";
import { SITE } from "~/content/site";
import { getUserAndSession } from "~/features/auth/users.server";
import { reportClientError } from "~/features/client-errors/report";
import { publicConfig } from "~/utils/config.server";
import { getFlashToast } from "~/utils/flash.server";
import { useNonce } from "~/utils/nonce-provider";
import { useRootData, type RootData } from "~/root-data";
import { readSignupResult } from "~/features/leads/signup-result.server";
import { InlineStylesheet } from "~/components/shell/inline-stylesheet";
import { ADMIN_LINKS } from "~/components/shell/admin-links.server";
import { isAdmin } from "~/features/auth/user";
import { shownVentures } from "~/features/ventures/catalogue.server";
import { getDb } from "~/utils/db.server";
import { atPrimary } from "~/utils/d1-session.server";
import { carriesSession } from "~/features/auth/session.server";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

// The stylesheet is inlined (components/shell/inline-stylesheet.tsx), not linked.
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  // The portfolio every page's shell (the sidebar) and its pages draw: read once per render,
  // beside the reads below rather than after them.
  // A member's request reads its session at the primary (059): the ventures ride in that round
  // trip, and a visitor's in the page's own (`together`, docs/decisions/125).
  const venturesRead = shownVentures(getDb(carriesSession(request) ? atPrimary(env) : env));
  // Observed at once: when a read below fails first (D1 down), this one's failure is not left unhandled.
  venturesRead.catch(() => undefined);
  // A newsletter form posted without JavaScript: its result, shown once by its signup block.
  const signup = await readSignupResult(env, request);
  // `session.headers` renews a session that is due (rolling 30 days) on any page view.
  const session = await getUserAndSession(request, env);
  // A pending toast from a redirect (flash cookie), consumed here and cleared by its header.
  const flash = await getFlashToast(env, request);
  const ventures = await venturesRead;
  const headers = new Headers(signup.headers ?? undefined);
  for (const h of [session.headers, flash.headers]) {
    for (const cookie of h?.getSetCookie() ?? []) headers.append("Set-Cookie", cookie);
  }
  return json(
    {
      ...publicConfig(env),
      user: session.user,
      // The admin pages' sidebar entries, to admins only: visitors' bundles carry none of them.
      adminLinks: isAdmin(session.user) ? ADMIN_LINKS : [],
      signup: signup.result,
      // Read on the server so the first paint already has the visitor's sidebar state.
      sidebarState: readSidebarCookie(request.headers.get("Cookie")),
      flash: flash.toast,
      ventures,
    } satisfies RootData,
    { headers },
  );
}

// Applied before first paint so a light-theme visitor never sees a dark flash (and vice versa).
// The "js" class lets CSS show controls that need JavaScript (the sidebar trigger, the mobile
// menu button) only when it runs; without it the mobile menu's <noscript> stand-in shows instead.
const THEME_SCRIPT = `document.documentElement.classList.add("js");try{if(localStorage.getItem("theme")==="light")document.documentElement.classList.remove("dark")}catch(e){}`;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en" className="dark" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1120" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        <InlineStylesheet />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh antialiased">
        <a href="#main-content" className="skip-link">
          Skip to main content
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

export const meta: MetaFunction = ({ error }) =>
  // A page whose loader threw a 404 (an admin page's guard) gets the not-found page's title.
  isRouteErrorResponse(error) && error.status === 404
    ? [{ title: `Page Not Found | ${SITE.name}` }, { name: "robots", content: "noindex" }]
    : [{ title: SITE.defaultTitle }, { name: "description", content: SITE.defaultDescription }];

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const config = useRootData();
  // Errors raised in the browser go to the worker's log. Responses (404, 4xx/5xx from a loader)
  // and server errors, which arrive as "Unexpected Server Error", are logged by the worker already.
  useEffect(() => {
    if (!isRouteErrorResponse(error) && !(error instanceof Error && error.message === "Unexpected Server Error")) {
      reportClientError(error, location.pathname);
    }
  }, [error, location.pathname]);
  const content =
    isRouteErrorResponse(error) && error.status === 404 ? (
      <NotFound path={location.pathname} />
    ) : (
      <ErrorScreen
        message={
          isRouteErrorResponse(error)
            ? `${error.status}: ${typeof error.data === "string" && error.data ? error.data : error.statusText}`
            : error instanceof Error
              ? error.message
              : undefined
        }
      />
    );
  // Without root data (the root loader itself failed) render the bare screen.
  return config ? <AppShell>{content}</AppShell> : <main id="main-content">{content}</main>;
}
