import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { ReactNode } from "react";

/** A checkbox bound to a conform field, its label beside it (an admin form's switches: publish, alert...). */
export function Checkbox<T>({ field, label }: { field: FieldMetadata<T>; label: ReactNode }) {
  const { key, ...props } = getInputProps(field, { type: "checkbox" });
  return (
    <div className="flex items-center gap-2">
      <input key={key} {...props} className="size-4" />
      <label htmlFor={field.id} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
}
