import { redirect } from "@remix-run/cloudflare";

// Any sub-path of /documents that is not a file redirects to /documents. Real files
// (PDFs, logos) are static assets and never reach the worker.
export function loader() {
  return redirect("/documents", 302);
}
