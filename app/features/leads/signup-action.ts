import type { ShouldRevalidateFunction } from "@remix-run/react";

/** Where the newsletter signup posts: the JSON API and the signup form alike (routes/api.leads.ts). */
export const SIGNUP_ACTION = "/api/leads";

/**
 * The signup form posts through a fetcher, after whose action Remix reloads every loader on the
 * page unless its route says otherwise. A signup changes lead data only: a route whose page shows
 * none exports this as its `shouldRevalidate`, so only the pages that show leads (Settings, the
 * workbench, a lead's page) reload after one.
 */
export const keepDataAfterSignup: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === SIGNUP_ACTION ? false : defaultShouldRevalidate;
