// Drives a real headless Chromium as a player adding his own seed, for
// tests/tests/web_page/dice.rs: the page makes the seed and salt, commits to them with the
// player's code, is reloaded (what it keeps is in localStorage), and reveals them by
// itself once both players have committed.
//
//   node seeds.mjs <page url> <match> <player code> <plain chess match>
//   → "COMMITTED <the page's seed line>"
//   ← "GO"                                 the other player has committed (through the API)
//   → "REVEALED <the page's seed line>"
//   → "DUE <the page's deadline line>"     who has not revealed, and by when
//   ← "LATE"                               the server's time is past the deadline
//   → "OVERDUE <the page's deadline line>"
//   ← "EXTENDED"                           the director gave more time (a ruling)
//   → "EXTENDED <deadline line> | <newest event> | <the first deadline's event>"
//   → "CHESS verify <n> seeds <n>"         a plain chess match of the same server-dice
//                                           tournament: how many dice lines and seed
//                                           panels its live view shows (it draws nothing)

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, match, code, chessMatch] = process.argv.slice(2);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  const seeds = page.locator(".live .seeds > p:first-child");
  await seeds.waitFor();
  await page.locator(".live .seeds input").fill(code);
  await page.locator(".live .seeds button").click();
  await seeds.filter({ hasText: "seed committed" }).waitFor();
  say(`COMMITTED ${await seeds.textContent()}`);
  await page.reload();
  await seeds.waitFor();
  if ((await lines.next()).value !== "GO") throw new Error("expected GO");
  await seeds.filter({ hasText: "Anna: seed revealed" }).waitFor();
  say(`REVEALED ${await seeds.textContent()}`);
  const due = page.locator(".live .seeds .due");
  await due.waitFor();
  say(`DUE ${await due.textContent()}`);
  if ((await lines.next()).value !== "LATE") throw new Error("expected LATE");
  await due.filter({ hasText: "overdue" }).waitFor();
  say(`OVERDUE ${await due.textContent()}`);
  if ((await lines.next()).value !== "EXTENDED") throw new Error("expected EXTENDED");
  await due.filter({ hasNotText: "overdue" }).waitFor();
  const events = page.locator(".live .events li");
  const first = events.filter({ hasText: "to be revealed by" });
  say(`EXTENDED ${await due.textContent()} | ${await events.first().textContent()} | ${await first.textContent()}`);
  await page.goto(`${url}/#/m/${encodeURIComponent(chessMatch)}`);
  await page.locator(`.live[data-match="${chessMatch}"] .events`).waitFor();
  const count = (what) => page.locator(`.live[data-match="${chessMatch}"] ${what}`).count();
  say(`CHESS verify ${await count(".verify")} seeds ${await count(".seeds")}`);
} finally {
  await browser.close();
  input.close();
}
