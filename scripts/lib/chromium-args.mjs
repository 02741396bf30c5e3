// The flags every Chromium we start (the browser tests, the speed benches) runs with: no sandbox
// as root, no GPU, and no background traffic to the internet.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
