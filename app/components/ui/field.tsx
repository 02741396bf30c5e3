import type { FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";
import { cn } from "~/components/ui/cn";

/** A form field: its label, its control (an Input or Textarea of the same field) and its errors. */
export function Field({
  label,
  field,
  children,
}: {
  label: ReactNode;
  field: FieldMetadata<string>;
  children: ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-1.5">
      <label htmlFor={field.id} className="wrap-anywhere text-sm font-medium">
        {label}
      </label>
      {children}
      <FieldErrors field={field} />
    </div>
  );
}

/** The field's errors, where its control's `aria-describedby` points. */
export function FieldErrors({ field, className }: { field: FieldMetadata<string>; className?: string }) {
  if (!field.errors?.length) return null;
  return (
    <p id={field.errorId} className={cn("wrap-anywhere text-sm text-destructive", className)}>
      {[...new Set(field.errors)].join(" ")}
    </p>
  );
}
