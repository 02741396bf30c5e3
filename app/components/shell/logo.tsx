import { Link } from "@remix-run/react";
import { cn } from "~/components/ui/cn";
import { SITE } from "~/content/site";

/**
 * The logo block: the group name, seven coloured letter badges (red, orange, yellow,
 * green, cyan, blue, purple) and the word GROUP. Text colours keep 4.5:1 on every badge.
 */
const BADGES = [
  { letter: "H", className: "bg-red-600 text-white" },
  { letter: "O", className: "bg-orange-400 text-black" },
  { letter: "L", className: "bg-yellow-300 text-black" },
  { letter: "D", className: "bg-green-700 text-white" },
  { letter: "I", className: "bg-cyan-400 text-black" },
  { letter: "N", className: "bg-blue-600 text-white" },
  { letter: "G", className: "bg-purple-600 text-white" },
];

export function Logo({ className }: { className?: string }) {
  return (
    <Link to="/" aria-label={`${SITE.name} home`} className={cn("flex items-center gap-1.5 rounded-md", className)}>
      <span className="text-base font-extrabold tracking-tight sm:text-lg">{SITE.shortName}</span>
      <span className="flex gap-0.5" aria-hidden="true">
        {BADGES.map((b) => (
          <span
            key={b.letter}
            className={cn(
              "flex size-4 items-center justify-center rounded text-[0.6rem] font-bold leading-none sm:size-5 sm:text-[0.7rem]",
              b.className,
            )}
          >
            {b.letter}
          </span>
        ))}
      </span>
      <span className="text-xs font-semibold tracking-[0.15em] sm:text-sm sm:tracking-[0.2em]" aria-hidden="true">
        GROUP
      </span>
    </Link>
  );
}
