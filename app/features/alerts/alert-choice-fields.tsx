/**
 * The investor's alert choice (docs/decisions/099), for the preferences page a mail links, the
 * confirmed page and Settings: for the ventures and for the kinds, "All …" or "Only these" (a
 * radio), then one box per venture or kind; plain inputs that post with or without JavaScript.
 * While "All" is chosen the boxes are hidden by CSS alone (`.choice-group`, tailwind.css).
 */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { answerAction, FormAnswer } from "~/components/form-answer";
import { Button } from "~/components/ui/button";

const PREFERENCES_FORM = "alert-preferences";
import { ALERTS_TEXT } from "~/features/leads/newsletter";
import { ALERT_KIND_LABELS, ALERT_KINDS, PREFERENCE_FIELDS, type AlertChoice } from "~/features/alerts/preferences";

function Box({ name, value, label, checked }: { name: string; value: string; label: string; checked: boolean }) {
  return (
    <label className="flex min-h-6 min-w-0 items-center gap-2 text-sm">
      <input type="checkbox" name={name} value={value} defaultChecked={checked} className="size-4 shrink-0" />
      <span className="wrap-anywhere">{label}</span>
    </label>
  );
}

function Scope({ name, all, chosen }: { name: string; all: string; chosen: boolean }) {
  return (
    <div className="choice-scope mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm">
      <label className="flex min-h-6 items-center gap-2">
        <input type="radio" name={name} value="all" defaultChecked={!chosen} className="size-4" />
        {all}
      </label>
      <label className="flex min-h-6 items-center gap-2">
        <input type="radio" name={name} value="some" defaultChecked={chosen} className="size-4" />
        Only these
      </label>
    </div>
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
      <fieldset className="choice-group min-w-0">
        <legend className="font-medium">Ventures</legend>
        <Scope
          name={PREFERENCE_FIELDS.ventureScope}
          all="All ventures and the group"
          chosen={choice.ventures !== null}
        />
        <div className="choice-list mt-3 grid grid-cols-1 gap-1 sm:grid-cols-2">
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
      <fieldset className="choice-group min-w-0">
        <legend className="font-medium">Kinds</legend>
        <Scope name={PREFERENCE_FIELDS.kindScope} all="All kinds" chosen={choice.kinds !== null} />
        <div className="choice-list mt-3 flex flex-wrap gap-x-6 gap-y-1">
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

/**
 * The whole preferences form (the preferences page's, and the confirmed page's right after
 * confirming): the choice, the reminders box and Save, posting to the preferences page, which
 * answers with "Saved" in place (`saved`).
 */
export function AlertPreferencesForm({
  action,
  ventures,
  choice,
  reminders,
  saved,
  busy,
}: {
  /** The preferences page's path (the form posts there, with its answer's fragment). */
  action: string;
  ventures: readonly { id: string; name: string }[];
  choice: AlertChoice;
  reminders: boolean;
  saved?: boolean;
  busy: boolean;
}) {
  return (
    <Form
      method="post"
      action={answerAction(action, PREFERENCES_FORM)}
      className="mt-8"
      key={`${JSON.stringify(choice)}-${reminders}`}
    >
      <AlertChoiceFields ventures={ventures} choice={choice}>
        <label className="flex min-h-6 items-center gap-2 text-sm">
          <input type="checkbox" name="eventReminders" defaultChecked={reminders} className="size-4 shrink-0" />
          {ALERTS_TEXT.eventReminders}
        </label>
      </AlertChoiceFields>
      <FormAnswer
        formId={PREFERENCES_FORM}
        answer={saved}
        tone="result"
        className="mt-8"
        message={saved ? "Saved. Your alerts follow this choice from now on." : null}
      />
      <Button type="submit" className="mt-4" disabled={busy}>
        Save preferences
      </Button>
    </Form>
  );
}
