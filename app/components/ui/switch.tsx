import { useId, type ReactNode } from "react";

/** A native checkbox drawn as a switch: it submits with the form, with or without JavaScript. */
export function Switch({
  name,
  label,
  help,
  checked,
  defaultChecked,
  onChange,
  disabled,
}: {
  name: string;
  label: string;
  help: ReactNode;
  checked?: boolean;
  defaultChecked?: boolean;
  onChange?: (on: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-6 py-4">
      <div>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <p id={`${id}-help`} className="mt-1 text-sm text-muted-foreground">
          {help}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        name={name}
        checked={checked}
        defaultChecked={defaultChecked}
        onChange={onChange ? (e) => onChange(e.currentTarget.checked) : undefined}
        disabled={disabled}
        aria-describedby={`${id}-help`}
        className="relative mt-1 h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full border border-border bg-muted transition-colors before:absolute before:left-0.5 before:top-0.5 before:size-4.5 before:rounded-full before:bg-foreground before:transition-transform checked:bg-primary checked:before:translate-x-5 checked:before:bg-primary-foreground disabled:cursor-not-allowed disabled:opacity-50"
      />
    </div>
  );
}
