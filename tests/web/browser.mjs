// Drives a real headless Chromium at the phone page, for tests/tests/web_page.rs, which
// owns the server and makes the moves. They talk over stdin/stdout, a line at a time:
//
//   node browser.mjs <page url> <tournament> <match> <chess match> [screenshot path prefix]
//   → "SEEN <score> | <clock A>"     the match is on the tournament page
//   → "CHESS <score> | <tags>"       so is the chess match, as chess (tags joined by " / ")
//   → "ELCHESS <tags>"               its tags in Greek (the reader switches, and back)
//   ← "GO"                           the test has pressed and scored through the API
//   → "SCORE <score>"                the page shows the new score
//   → "CLOCK <clock A>"              … and A's clock where the press stopped it
//   → "LIVE <big clock A>"           the match's live view, after a tap on its card
//   → "SIGNED <head line> | <its signer> | kept <heads kept here > 0>"  the head's signature,
//                                    checked by WebCrypto and kept in localStorage
//   ← "TWIN <a signed head>"         the test signed another head at the length shown
//   → "FORGED <verdict>"             that head with its signature altered
//   → "TWINSEEN <verdict>"           that head as signed: a second history
//   ← "AGAIN"                        the server was restarted and the score changed
//   → "RESUMED <score>"              the page reconnected by itself and shows it
//   → "DONE"
//
// Chromium is Debian's (/usr/bin/chromium, or $CHROMIUM); playwright-core never downloads
// a browser of its own.

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, tournament, match, chessMatch, screenshot] = process.argv.slice(2);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");

// Polls `check` every 100 ms for up to 15 s.
async function until(check, what) {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/#/t/${encodeURIComponent(tournament)}`);
  const card = page.locator(`a.card[data-match="${match}"]`);
  const score = card.locator(".score");
  const clockA = card.locator(`[data-clock="${match} a"]`);
  await card.waitFor();
  await until(async () => /\d/.test(await clockA.textContent()), "the clocks");
  const before = { score: await score.textContent(), clock: await clockA.textContent() };
  say(`SEEN ${before.score} | ${before.clock}`);
  const chess = page.locator(`a.card[data-match="${chessMatch}"]`);
  await chess.waitFor();
  const chessTags = await chess.locator(".tag").allTextContents();
  say(`CHESS ${await chess.locator(".score").textContent()} | ${chessTags.join(" / ")}`);
  await page.selectOption("#lang", "el");
  await until(async () => (await chess.locator(".tag").first().textContent()).startsWith("παρτίδα"), "Greek");
  say(`ELCHESS ${(await chess.locator(".tag").allTextContents()).join(" / ")}`);
  await page.selectOption("#lang", "en");
  await until(async () => (await chess.locator(".tag").first().textContent()).startsWith("game"), "English again");

  if ((await lines.next()).value !== "GO") throw new Error("expected GO");
  await until(async () => (await score.textContent()) !== before.score, "the new score");
  say(`SCORE ${await score.textContent()}`);
  // A's clock stopped at the press: it shows a fixed value different from before.
  await until(async () => {
    const running = await clockA.evaluate((e) => e.closest(".row").classList.contains("run"));
    return !running && (await clockA.textContent()) !== before.clock;
  }, "A's clock to stop at its new time");
  say(`CLOCK ${await clockA.textContent()}`);

  if (screenshot) await page.screenshot({ path: `${screenshot}-board.png` });
  await card.click();
  const big = page.locator(`.live [data-clock="${match} a"]`);
  await big.waitFor();
  await until(async () => /\d/.test(await big.textContent()), "the live view's clocks");
  say(`LIVE ${await big.textContent()}`);
  const heads = page.locator(".live p.heads");
  await until(async () => (await heads.textContent()).startsWith("head signed by"), "the head's signature checked");
  const kept = await page.evaluate((m) => JSON.parse(localStorage.getItem(`baffle-heads:${m}`) || "[]").length, match);
  say(`SIGNED ${await heads.textContent()} | ${await heads.getAttribute("data-signer")} | kept ${kept > 0}`);
  const twinLine = (await lines.next()).value || "";
  if (!twinLine.startsWith("TWIN ")) throw new Error(`expected TWIN, got ${twinLine}`);
  const twin = JSON.parse(twinLine.slice(5));
  const verdictOf = (h) => page.evaluate((h) => import("/heads.js").then((m) => new Promise((done) => {
    const s = { match_id: h.match_id, seq: h.length, head_hash: h.head, signed_head: h };
    m.checkHead(s, () => done(m.headVerdicts.get(h.match_id)[0]));
  })), h);
  const altered = twin.signature[0] === "0" ? "1" : "0";
  say(`FORGED ${await verdictOf({ ...twin, signature: altered + twin.signature.slice(1) })}`);
  say(`TWINSEEN ${await verdictOf(twin)}`);
  if (screenshot) await page.screenshot({ path: `${screenshot}-live.png` });

  // The server restarts; the page must reconnect by itself and resume the match.
  const liveScore = page.locator(".live .score");
  const seenScore = await liveScore.textContent();
  if ((await lines.next()).value !== "AGAIN") throw new Error("expected AGAIN");
  await until(async () => (await liveScore.textContent()) !== seenScore, "the score after the restart");
  await until(async () => (await page.locator("#status").textContent()) === "live", "live again");
  say(`RESUMED ${await liveScore.textContent()}`);
  say("DONE");
} finally {
  await browser.close();
  input.close();
}
