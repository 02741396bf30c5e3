// Runs in Node before the workerd pool starts: the local OpenID provider (the same one `npm start`
// uses) on a free loopback port. vitest.config.ts hands its issuer to the worker as OAUTH_ISSUER.
import type { TestProject } from "vitest/node";
import { startLocalProviderIfNeeded } from "../../scripts/lib/local-oidc.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    oidcIssuer: string;
  }
}

export default async function setup(project: TestProject) {
  const provider = await startLocalProviderIfNeeded({ port: 0, redirectHosts: ["afx.test"] });
  if (!provider) throw new Error("OAUTH_ISSUER names a real provider: unset it for the worker tests");
  project.provide("oidcIssuer", provider.issuer);
  return () => provider.stop();
}
