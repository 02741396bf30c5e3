import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { serveLogo } from "~/features/ventures/logo.server";

/** A venture's logo at its content-addressed, immutable address (features/ventures/logo.server.ts). */
export function loader({ params, context }: LoaderFunctionArgs) {
  return serveLogo(context.cloudflare.env.DOCUMENTS, params.file ?? "");
}
