import {
  Baby,
  Building2,
  ChefHat,
  DollarSign,
  Dog,
  Landmark,
  MapPin,
  Newspaper,
  Truck,
  Users,
  type LucideIcon,
} from "~/components/ui/icons.generated";
import { clsx } from "clsx";
import { useEffect, useRef, useState } from "react";
import type { Venture, VentureIconName } from "~/content/ventures";
import { ventureBackgroundClass } from "./venture-colour";

const ICONS: Record<VentureIconName, LucideIcon> = {
  DollarSign,
  Landmark,
  ChefHat,
  Baby,
  Dog,
  Newspaper,
  Truck,
  MapPin,
  Users,
};

/** The catalogue's icon name as a component; an unknown name gets the default icon. */
function VentureIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name as VentureIconName] ?? Building2;
  return <Icon aria-hidden="true" className={className} />;
}

/** A coloured tile with the first letter of the name: when a logo fails, and in the detail header. */
export function LetterTile({
  venture,
  className,
}: {
  venture: Pick<Venture, "id" | "name" | "colour">;
  className?: string;
}) {
  return (
    <span
      aria-hidden="true"
      className={clsx(
        "flex shrink-0 items-center justify-center rounded-lg font-bold text-white",
        ventureBackgroundClass(venture.colour),
        className,
      )}
    >
      {venture.name.charAt(0).toUpperCase()}
    </span>
  );
}

/**
 * The venture's logo when it has one, else its icon on its colour. A logo that fails to load
 * becomes the first-letter tile; the tile sits under the image, so even without JavaScript a broken
 * image (empty alt, drawn as nothing) leaves the letter visible.
 */
export function VentureMark({ venture, className = "size-12" }: { venture: Venture; className?: string }) {
  // The address that failed: another one (a new logo chosen in the admin's preview) is tried afresh.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = failedSrc !== null && failedSrc === venture.logo;
  const img = useRef<HTMLImageElement>(null);
  // An image that failed before hydration fired its error event before React listened.
  useEffect(() => {
    if (img.current?.complete && img.current.naturalWidth === 0) setFailedSrc(img.current.getAttribute("src"));
  }, []);
  if (!venture.logo) {
    return (
      <span
        aria-hidden="true"
        className={clsx(
          "flex shrink-0 items-center justify-center rounded-lg text-white",
          ventureBackgroundClass(venture.colour),
          className,
        )}
      >
        <VentureIcon name={venture.icon} className="size-1/2" />
      </span>
    );
  }
  return (
    <span className={clsx("relative shrink-0", className)} data-logo-state={failed ? "failed" : "ok"}>
      <LetterTile venture={venture} className="absolute inset-0 text-xl" />
      {failed ? null : (
        <img
          ref={img}
          src={venture.logo}
          alt=""
          width={48}
          height={48}
          loading="lazy"
          className="absolute inset-0 size-full rounded-lg bg-card object-contain"
          onError={() => setFailedSrc(venture.logo ?? null)}
        />
      )}
    </span>
  );
}
