/**
 * The checkboxes of an investor's alert choice (docs/decisions/099), for the preferences page a
 * mail links and for Settings: one `venture` box per venture and one `kind` box per kind, plain
 * inputs that post with or without JavaScript. Nothing ticked in a group means all of it.
 */
import type { ReactNode } from "react";
import { ALERT_KIND_LABELS, ALERT_KINDS, PREFERENCE_FIELDS, type AlertChoice } from "~/features/alerts/preferences";

function Box({ name, value, label, checked }: { name: string; value: string; label: string; checked: boolean }) {
  return (
    <label className="flex min-w-0 items-center gap-2 text-sm">
      <input type="checkbox" name={name} value={value} defaultChecked={checked} className="size-4 shrink-0" />
      <span className="wrap-anywhere">{label}</span>
    </label>
  );
}

export function AlertChoiceFields({
  ventures,
  choice,
  children,
}: {
  ventures: readonly { id: string; name: string }[];
  choice: AlertChoice;
  /** More opt-ins of the same page, after the kinds. */
  children?: ReactNode;
}) {
  return (
    <div className="grid gap-6">
      <fieldset className="min-w-0">
        <legend className="font-medium">Ventures</legend>
        <p className="mt-1 text-sm text-muted-foreground">
          Tick none for every venture and the group&apos;s own news; tick some for only theirs.
        </p>
        <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2">
          {ventures.map((v) => (
            <Box
              key={v.id}
              name={PREFERENCE_FIELDS.venture}
              value={v.id}
              label={v.name}
              checked={choice.ventures?.includes(v.id) ?? false}
            />
          ))}
        </div>
      </fieldset>
      <fieldset className="min-w-0">
        <legend className="font-medium">Kinds</legend>
        <p className="mt-1 text-sm text-muted-foreground">Tick none for every kind.</p>
        <div className="mt-3 flex flex-wrap gap-x-6 gap-y-2">
          {ALERT_KINDS.map((k) => (
            <Box
              key={k}
              name={PREFERENCE_FIELDS.kind}
              value={k}
              label={ALERT_KIND_LABELS[k]}
              checked={choice.kinds?.includes(k) ?? false}
            />
          ))}
        </div>
      </fieldset>
      {children}
    </div>
  );
}
