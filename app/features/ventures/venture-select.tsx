import type { FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/ui/field";
import { FieldSelect } from "~/components/ui/select";

/**
 * The `venture` field of the news and event forms: the group, or one of the catalogue's ventures
 * (from the loader); the server checks the choice again (withKnownVenture, venture-field.ts).
 */
export function VentureSelect({
  field,
  ventures,
}: {
  field: FieldMetadata<string>;
  ventures: readonly { id: string; name: string }[];
}) {
  return (
    <Field label="Venture" field={field}>
      <FieldSelect field={field}>
        <option value="">The group (no venture)</option>
        {ventures.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </FieldSelect>
    </Field>
  );
}
