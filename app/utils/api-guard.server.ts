import { requireAdminApi } from "~/utils/authorization.server";
import type { CurrentUser } from "~/utils/user";

/**
 * requireAdminApi for resource routes. Remix turns a `data()` thrown from a resource route into a
 * generic error (and logs it), so its 401/403 `{ message }` is answered here as the Response it
 * describes.
 */
export async function adminOrResponse(request: Request, env: Env): Promise<CurrentUser | Response> {
  try {
    return await requireAdminApi(request, env);
  } catch (error) {
    if (isDataWithResponseInit(error)) {
      const headers = new Headers(error.init?.headers);
      headers.set("Cache-Control", "no-store");
      return Response.json(error.data, { status: error.init?.status ?? 500, headers });
    }
    throw error;
  }
}

function isDataWithResponseInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}
