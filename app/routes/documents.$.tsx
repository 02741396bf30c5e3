import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { serveDocument } from "~/features/documents/serve-route.server";

// A published document's file, at its stable URL or a version's own; every other sub-path of
// /documents redirects to /documents (app/features/documents/serve-route.server.ts).
export function loader({ request, context }: LoaderFunctionArgs) {
  return serveDocument(request, context.cloudflare.env, context.cloudflare.ctx);
}
