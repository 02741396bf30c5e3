import { CalendarDays, Layers, LogOut, Mail, ShieldCheck } from "~/components/ui/icons.generated";
import type { MouseEvent, ReactNode } from "react";
import { VentureGrid } from "~/features/ventures/venture-grid";
import { useRootData } from "~/root-data";
import { formatLongDate } from "~/utils/format";
import { isAdmin, userInitials, type CurrentUser } from "~/features/auth/user";
import { cardClass } from "~/components/ui/card";

function formatMemberSince(createdAt: string | null | undefined) {
  const date = createdAt ? new Date(createdAt) : null;
  return date && !Number.isNaN(date.getTime()) ? formatLongDate(date) : "Recently";
}

/** 'View Portfolio': an in-page link that works without JavaScript, smooth with it. */
function scrollToPortfolio(event: MouseEvent<HTMLAnchorElement>) {
  const target = document.getElementById("portfolio");
  if (!target) return;
  event.preventDefault();
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
  target.focus({ preventScroll: true });
  history.replaceState(history.state, "", "#portfolio");
}

function Card({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`card-${title}`} className={cardClass()}>
      <h2 id={`card-${title}`} className="flex items-center gap-2 text-lg font-semibold">
        {icon}
        {title}
      </h2>
      <div className="mt-4 space-y-3 text-sm">{children}</div>
    </section>
  );
}

/** The signed-in dashboard (`/` for members). */
export function Dashboard({ user }: { user: CurrentUser }) {
  const ventureCount = useRootData()?.ventures.length ?? 0;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <header className="flex items-center gap-4">
        {user.profileImageUrl ? (
          <img
            src={user.profileImageUrl}
            alt=""
            width={64}
            height={64}
            referrerPolicy="no-referrer"
            className="size-16 rounded-full border border-border object-cover"
          />
        ) : (
          <span
            aria-hidden="true"
            className="grid size-16 place-items-center rounded-full bg-primary text-xl font-semibold text-primary-foreground"
          >
            {userInitials(user)}
          </span>
        )}
        <div>
          <h1 className="text-3xl font-bold tracking-tight">
            Welcome back{user.firstName ? `, ${user.firstName}` : ""}
          </h1>
          <p className="mt-1 text-muted-foreground">Your AFX Holding Group member dashboard.</p>
        </div>
      </header>

      <div className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-3">
        <Card title="Profile" icon={<Mail aria-hidden="true" className="size-5" />}>
          <p className="wrap-anywhere" data-testid="profile-email">
            {user.email ?? "No email provided"}
          </p>
          <p className="flex items-center gap-2 text-muted-foreground">
            <CalendarDays aria-hidden="true" className="size-4" />
            <span>
              Member since <span data-testid="member-since">{formatMemberSince(user.createdAt)}</span>
            </span>
          </p>
          {isAdmin(user) ? (
            <p className="flex items-center gap-2 text-muted-foreground">
              <ShieldCheck aria-hidden="true" className="size-4" /> Administrator
            </p>
          ) : null}
        </Card>

        <Card title="Quick Access" icon={<Layers aria-hidden="true" className="size-5" />}>
          <p>
            <span className="text-2xl font-bold" data-testid="subsidiary-count">
              {ventureCount}
            </span>{" "}
            <span className="text-muted-foreground">subsidiaries in the portfolio</span>
          </p>
          <a href="#portfolio" onClick={scrollToPortfolio} className="btn btn-primary">
            View Portfolio
          </a>
        </Card>

        <Card title="Session" icon={<LogOut aria-hidden="true" className="size-5" />}>
          <p className="wrap-anywhere text-muted-foreground">
            You are signed in{user.email ? ` as ${user.email}` : ""}.
          </p>
          {/* A full navigation: the server clears the cookie and redirects home. */}
          <a href="/api/logout" className="btn btn-outline">
            Log Out
          </a>
        </Card>
      </div>

      <section
        id="portfolio"
        tabIndex={-1}
        aria-labelledby="portfolio-heading"
        className="mt-12 scroll-mt-20 outline-none"
      >
        <h2 id="portfolio-heading" className="mb-6 text-2xl font-bold">
          Your AFX Portfolio
        </h2>
        <VentureGrid />
      </section>
    </div>
  );
}
