// Issue 31, point 19: how much main-thread work the live view of a match does, measured
// by Chromium itself (the DevTools protocol's Performance.getMetrics: the renderer's
// task, script, style and layout time), at 1280 × 800, the processor slowed down four times
// as Lighthouse does for a phone. For tests/tests/web_page/issue31.rs.
//
//   node perf.mjs <page url> <match>
//   → "LOAD <ms of tasks> <ms of script> <ms of style> <ms of layout>"   from the start
//                                       until the board is drawn and a second after
//   → "IDLE <DOM mutations> <ms of tasks>"   3 s of a running clock and no update
//   → "READY"
//   ← "DONE <seq>"                      the test made its updates, the last event <seq>
//   → "UPDATES <ms of tasks> <ms of style and layout>"   from READY until the page shows it
//
// With $BAFFLE_WEB_PAGE_FILES, the page's files are served from that folder instead of the
// server's (chromium.mjs): how docs/web.md measured the page before a change.

import { launch, servePageFiles } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, match] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await servePageFiles(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
  // A phone's processor, as Lighthouse's mobile runs take it: four times slower.
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const ms = (a, b, name) => Math.round(((b[name] || 0) - (a[name] || 0)) * 1000);
  const zero = await metrics();
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  await page.locator("svg.board").waitFor();
  await page.waitForFunction(() => /\d/.test(document.querySelector(".live [data-clock]")?.textContent || ""));
  await page.waitForTimeout(1000);
  const loaded = await metrics();
  say(`LOAD ${ms(zero, loaded, "TaskDuration")} ${ms(zero, loaded, "ScriptDuration")} ${ms(zero, loaded, "RecalcStyleDuration")} ${ms(zero, loaded, "LayoutDuration")}`);

  await page.evaluate(() => {
    window.mutations = 0;
    new MutationObserver((records) => { window.mutations += records.length; })
      .observe(document.getElementById("view"), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const before = await metrics();
  await page.waitForTimeout(3000);
  const idle = await metrics();
  say(`IDLE ${await page.evaluate(() => window.mutations)} ${ms(before, idle, "TaskDuration")}`);

  const start = await metrics();
  say("READY");
  const done = (await lines.next()).value || "";
  const [word, seq] = done.split(" ");
  if (word !== "DONE") throw new Error(`expected DONE, got ${done}`);
  await page.waitForFunction((n) => [...document.querySelectorAll(".events li[data-seq]")].some((li) => Number(li.dataset.seq) >= n), Number(seq));
  const end = await metrics();
  say(`UPDATES ${ms(start, end, "TaskDuration")} ${ms(start, end, "RecalcStyleDuration") + ms(start, end, "LayoutDuration")}`);
} finally {
  await browser.close();
}
