/**
 * Where the newsletter signup posts: the JSON API and the signup form alike (routes/api.leads.ts).
 * Pages that show no lead data skip reloading after it (components/shell/revalidate.ts).
 */
export const SIGNUP_ACTION = "/api/leads";
