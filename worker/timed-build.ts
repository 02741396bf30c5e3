import type { ActionFunctionArgs, LoaderFunctionArgs, ServerBuild } from "@remix-run/cloudflare";
import type { Phase } from "../app/utils/timing.server";

type DataFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;

/**
 * The server build with every route's loader and action timed into the request's `Server-Timing`
 * (`loader;dur=…;desc="routes/settings"`), the route id naming the phase: one wrapper here rather
 * than a line in each route, and a route added later is timed without an edit. The load context
 * carries the request's timings (worker/load-context.ts).
 */
export function timedBuild(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module } as Record<string, unknown>;
      for (const phase of ["loader", "action"] as const satisfies readonly Phase[]) {
        const run = module[phase] as DataFunction | undefined;
        if (run) module[phase] = (args: LoaderFunctionArgs) => args.context.timings.time(phase, id, () => run(args));
      }
      return [id, { ...route, module: module as unknown as typeof route.module }];
    }),
  );
  return { ...build, routes };
}
