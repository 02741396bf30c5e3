import { clsx } from "clsx";
import { Mail, Phone } from "~/components/ui/icons.generated";
import type { ReactNode } from "react";
import type { Card, Tile } from "~/content/copy";
import { useRootData } from "~/root-data";
import { cardClass } from "~/components/ui/card";

/** Building blocks the content pages share. */

export function Section({
  id,
  heading,
  children,
  className,
}: {
  id: string;
  heading: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={clsx("mx-auto max-w-6xl px-4 py-8", className)}>
      <h2 id={id} className="mb-6 text-2xl font-semibold tracking-tight">
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** A bordered card section with its heading (settings' groups, the legal contact block). */
export function Panel({
  id,
  heading,
  children,
  flush = false,
}: {
  id: string;
  heading: string;
  children: ReactNode;
  /** No bottom padding: the last row (a divided list) brings its own. */
  flush?: boolean;
}) {
  return (
    <section aria-labelledby={id} className={flush ? cardClass("none", "px-6 pt-6") : cardClass()}>
      <h2 id={id} className="text-lg font-semibold">
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** Figures in tiles; one that is a key fact says its date and links its source. */
export function StatTiles({
  tiles,
  className,
}: {
  tiles: readonly (Tile & { asOf?: string; source?: string })[];
  className?: string;
}) {
  return (
    <dl className={clsx("grid grid-cols-1 gap-4 sm:grid-cols-3", className)}>
      {tiles.map((t) => (
        <div key={t.label} className={cardClass("lg", "flex flex-col text-center")} data-tile={t.label}>
          <dt className="order-2 mt-1 text-sm text-muted-foreground">{t.label}</dt>
          <dd className="order-1 text-3xl font-bold">{t.value}</dd>
          {t.asOf ? (
            <dd className="order-3 mt-1 text-xs text-muted-foreground">
              As of {t.asOf}
              {t.source ? (
                <>
                  {" · "}
                  <a href={t.source} className="text-primary underline underline-offset-2">
                    Source<span className="sr-only"> of {t.label}</span>
                  </a>
                </>
              ) : null}
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

export function CardGrid({ cards, columns = 2 }: { cards: readonly Card[]; columns?: 2 | 3 | 4 }) {
  return (
    <ul
      className={clsx(
        "grid grid-cols-1 gap-4 sm:grid-cols-2",
        columns === 3 && "lg:grid-cols-3",
        columns === 4 && "lg:grid-cols-4",
      )}
    >
      {cards.map((c) => (
        <li key={c.title} className={cardClass()}>
          <h3 className="font-semibold">{c.title}</h3>
          <p className="mt-2 text-sm text-muted-foreground">{c.text}</p>
        </li>
      ))}
    </ul>
  );
}

export function BulletList({ items }: { items: readonly string[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {items.map((item) => (
        <li key={item} className="flex gap-3 rounded-lg border border-border bg-card p-4 text-sm">
          <span aria-hidden="true" className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" />
          {item}
        </li>
      ))}
    </ul>
  );
}

/** tel: links want the digits and a leading plus only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** The configured contact details (placeholders until the group sets its own, see README). */
export function useContact() {
  const contact = useRootData()?.contact;
  return { phone: contact?.phone ?? "", email: contact?.email ?? "", investorEmail: contact?.investorEmail ?? "" };
}

/** A closing call to action: a mailto button and, optionally, a call button. */
export function ContactCta({
  id,
  heading,
  email,
  emailLabel,
  subject,
  callLabel,
  children,
}: {
  id: string;
  heading: string;
  email: string;
  emailLabel: string;
  subject?: string;
  callLabel?: string;
  children?: ReactNode;
}) {
  const { phone } = useContact();
  const mailto = `mailto:${email}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}`;
  return (
    <section aria-labelledby={id} className="mx-auto max-w-6xl px-4 py-12">
      <div className="rounded-2xl border border-border bg-card p-8 text-center">
        <h2 id={id} className="text-2xl font-semibold">
          {heading}
        </h2>
        {children ? <div className="mx-auto mt-3 max-w-2xl text-muted-foreground">{children}</div> : null}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <a href={mailto} className="btn btn-primary">
            <Mail aria-hidden="true" className="size-4" />
            {emailLabel}
          </a>
          {callLabel && phone ? (
            <a href={telHref(phone)} className="btn btn-outline">
              <Phone aria-hidden="true" className="size-4" />
              {callLabel}: {phone}
            </a>
          ) : null}
        </div>
        <p className="mt-4 text-sm text-muted-foreground">{email}</p>
      </div>
    </section>
  );
}
