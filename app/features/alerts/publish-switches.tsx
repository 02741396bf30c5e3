import type { FieldMetadata } from "@conform-to/react";
import { Checkbox } from "~/components/ui/checkbox";

/** A news item's or an event's two switches: publish it, and e-mail the investor alerts when it is. */
export function PublishSwitches({
  publish,
  alert,
}: {
  publish: FieldMetadata<boolean>;
  alert: FieldMetadata<boolean>;
}) {
  return (
    <>
      <Checkbox field={publish} label="Publish" />
      <Checkbox field={alert} label="E-mail investor-alert subscribers when published" />
    </>
  );
}
