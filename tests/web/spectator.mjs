// Drives a real headless Chromium through what a spectator does (issue 20), for
// tests/tests/web_page/spectator.rs, which owns the server and makes the changes. Lines:
//
//   node spectator.mjs <url> <screenshot dir or ""> <a refusal the server gave>
//   → "HOME <html lang> | <tournament names> | <the gbf card's venue and days> | <its details>"
//   → "ARCHIVED <title of #/t/old> | <of #/r/old> | <of #/w/old>"   an archived tournament by id
//   → "SEARCH <said> | <match ids found>"              a search for "anna", across tournaments
//   → "STATE <match> <state words> | <tags>"           one per match of the tournament "gbf"
//   → "LONG <name as shown> <fits>"                    a long name, whole and inside its card
//   → "AWARD <m1's penalty point tag's classes> | <its background>"
//   ← "PAUSE <n> <expected words>"  → "PAUSED <n> <the card's pause tag>"   per PauseReason
//   ← "LIVE"  → "ENPAUSE <n>=<words>;…" (every PauseReason)  → "REFUSAL <words>"  → "EVENTS <the live view's event words, joined by |>"
//   ← "GO"   (the test has changed the score)  → "ANNOUNCED <the polite announcement>"
//   ← "RENAME" (the test renamed Ben and back)  → "RENAMED <each rename's time> | <the award's>"
//   → "RESULTS <table:winner:status, …>"
//   → "WORDS <words broken inside, or none> <the page no wider than the phone>"   the results
//   → "AXE <view> <serious and critical violations>"  for each view audited
//   → "SWITCHED <html lang> <a word of the page>" → "REMEMBERED <html lang>"
//   → "ELWORDS <as WORDS, the results in Greek>"
//   → "PLURALS <en 1 roll> | <en 4> | <el 1> | <el 4>"   the page's words for verified rolls
//   → "EL <html lang> | <m1's state> | <m1's tags>"    a Greek reader (Accept-Language el)
//   → "ELPAUSE <n>=<words>;…"        the Greek page's words for every PauseReason
//   → "ELREFUSAL <the refusal, its article in Greek>"
//   → "ELEVENTS <event words>"
//   → "ELRENAMED <each rename's time>"   seen before the page opened: "after" the award's
//   → "WALL <cards> <name px> <clock px> <fits the screen>"   1920 × 1080
//   ← "WALLGO" → "WALLLIVE <the changed card's score>"
//   → "ERRORS <answers of 400 or more and console errors, or none>"
//   → "DONE"

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";

const [url, shots, refused] = process.argv.slice(2);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

async function expect(word) {
  const line = (await lines.next()).value || "";
  if (!line.startsWith(word)) throw new Error(`expected ${word}, got ${line}`);
  return line;
}

async function until(check, what) {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// axe-core through the same Chromium: the serious and critical violations, by rule.
async function audit(page, name) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}(${v.nodes.length}): ${v.nodes[0].target.join(" ")}`);
  });
  say(`AXE ${name} ${found.length}${found.length ? " " + found.join("; ") : ""}`);
}

// The words of the results table broken inside (a word's letters on two lines); a name
// may wrap between its words, and after a hyphen. And whether the page is no wider than
// the screen (a wide table scrolls in its own box).
async function wholeWords(page) {
  return page.evaluate(() => {
    const broken = [];
    for (const cell of document.querySelectorAll("table.results th, table.results td")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.data.matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    const fits = document.documentElement.scrollWidth <= window.innerWidth;
    return `${broken.length ? broken.join(",") : "none"} ${fits}`;
  });
}

// What went wrong in any page: answers of 400 or more, console errors.
const errors = [];
function watch(context) {
  context.on("response", (r) => { if (r.status() >= 400) errors.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  context.on("console", (m) => { if (m.type() === "error") errors.push(`console: ${m.text()}`); });
}

const shot = async (page, name) => { if (shots) await page.screenshot({ path: `${shots}/web-${name}.png` }); };
const text = async (loc) => (await loc.textContent()).trim();

const browser = await launch();
try {
  // An English reader on a phone.
  const en = await browser.newContext({ locale: "en-US", viewport: { width: 390, height: 844 } });
  watch(en);
  const page = await en.newPage();
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/`);
  const gbf = page.locator('a.card[data-tournament="gbf"]');
  await gbf.waitFor();
  await page.locator('a.card[data-tournament="club"]').waitFor();
  const names = await page.locator("a.card.tournament h2").allTextContents();
  say(`HOME ${await page.evaluate(() => document.documentElement.lang)} | ${names.join(" / ")} | ${await text(gbf.locator(".meta.held"))} | ${await text(gbf.locator(".meta:not(.held)"))}`);
  await audit(page, "home");
  await shot(page, "phone-en-home");

  // An archived tournament is not on the list, but opened by its id it has its name.
  const titles = [];
  for (const view of ["t", "r", "w"]) {
    await page.goto(`${url}/#/${view}/old`);
    await until(async () => (await text(page.locator("#title"))).includes("old open"), `the name on #/${view}/old`);
    titles.push(await text(page.locator("#title")));
  }
  say(`ARCHIVED ${titles.join(" | ")}`);
  await page.goto(`${url}/`);
  await gbf.waitFor();

  await page.locator("form.search input").fill("anna");
  await page.locator("form.search button").click();
  const found = page.locator("main a.card[data-match]");
  await until(async () => (await found.count()) >= 1, "the search");
  const ids = await found.evaluateAll((cards) => cards.map((c) => c.dataset.match).sort());
  say(`SEARCH ${await text(page.locator("main p[role=status]"))} | ${ids.join(" ")}`);

  await page.goto(`${url}/#/t/gbf`);
  const cards = page.locator("a.card[data-match]");
  await until(async () => (await cards.count()) === 7, "seven matches");
  for (const id of ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]) {
    const c = page.locator(`a.card[data-match="${id}"]`);
    say(`STATE ${id} ${await text(c.locator(".state"))} | ${(await c.locator(".tag").allTextContents()).join(" / ")}`);
  }
  const long = page.locator('a.card[data-match="m2"] .row .name').first();
  const fits = await long.evaluate((e) => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= e.closest(".card").getBoundingClientRect().right);
  say(`LONG ${await text(long)} ${fits}`);
  const award = page.locator('a.card[data-match="m1"] .tag', { hasText: "penalty point" }).first();
  say(`AWARD ${await award.getAttribute("class")} | ${await award.evaluate((e) => getComputedStyle(e).backgroundColor)}`);
  await audit(page, "tournament");
  await shot(page, "phone-en-tournament");

  // Every PauseReason the test can bring about, as the card says it.
  for (;;) {
    const line = (await lines.next()).value || "";
    if (line === "LIVE") break;
    const [, n, ...words] = line.split(" ");
    const want = `paused: ${words.join(" ")}`;
    const tag = page.locator('a.card[data-match="m1"] .tag.paused, a.card[data-match="m7"] .tag.paused');
    await until(async () => (await tag.allTextContents()).includes(want), `pause ${n}`);
    say(`PAUSED ${n} ${want}`);
  }

  const words = await page.evaluate(() => Array.from({ length: 9 }, (_, i) => `${i + 1}=${window.baffleWords.enumWords("PauseReason", i + 1)}`));
  say(`ENPAUSE ${words.join(";")}`);
  // A refusal as the page shows it to a player: the article in the reader's language.
  say(`REFUSAL ${await page.evaluate((m) => window.baffleWords.refusal(`${m} (gRPC status 9)`), refused)}`);

  await page.goto(`${url}/#/m/m1`);
  const events = page.locator(".live .events li");
  await until(async () => (await events.count()) >= 5, "the events");
  const said = await page.locator(".live .events li").evaluateAll((li) => li.map((e) => e.lastChild.textContent));
  say(`EVENTS ${said.join(" | ")}`);
  await audit(page, "live");
  await shot(page, "phone-en-live");
  await expect("GO");
  const announcer = page.locator("#announce");
  await until(async () => (await announcer.textContent()).includes("2 – 1"), "the announcement");
  say(`ANNOUNCED ${await announcer.getAttribute("aria-live")} ${await text(announcer)}`);
  // A rename has no time in the log: the page shows when it saw it arrive.
  await expect("RENAME");
  const renames = page.locator(".live .events li", { hasText: "name corrected" });
  await until(async () => (await renames.count()) === 2, "the renames");
  const awarded = page.locator(".live .events li", { hasText: "2 penalty points to Anna" }).locator("time");
  say(`RENAMED ${(await renames.locator("time").allTextContents()).join(" ")} | ${await text(awarded)}`);

  await page.goto(`${url}/#/r/gbf/1`);
  const rows = page.locator("table.results tbody tr");
  await until(async () => (await rows.count()) === 7, "the results");
  const results = await rows.evaluateAll((trs) => trs.map((tr) =>
    `${tr.cells[0].textContent}:${tr.querySelector(".winner").textContent}:${tr.querySelector(".status").textContent}`));
  say(`RESULTS ${results.join(", ")}`);
  say(`WORDS ${await wholeWords(page)}`);
  await audit(page, "results");
  await shot(page, "phone-en-results");

  // The reader switches to Greek; the page remembers it.
  await page.selectOption("#lang", "el");
  await until(async () => (await page.evaluate(() => document.documentElement.lang)) === "el", "Greek");
  await until(async () => (await page.locator("nav.views a").first().textContent()) === "Ματς", "Greek words");
  say(`SWITCHED el ${await page.locator("table.results th").first().textContent()}`);
  await page.reload();
  await page.locator("table.results").waitFor();
  say(`REMEMBERED ${await page.evaluate(() => document.documentElement.lang)}`);
  await until(async () => (await rows.count()) === 7, "the Greek results");
  say(`ELWORDS ${await wholeWords(page)}`);
  await shot(page, "phone-el-results");
  const plurals = [];
  for (const lang of ["en", "el"]) {
    await page.selectOption("#lang", lang);
    await until(async () => (await page.evaluate(() => window.baffleWords.language())) === lang, lang);
    plurals.push(...await page.evaluate(() => [1, 4].map((count) => window.baffleWords.t("dice-verified", { count }))));
  }
  say(`PLURALS ${plurals.join(" | ")}`);
  await en.close();

  // A Greek reader: Accept-Language and navigator.languages say Greek.
  const el = await browser.newContext({ locale: "el-GR", viewport: { width: 390, height: 844 } });
  watch(el);
  const gr = await el.newPage();
  gr.setDefaultTimeout(15_000);
  await gr.goto(`${url}/#/t/gbf`);
  const m1 = gr.locator('a.card[data-match="m1"]');
  await m1.waitFor();
  say(`EL ${await gr.evaluate(() => document.documentElement.lang)} | ${await text(m1.locator(".state"))} | ${(await m1.locator(".tag").allTextContents()).join(" / ")}`);
  const pauses = await gr.evaluate(() => Array.from({ length: 9 }, (_, i) => `${i + 1}=${window.baffleWords.enumWords("PauseReason", i + 1)}`));
  say(`ELPAUSE ${pauses.join(";")}`);
  say(`ELREFUSAL ${await gr.evaluate((m) => window.baffleWords.refusal(m), refused)}`);
  await shot(gr, "phone-el-tournament");
  await gr.goto(`${url}/#/m/m1`);
  const grEvents = gr.locator(".live .events li");
  await until(async () => (await grEvents.count()) >= 5, "the Greek events");
  say(`ELEVENTS ${(await grEvents.evaluateAll((li) => li.map((e) => e.lastChild.textContent))).join(" | ")}`);
  const grRenames = gr.locator(".live .events li", { hasText: "διόρθωση ονόματος" }).locator("time");
  say(`ELRENAMED ${(await grRenames.allTextContents()).join(" | ")}`);
  await audit(gr, "live-el");
  await shot(gr, "phone-el-live");
  await el.close();

  // The wall on a 1080p projector.
  for (const locale of ["en-US", "el-GR"]) {
    const wallContext = await browser.newContext({ locale, viewport: { width: 1920, height: 1080 }, deviceScaleFactor: shots ? 0.5 : 1 });
    watch(wallContext);
    const wall = await wallContext.newPage();
    wall.setDefaultTimeout(15_000);
    await wall.goto(`${url}/#/w/gbf/1`);
    const tables = wall.locator(".wall-grid a.card");
    await until(async () => (await tables.count()) === 7, "the wall");
    await until(async () => /\d/.test(await wall.locator('.wall-grid [data-clock="m1 a"]').textContent()), "the wall's clocks");
    const lang = locale.slice(0, 2);
    await shot(wall, `wall-${lang}`);
    if (lang === "en") {
      const px = async (sel) => parseFloat(await wall.locator(sel).first().evaluate((e) => getComputedStyle(e).fontSize));
      const fitsScreen = await wall.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);
      if (!fitsScreen) process.stderr.write(`wall: ${await wall.evaluate(() => [document.documentElement.scrollHeight, ...[...document.querySelectorAll(".wall-grid .card")].map((c) => c.getBoundingClientRect().height)].join(" "))}\n`);
      say(`WALL ${await tables.count()} ${await px(".wall-grid .row .name")} ${await px(".wall-grid .row .clock")} ${fitsScreen}`);
      // The score before the test changes it, read before the line that lets it go on
      // (AXE): read after, it raced the change and could already be the new one.
      const score = wall.locator('.wall-grid a.card[data-match="m7"] .score');
      const before = await text(score);
      await audit(wall, "wall");
      await expect("WALLGO");
      await until(async () => (await text(score)) !== before, "the wall to follow");
      say(`WALLLIVE ${await text(score)}`);
    }
    await wallContext.close();
  }
  say(`ERRORS ${errors.length ? errors.join("; ") : "none"}`);
  say("DONE");
} finally {
  await browser.close();
  input.close();
}
