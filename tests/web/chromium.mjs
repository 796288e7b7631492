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

// With $BAFFLE_WEB_PAGE_FILES, a folder of the page's files (index.html and its modules,
// `git show main:server/web/…` say), `page` is served those instead of the server's; the
// other requests (gRPC-Web, the catalogue) still reach the server. How a test is shown
// to fail on the page before a change, and how docs/web.md measured the page before one.
export async function servePageFiles(page) {
  const files = process.env.BAFFLE_WEB_PAGE_FILES;
  if (!files) return;
  const { readFile } = await import("node:fs/promises");
  await page.route(/\/([a-z0-9]+\.js)?(\?.*)?$/, async (route) => {
    const name = new URL(route.request().url()).pathname.slice(1) || "index.html";
    const type = name.endsWith(".js") ? "text/javascript" : "text/html";
    await route.fulfill({ body: await readFile(`${files}/${name}`, "utf8"), contentType: type });
  });
}
