// Issue 31: Lighthouse's accessibility and best-practices audits over every view of the
// page (home, a tournament, a match live, a round's results, the wall), in Debian's
// headless Chromium ($CHROME_PATH, else /usr/bin/chromium). For tests/tests/web_page/issue31.rs.
//
//   node lighthouse.mjs <page url> <path>…     each path a view, "#/t/club" say
//   → "VIEW <path> <accessibility> <best practices> | <the failing audits, if any>"
//
// Offline: only those two categories run, and none of their audits asks the network for
// anything (the performance category, whose field data and third-party audits would, is
// not run, nor is SEO). Chromium is started without its own background traffic
// (components, sync, field trials) and resolves no name but loopback's, and Lighthouse
// is told the page is not throttled (the test's own loopback server), so a run takes
// seconds. Lighthouse's own error reporting is off unless asked for.

import lighthouse from "lighthouse";
import { launch } from "chrome-launcher";

const [url, ...paths] = process.argv.slice(2);
const say = (line) => process.stdout.write(line + "\n");

const chrome = await launch({
  chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  chromeFlags: [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--disable-domain-reliability", "--disable-field-trial-config",
    // No name but the test's own loopback resolves: a request off this machine fails
    // at once instead of waiting on a network that is not there.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
  ],
  logLevel: "silent",
});
try {
  for (const path of paths) {
    const { lhr } = await lighthouse(`${url}/${path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["accessibility", "best-practices"],
      throttlingMethod: "provided",
      // A view follows a stream that never ends, so the network is never quiet and
      // Lighthouse would wait out its whole limit (45 s) on each: 4 s is ample for a
      // view to be drawn from a server on loopback (its first update takes ~100 ms), and
      // keeps the run near 30 s. Lighthouse then says the page "loaded too slowly":
      // that warning goes to stderr, and the audits run on the view as drawn.
      maxWaitForLoad: 4_000,
      // What these categories do not need: the full page's picture (seconds of the
      // run), and a blank page before each view.
      disableFullPageScreenshot: true,
      skipAboutBlank: true,
    });
    if (lhr.runtimeError) throw new Error(`${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (c) => Math.round(lhr.categories[c].score * 100);
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual" && a.scoreDisplayMode !== "notApplicable")
      .map((a) => `${a.id}${a.details && a.details.items ? `: ${JSON.stringify(a.details.items.slice(0, 2)).slice(0, 400)}` : ""}`);
    for (const w of lhr.runWarnings) process.stderr.write(`lighthouse ${path}: ${w}\n`);
    say(`VIEW ${path} ${score("accessibility")} ${score("best-practices")} | ${failing.join(" ; ") || "none"}`);
  }
} finally {
  await chrome.kill();
}
