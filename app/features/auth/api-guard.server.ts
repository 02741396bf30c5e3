import { requireAdminApi } from "~/features/auth/guard.server";
import type { CurrentUser } from "~/features/auth/user";

/** requireAdminApi for resource routes: its 401/403 `{ message }` Response is returned, not thrown. */
export async function adminOrResponse(request: Request, env: Env): Promise<CurrentUser | Response> {
  try {
    return await requireAdminApi(request, env);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}
