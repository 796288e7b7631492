// Issue 31, points 15 and 16: the board of a match live, at 1280 × 800 — its point numbers
// clear of every checker, the cube drawn as its chip says, the dice of the turn drawn, a
// legend of whose colour is which, the board whole above the fold, the actions readable
// (WCAG AA) and 48 px to a thumb; then its words in Greek. For tests/tests/web_page/issue31.rs.
//
//   node board31.mjs <page url> <match> [screenshot path]
//   → "NUMBERS <numbers drawn> <numbers under a checker>"
//   → "CUBE <the drawn cube's face> | <the chip>"
//   → "DICE <the dice drawn>"
//   → "LEGEND <each entry = true if its swatch is its checkers' colour>"
//   → "FOLD <top> <bottom> of 800 | <height>"
//   → "ACTIONS <each action: its text, contrast ≥ 4.5, ≥ 48 × 48>"
//   → "EL <pips> | <turn button> | <downloads> | <cube chip> | <award tag>"
//   → "ENGLISH LEFT <the English words left in the Greek panel>"

import { launch, servePageFiles } from "./chromium.mjs";

const [url, match, screenshot] = process.argv.slice(2);
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await servePageFiles(page);
  await page.addInitScript(() => { if (!localStorage.getItem("baffle-lang")) localStorage.setItem("baffle-lang", "en"); });
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  const board = page.locator("svg.board");
  await board.waitFor();

  const numbers = await board.evaluate((svg) => {
    const boxes = [...svg.querySelectorAll("circle.ck")].map((c) => c.getBoundingClientRect());
    const nums = [...svg.querySelectorAll("text.num")];
    const under = nums.filter((n) => {
      const r = n.getBoundingClientRect();
      return boxes.some((b) => r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom);
    });
    return `${nums.length} ${under.map((n) => n.textContent).join(",") || "none"}`;
  });
  say(`NUMBERS ${numbers}`);

  const face = await board.locator(".cube-drawn text").textContent();
  const chip = await page.locator(".live .mid .tag.cube").textContent();
  say(`CUBE ${face} | ${chip}`);

  const dice = await board.locator("g.die").evaluateAll((all) => all.map((d) => d.dataset.value));
  say(`DICE ${dice.join(",")}`);

  const legend = await page.locator(".board-panel .legend > span").evaluateAll((all) => all.map((entry) => {
    const side = entry.dataset.side;
    const swatch = getComputedStyle(entry.querySelector(".swatch")).backgroundColor;
    const checker = document.querySelector(`svg.board circle.ck.${side}`);
    return `${entry.textContent}=${checker && getComputedStyle(checker).fill === swatch}`;
  }));
  say(`LEGEND ${legend.join(" | ")}`);

  const box = await board.boundingBox();
  say(`FOLD ${box.y >= 0 && box.y + box.height <= 800 ? "within" : "below"} of 800 | ${box.height >= 300 ? "300+" : Math.round(box.height)}`);

  // WCAG's contrast of each action's text on its own background (or the page's).
  const actions = await page.locator(".board-panel button, .board-panel a").evaluateAll((all) => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (e) => {
      for (; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c && c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
      }
      return "rgb(255, 255, 255)";
    };
    return all.map((a) => {
      const [x, y] = [lum(rgb(getComputedStyle(a).color)), lum(rgb(background(a)))];
      const ratio = (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
      const r = a.getBoundingClientRect();
      return `${a.textContent} ${ratio >= 4.5 ? "AA" : ratio.toFixed(2)} ${r.width >= 48 && r.height >= 48 ? "48+" : `${Math.round(r.width)}x${Math.round(r.height)}`}`;
    });
  });
  say(`ACTIONS ${actions.join(" | ")}`);
  if (screenshot) await page.screenshot({ path: screenshot });

  await page.selectOption("#lang", "el");
  const pips = page.locator(".board-panel .pips");
  await page.waitForFunction(() => document.documentElement.lang === "el" && !/pips/.test(document.querySelector(".board-panel .pips")?.textContent || "pips"));
  const award = await page.locator(".live .mid .tag.award").allTextContents();
  say(`EL ${await pips.textContent()} | ${await page.locator(".board-panel button.flip").textContent()} | ${
    (await page.locator(".board-panel a.download").allTextContents()).join(" ")} | ${
    await page.locator(".live .mid .tag.cube").textContent()} | ${award.join(" / ")}`);
  const text = await page.locator(".board-panel").evaluate((p) => p.textContent + " " + [...p.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label")).join(" "));
  const english = ["pips", "seen by", "turn", "download", " off", "checkers", "cube", "dice"].filter((w) => text.includes(w));
  say(`ENGLISH LEFT ${english.join(",") || "none"}`);
} finally {
  await browser.close();
}
