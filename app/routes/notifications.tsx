import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { clsx } from "clsx";
import { Bell, Info, PartyPopper, RefreshCw } from "~/components/ui/icons.generated";
import { PageHeader } from "~/components/page-header";
import { pages } from "~/content/pages";
import { notifications, type NotificationType } from "~/content/notifications";
import { pageMeta } from "~/utils/meta";
import { cardClass } from "~/components/ui/card";
export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate";

const page = pages.notifications;

const ICONS: Record<NotificationType, typeof Info> = { info: Info, update: RefreshCw, welcome: PartyPopper };

/**
 * The three samples. Read state is display only: 'Mark all as read' and 'Clear
 * all' are GET forms, so they work without JavaScript and nothing is stored.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const cleared = params.get("view") === "cleared";
  const allRead = params.get("view") === "read";
  return {
    notifications: cleared ? [] : notifications.map((n) => (allRead ? { ...n, read: true } : n)),
  };
}

export const meta: MetaFunction = ({ matches }) => pageMeta({ page, matches });

export default function Notifications() {
  const { notifications: list } = useLoaderData<typeof loader>();
  const unread = list.filter((n) => !n.read).length;
  return (
    <>
      <PageHeader heading={page.heading}>
        <p>{list.length ? `${unread} unread` : page.description}</p>
      </PageHeader>
      <div className="mx-auto max-w-3xl px-4 pb-12">
        {list.length ? (
          <>
            <div className="mb-4 flex justify-end gap-2">
              <Form method="get">
                <button type="submit" name="view" value="read" className="btn btn-outline" disabled={unread === 0}>
                  Mark all as read
                </button>
              </Form>
              <Form method="get">
                <button type="submit" name="view" value="cleared" className="btn btn-outline">
                  Clear all
                </button>
              </Form>
            </div>
            <ul className="space-y-3" aria-label="Notifications">
              {list.map((n) => {
                const Icon = ICONS[n.type];
                return (
                  <li
                    key={n.id}
                    data-read={n.read ? "true" : "false"}
                    className={clsx(
                      "flex gap-4 rounded-xl border p-4",
                      n.read ? "border-border bg-card" : "border-primary bg-accent",
                    )}
                  >
                    <Icon aria-hidden="true" className={clsx("mt-0.5 size-5 shrink-0", !n.read && "text-primary")} />
                    <div className="flex-1">
                      <h2 className={clsx("text-base", n.read ? "font-medium" : "font-semibold")}>
                        {n.title}
                        {n.read ? null : <span className="sr-only"> (unread)</span>}
                      </h2>
                      <p className="mt-1 text-sm text-muted-foreground">{n.message}</p>
                      <p className="mt-2 text-xs text-muted-foreground">{n.time}</p>
                    </div>
                    {n.read ? null : (
                      <span aria-hidden="true" className="mt-1.5 size-2.5 shrink-0 rounded-full bg-primary" />
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        ) : (
          <div className={cardClass("2xl", "text-center")}>
            <Bell aria-hidden="true" className="mx-auto size-10 text-muted-foreground" />
            <h2 className="mt-4 text-lg font-semibold">No notifications</h2>
            <p className="mt-1 text-muted-foreground">You're all caught up!</p>
          </div>
        )}
      </div>
    </>
  );
}
