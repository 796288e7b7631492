// Drives a real headless Chromium at the live view of a match that records moves, for
// tests/tests/web_page.rs (issue 23): the page draws the board and follows a move.
//
//   node board.mjs <page url> <match> [screenshot path]
//   → "BOARD <pips line> | <A's checkers drawn> <B's checkers drawn>"
//   ← "GO"                                   the test has moved 8/5 6/5 through the API
//   → "MOVED <pips line> | <A's checkers drawn on his 5 point>"
//   → "TURNED <viewer> | <the bottom-right point's number>"   after a tap on "turn"
//   → "MAT <the first numbered line of the page's .mat export>"

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, match, screenshot] = process.argv.slice(2);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");

async function until(check, what) {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  const board = page.locator("svg.board");
  await board.waitFor();
  const pips = page.locator(".board-panel .pips");
  const drawn = async (cls, point) =>
    board.locator(`circle.ck.${cls}${point ? `[data-point="${point}"]` : ""}`).count();
  // Read once, before saying it: the test moves as soon as it reads BOARD, and the page
  // may follow the move before a second read.
  const before = await pips.textContent();
  say(`BOARD ${before} | ${await drawn("a")} ${await drawn("b")}`);
  if ((await lines.next()).value !== "GO") throw new Error("expected GO");
  await until(async () => (await pips.textContent()) !== before, "the move");
  say(`MOVED ${await pips.textContent()} | ${await drawn("a", "5")}`);
  if (screenshot) await page.locator(".board-panel").screenshot({ path: screenshot });
  await page.locator(".board-panel button.flip").click();
  await until(async () => (await page.locator("svg.board").getAttribute("data-viewer")) === "b", "the turn");
  // The bottom-right point is the viewer's 1 point; its checkers are now B's.
  const bottomRight = await page.locator("svg.board text.num").nth(0).textContent();
  say(`TURNED b | ${bottomRight} ${await page.locator('svg.board circle.ck.b[data-point="6"]').count()}`);
  const mat = await page.evaluate((id) => window.baffleExport(id, "mat"), match);
  say(`MAT ${mat.split("\n").find((l) => l.includes("1)")).trim()}`);
} finally {
  await browser.close();
}
