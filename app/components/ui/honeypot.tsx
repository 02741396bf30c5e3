import { HONEYPOT_FIELD } from "~/features/forms/honeypot";

/** The honeypot field (features/forms/honeypot.ts): off-screen, out of the tab order and the a11y tree. */
export function Honeypot({ id, form }: { id: string; form?: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] size-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} form={form} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
