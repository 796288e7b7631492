// Debian's headless Chromium (/usr/bin/chromium, or $CHROMIUM), started as this machine's
// closed network needs: no background connections, no updates, no sync. playwright-core
// never downloads a browser of its own.

import { chromium } from "playwright-core";

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}
