import type { ShouldRevalidateFunction } from "@remix-run/react";
import { SIGNUP_ACTION } from "~/features/leads/signup-action";

/**
 * Every page's shell carries the newsletter signup, which posts through a fetcher; after its
 * action Remix reloads every loader on the page unless its route says otherwise. A signup changes
 * lead data only: a route whose page shows none exports this as its `shouldRevalidate`
 * (`export { keepDataAfterSignup as shouldRevalidate } from "~/components/shell/revalidate"`), so
 * only the pages that show leads (Settings, the workbench, a lead's page) reload after one.
 */
export const keepDataAfterSignup: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === SIGNUP_ACTION ? false : defaultShouldRevalidate;
