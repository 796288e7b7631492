// Drives a real headless Chromium at a match's live view, for tests/tests/web_page/dice.rs:
// the page must recompute every server roll itself, of either construction.
//
//   node verify.mjs <page url> <match> [--live] [log path …]
//   → "OVER <the page's dice line>"       with --live: the match is over, its seed not
//   ← "GO"                                 yet revealed; the test then confirms the result
//   → "VERIFIED <the page's dice line>"   once the page has checked the revealed dice
//   → "LOG <verdict as JSON>"             the page's verifier on each log given, in order
//   → "VECTORS <name=value …>"            docs/dice.md's construction-2 vectors (7-11),
//                                          as the page's own pieces compute them

import { launch } from "./chromium.mjs";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const [url, match, ...rest] = process.argv.slice(2);
const live = rest[0] === "--live";
const logs = live ? rest.slice(1) : rest;
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  const line = page.locator(".live .verify");
  if (live) {
    await line.filter({ hasText: "checked after the match" }).waitFor();
    say(`OVER ${await line.textContent()}`);
    const input = createInterface({ input: process.stdin });
    const next = await input[Symbol.asyncIterator]().next();
    input.close();
    if (next.value !== "GO") throw new Error("expected GO");
  }
  await line.filter({ hasText: /verified|VERIFIED/ }).waitFor();
  say(`VERIFIED ${await line.textContent()}`);
  for (const path of logs) {
    const verdict = await page.evaluate((text) => window.baffleVerify(text), readFileSync(path, "utf8"));
    say(`LOG ${JSON.stringify(verdict)}`);
  }
  say(`VECTORS ${await page.evaluate(vectors)}`);
} finally {
  await browser.close();
}

// Vectors 7-11 of docs/dice.md, run in the page with its own key, streams and draws.
async function vectors() {
  const d = window.baffleDice;
  const hex = (n, width) => n.toString(16).padStart(width, "0");
  const server = Array.from({ length: 32 }, (_, i) => hex(i, 2)).join("");
  const id = "baffle-test-vector-7";
  const key = await d.key(2, id, server, "0a".repeat(32), "0b".repeat(32));
  const at = (kind, side, game, roll) => d.stream(key, hex(kind, 2) + hex(side, 2) + hex(game, 4) + hex(roll, 8));
  const first = at(1, 0, 1, 0);
  const words = [first.word(), first.word(), first.word(), first.word()].join(",");
  const rolls = (side) => [1, 2, 3].map((n) => d.drawRoll(at(2, side, 1, n))).join(",");
  const rollWords = (side) => { const s = at(2, side, 1, 1); return `${s.word()},${s.word()}`; };
  const bytes = new Uint8Array(server.match(/../g).map((b) => parseInt(b, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const commitment = Array.from(digest, (b) => hex(b, 2)).join("");
  return [
    `commitment=${commitment}`, `key=${key}`,
    `opening1=${d.drawOpening(at(1, 0, 1, 0))}`.replace(" ", "/"), `words=${words}`,
    `opening2=${d.drawOpening(at(1, 0, 2, 0))}`,
    `rollsA=${rolls(1)}`, `wordsA=${rollWords(1)}`, `rollsB=${rolls(2)}`, `wordsB=${rollWords(2)}`,
    `sp=${d.drawChess960(at(3, 0, 0, 0))}`,
    `commitA=${await d.commitment(commitment, id, "A", "5a".repeat(32), "0a".repeat(32))}`,
    `commitB=${await d.commitment(commitment, id, "B", "5b".repeat(32), "0b".repeat(32))}`,
  ].join(" ");
}
