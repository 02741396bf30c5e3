import { existsSync } from "node:fs";

/** Debian's Chromium (or CHROMIUM_PATH); the browser tests never skip for want of one. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(path)) {
    throw new Error(
      `No Chromium at ${path}. Install one (Debian: \`sudo apt-get update && sudo apt-get install -y chromium\`) ` +
        "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
  }
  return path;
}
