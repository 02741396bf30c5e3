import { getInputProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";
import { cn } from "~/components/ui/cn";

const CONTROL =
  "block w-full rounded-md border border-border bg-background px-3 text-sm text-foreground placeholder:text-muted-foreground aria-[invalid=true]:border-destructive";

type Own = "name" | "id" | "type" | "defaultValue" | "form";

/** A text input bound to a conform field: name, id, its error wiring and `aria-invalid`. */
export function Input({
  field,
  type = "text",
  className,
  ...rest
}: { field: FieldMetadata<string>; type?: "text" | "email" } & Omit<InputHTMLAttributes<HTMLInputElement>, Own>) {
  const { key, ...props } = getInputProps(field, { type });
  return <input key={key} {...props} {...rest} className={cn(CONTROL, "h-10", className)} />;
}

/** A plain input (a GET filter form, nothing to validate): the same look, no conform wiring. */
export function PlainInput({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...rest} className={cn(CONTROL, "h-10", className)} />;
}

/** A textarea bound to a conform field. */
export function Textarea({
  field,
  className,
  ...rest
}: { field: FieldMetadata<string> } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Own>) {
  const { key, ...props } = getTextareaProps(field);
  return <textarea key={key} {...props} {...rest} className={cn(CONTROL, "py-2", className)} />;
}
