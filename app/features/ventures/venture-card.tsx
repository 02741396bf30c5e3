import { Link } from "@remix-run/react";
import { clsx } from "clsx";
import { ExternalLink, FileText, Play } from "~/components/ui/icons.generated";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { STAGES, ventureUrl, type Venture } from "~/content/ventures";
import { VentureMark } from "./venture-icon";
import { cardClass } from "~/components/ui/card";

declare global {
  interface Window {
    /** Google Analytics' gtag, when a page loads it. */
    gtag?: (command: "event", action: string, params: Record<string, unknown>) => void;
  }
}

/** The 'card_flip' analytics event, sent only when an analytics function exists on the page. */
function trackFlip(name: string) {
  if (typeof window.gtag === "function") {
    window.gtag("event", "card_flip", { event_category: "engagement", event_label: name });
  }
}

export function StatusBadge({ status }: { status: Venture["status"] }) {
  return (
    <span className="inline-flex items-center rounded-full border border-border bg-muted px-2.5 py-0.5 text-xs font-medium text-foreground">
      {STAGES[status]}
    </span>
  );
}

const actionClass =
  "inline-flex items-center gap-1.5 rounded-md border border-border px-2.5 py-1.5 text-xs font-medium hover:bg-accent";

/**
 * A venture's card: front with logo, badge, texts and links; a card with a video flips
 * (0.4 s) to a youtube-nocookie player that is only loaded on flip. Without JavaScript the 'Video'
 * button is a plain link to the video on YouTube.
 */
export function VentureCard({
  venture: s,
  headingLevel = 3,
  className,
}: {
  venture: Venture;
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const [flipped, setFlipped] = useState(false);
  const backButton = useRef<HTMLButtonElement>(null);
  const videoButton = useRef<HTMLAnchorElement>(null);
  const moved = useRef(false);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const video = s.youtubeVideoId;
  // No configured domain, no outbound link: a guessed host could be anyone's.
  const site = ventureUrl(s);

  useEffect(() => {
    if (!moved.current) return;
    (flipped ? backButton : videoButton).current?.focus();
  }, [flipped]);

  function flip(event: MouseEvent) {
    event.preventDefault();
    moved.current = true;
    setFlipped(true);
    trackFlip(s.name);
  }

  return (
    <article
      aria-labelledby={`card-${s.id}`}
      data-flipped={flipped ? "true" : "false"}
      className={clsx("h-[380px] [perspective:1200px] lg:h-[420px]", className)}
    >
      <div
        className={clsx(
          "relative size-full [transform-style:preserve-3d] motion-safe:transition-transform motion-safe:duration-[400ms]",
          flipped && "[transform:rotateY(180deg)]",
        )}
      >
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a pointer shortcut; the Video badge is the keyboard's way to flip */}
        <div
          aria-hidden={flipped || undefined}
          // A card with a video flips on a click anywhere on its front, except on its own links.
          onClick={video ? (event) => !(event.target as Element).closest("a, button") && flip(event) : undefined}
          className={clsx(
            cardClass("lg", "absolute inset-0 flex flex-col shadow-sm [backface-visibility:hidden]"),
            video && "cursor-pointer",
            flipped && "invisible motion-safe:transition-[visibility] motion-safe:delay-200",
          )}
        >
          <div className="flex items-start justify-between gap-3">
            <VentureMark venture={s} />
            <div className="flex flex-wrap justify-end gap-2">
              <StatusBadge status={s.status} />
              {video ? (
                <a
                  ref={videoButton}
                  href={`https://www.youtube.com/watch?v=${video}`}
                  onClick={flip}
                  className="inline-flex items-center gap-1 rounded-full bg-primary px-2.5 py-0.5 text-xs font-medium text-primary-foreground"
                  aria-label={`Video: play the ${s.name} video`}
                >
                  <Play aria-hidden="true" className="size-3" />
                  Video
                </a>
              ) : null}
            </div>
          </div>
          <Heading id={`card-${s.id}`} className="mt-4 text-xl font-semibold">
            {s.name}
          </Heading>
          <p className="mt-1 text-sm font-medium text-muted-foreground">{s.tagline}</p>
          <p className="mt-3 line-clamp-5 text-sm text-muted-foreground">{s.description}</p>
          <div className="mt-auto flex flex-wrap items-center justify-between gap-2 pt-4">
            <Link
              to={`/subsidiary/${s.id}`}
              className="text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Learn more<span className="sr-only"> about {s.name}</span>
            </Link>
            <div className="flex flex-wrap gap-2">
              {site ? (
                <a
                  href={site}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={actionClass}
                  aria-label={`${s.domain} (opens in a new tab)`}
                >
                  {s.domain}
                  <ExternalLink aria-hidden="true" className="size-3" />
                </a>
              ) : null}
              <Link
                to={`/documents?subsidiary=${s.id}`}
                className={actionClass}
                aria-label={`Docs: ${s.name} documents`}
              >
                <FileText aria-hidden="true" className="size-3" />
                Docs
              </Link>
            </div>
          </div>
        </div>
        {video ? (
          <div
            aria-hidden={!flipped || undefined}
            className={clsx(
              cardClass(
                "sm",
                "absolute inset-0 flex flex-col [backface-visibility:hidden] [transform:rotateY(180deg)]",
              ),
              !flipped && "invisible motion-safe:transition-[visibility] motion-safe:delay-200",
            )}
          >
            <div className="mb-3 flex items-center justify-between gap-2">
              <button
                ref={backButton}
                type="button"
                className="btn btn-outline px-3 py-1.5"
                onClick={() => {
                  moved.current = true;
                  setFlipped(false);
                }}
                tabIndex={flipped ? 0 : -1}
              >
                ← Back
              </button>
              <span className="truncate text-sm font-medium">{s.name}</span>
            </div>
            {flipped ? (
              <iframe
                className="w-full flex-1 rounded-lg"
                src={`https://www.youtube-nocookie.com/embed/${video}?autoplay=1`}
                title={`${s.name} video`}
                allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}
