import type { RouteConfig } from "@remix-run/route-config";
import { flatRoutes } from "@remix-run/fs-routes";

// File-system routes (app/routes), the Remix v2 flat-routes convention.
export default flatRoutes() satisfies RouteConfig;
