// Drives two headless Chromium pages, one per player, through a match with live dice, for
// tests/tests/web_page/live.rs. Each page is its own browser context (its own
// localStorage, as two phones): the player types his code, the page commits his chain and
// then gives his links by itself. The test (Rust) drives the match through the API and
// tells this script which button to click on whose page.
//
//   node live.mjs <page url> <match> <code A> <code B>
//   → "VECTORS <json>"              docs/dice.md vectors 12–15 from the page's own pieces
//   → "COMMITTED <A's panel> | <B's panel> | <A's anchor> | <B's anchor>"
//   then, in any order:
//   ← "CLICK <A|B> <play>"           a button of that player's page (roll, press, …)
//   → "CLICKED <A|B> <play>"
//   ← "AWAY <A|B>" / "BACK <A|B>"    that page closed (its context, and storage, kept) /
//   → "AWAY <A|B>" / "BACK <A|B>"    opened again: it resumes from its storage
//   ← "WAITING <A|B> <name>"         → "WAITING <that page's waiting line>", once the
//                                      line no longer names <name> (whose link is in)
//   ← "OVER"                         the result is confirmed: the seed is revealed
//   → "VERIFIED <A's dice line>"
//   ← "FORGED <log as a JSON string>" → "FORGED <window.baffleVerify's answer, JSON>"
//   ← "END"

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, match, codeA, codeB] = process.argv.slice(2);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");
const next = async () => (await lines.next()).value;
const expect = async (what) => { const got = await next(); if (got !== what) throw new Error(`expected ${what}, got ${got}`); };

const browser = await launch();
try {
  const contexts = { A: await browser.newContext(), B: await browser.newContext() };
  const pages = {};
  const open = async (side) => {
    const page = await contexts[side].newPage({ viewport: { width: 390, height: 844 } });
    page.on("console", (m) => process.stderr.write(`page ${side}: ${m.text()}\n`));
    page.on("pageerror", (e) => process.stderr.write(`page ${side} error: ${e.message}\n`));
    page.setDefaultTimeout(20_000);
    await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
    await page.locator(".live .live-dice").waitFor();
    pages[side] = page;
    return page;
  };
  for (const side of ["A", "B"]) await open(side);

  // Vectors 12–15 (docs/dice.md "Test vectors / Live dice"), by the pieces the verifier uses.
  const vectors = await pages.A.evaluate(async () => {
    const d = window.baffleDice;
    const server = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, "0")).join("");
    const bytes = new Uint8Array(32).map((_, i) => i);
    const commitment = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
      (x) => x.toString(16).padStart(2, "0")).join("");
    const id = "baffle-live-vector";
    const chain = async (side, tip) => {
      const links = [tip.repeat(32)];
      for (let i = 0; i < 8; i++) links.unshift(await d.liveStep(commitment, id, side, links[0]));
      return links; // links[i] is link i
    };
    const a = await chain("A", "a1"), b = await chain("B", "b2");
    const key = await d.key(2, id, server, "", "");
    const opening = d.drawOpening(d.stream(await d.liveKey(key, a[1], b[1]), "0100000100000000"));
    const roll = d.drawRoll(d.stream(await d.liveKey(key, a[2], b[2]), "0201000100000001"));
    return { anchors: [a[0], b[0]], first: [a[1], b[1]], opening, roll };
  });
  say(`VECTORS ${JSON.stringify(vectors)}`);

  const codes = { A: codeA, B: codeB };
  for (const side of ["A", "B"]) {
    await pages[side].locator(".live .live-dice input").fill(codes[side]);
    await pages[side].locator(".live .live-dice button[type=submit]").click();
    await pages[side].locator(`.live .plays[data-side="${side}"]`).waitFor();
  }
  // Both chains as each page shows them, once both are committed.
  const panel = (side) => pages[side].locator(".live .live-dice > p:first-child");
  for (const side of ["A", "B"]) await panel(side).filter({ hasNotText: "no chain" }).waitFor();
  const anchor = (side) => pages[side].locator(".live .live-dice .anchor");
  say(`COMMITTED ${await panel("A").textContent()} | ${await panel("B").textContent()} | ${await anchor("A").getAttribute("title")} | ${await anchor("B").getAttribute("title")}`);

  for (;;) {
    const line = await next();
    if (line === "OVER") break;
    const [word, side, play, ...rest] = line.split(" ");
    if (word === "CLICK") {
      await pages[side].locator(`.live .plays[data-side="${side}"] button[data-play="${play}"]`).click();
      say(`CLICKED ${side} ${play}`);
    } else if (word === "AWAY") {
      await pages[side].close();
      say(line);
    } else if (word === "BACK") {
      await open(side);
      await pages[side].locator(`.live .plays[data-side="${side}"]`).waitFor();
      say(line);
    } else if (word === "WAITING") {
      const given = [play, ...rest].join(" ");
      const waiting = pages[side].locator(".live .live-dice .waiting").filter({ hasNotText: given });
      await waiting.waitFor();
      say(`WAITING ${await waiting.textContent()}`);
    } else throw new Error(`unexpected ${line}`);
  }
  const verified = pages.A.locator(".live .verify").filter({ hasText: /in this browser|NOT VERIFIED/ });
  await verified.waitFor();
  say(`VERIFIED ${await verified.textContent()}`);
  for (;;) {
    const line = await next();
    if (line === "END") break;
    if (!line.startsWith("FORGED ")) throw new Error(`unexpected ${line}`);
    const log = JSON.parse(line.slice(7));
    say(`FORGED ${JSON.stringify(await pages.A.evaluate((text) => window.baffleVerify(text), log))}`);
  }
} finally {
  await browser.close();
  input.close();
}
