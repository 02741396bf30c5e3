import { Link } from "@remix-run/react";
import { PlainInput } from "~/components/ui/input";
import { Select } from "~/components/ui/select";
import { LEAD_STATUSES, LEAD_TOPICS } from "~/db/enums";
import { DEFAULT_FILTER, type FilterErrors } from "~/features/leads/lead-filter";

/** A GET form: the filters live in the URL, so they work without JavaScript and can be shared. */
export function FilterForm({
  values,
  errors,
  filtered,
}: {
  values: Record<string, string>;
  errors: FilterErrors;
  filtered: boolean;
}) {
  // content-start: an error under one field grows the row, not the gaps above the others' inputs.
  const field = "grid content-start gap-1 text-sm";
  const error = (name: keyof FilterErrors) =>
    errors[name] ? (
      <span className="text-xs text-destructive" role="alert">
        {errors[name]}
      </span>
    ) : null;
  return (
    <form method="get" className="mb-4 grid gap-3 sm:grid-cols-7" aria-label="Filter leads">
      <label className={`${field} sm:col-span-2`}>
        <span>Search</span>
        <PlainInput
          name="q"
          type="search"
          defaultValue={values.q}
          placeholder="E-mail or name starts with…"
          maxLength={254}
        />
        {error("q")}
      </label>
      <label className={field}>
        <span>Source</span>
        <PlainInput name="source" defaultValue={values.source} placeholder="any" maxLength={40} />
        {error("source")}
      </label>
      <label className={field}>
        <span>Status</span>
        <Select name="status" defaultValue={values.status || DEFAULT_FILTER} wide>
          {[...LEAD_STATUSES, "all"].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        {error("status")}
      </label>
      <label className={field}>
        <span>Topic</span>
        <Select name="topic" defaultValue={values.topic || "newsletter"} wide>
          {LEAD_TOPICS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        {error("topic")}
      </label>
      <label className={field}>
        <span>From</span>
        <PlainInput name="from" type="date" defaultValue={values.from} />
        {error("from")}
      </label>
      <label className={field}>
        <span>To</span>
        <PlainInput name="to" type="date" defaultValue={values.to} />
        {error("to")}
      </label>
      <div className="flex gap-3 sm:col-span-7">
        <button type="submit" className="btn btn-primary">
          Apply filters
        </button>
        {filtered ? (
          <Link to="/admin/leads" className="btn btn-outline">
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}
