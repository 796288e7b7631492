// A tournament's draw on the phone page, the wall and paper, for
// tests/tests/web_page/draw.rs, which owns the server and decides the matches.
//
//   node draw.mjs <page url> <tournament> <search query> <round robin> [screenshot folder]
//   → "ROUND1 <boxes> | <a v b; …>"         the main draw's first round, top to bottom
//   → "FLIGHTS <letters> | rounds <n …>"      each flight and its rounds (columns)
//   → "WINNER M1-1 <name> | M1-2 <name>"      the winners highlighted
//   → "NEXT M2-1 <a> v <b> | <link>"          round 2's match, linked to its live view
//   → "FITS <page width> | bracket scrolls <bool>"  the page no wider than the phone
//   ← "GO"                                    M1-3 was decided through the API
//   → "LIVE M1-3 <winner>"                    … and the page shows it by itself
//   → "PATH <name> | <key words / …>"         the search: a player's path
//   → "PROOF <commitment> | <seed>"           the proof's commitment and seed
//   → "LINK <href>"                           the tournament's view links to the draw
//   → "EL <view link> | <flights>"            the same in Greek
//   → "WALL <round 1 boxes> | <type px>"      the wall's draw at 1920 × 1080
//   → "PRINT <what> | <PDF title> | pages <n> | …"  each print page, printed to PDF
//   → "STANDINGS <place name played W–L; …> | rounds <n>"  the round robin's table
//
// Screenshots of the bracket at 390 × 844, English and Greek, into the folder if given.

import { launch } from "./chromium.mjs";
import { createInterface } from "node:readline";

const [url, tournament, query, robin, shots] = process.argv.slice(2);
const input = createInterface({ input: process.stdin });
const lines = input[Symbol.asyncIterator]();
const say = (line) => process.stdout.write(line + "\n");
const t = encodeURIComponent(tournament);

// A PDF's pages and its /Title (Chromium writes the document's title there, as a
// string or as UTF-16 in hex).
function pdfFacts(buffer) {
  const text = buffer.toString("latin1");
  const pages = (text.match(/\/Type\s*\/Page(?![s\w])/g) || []).length;
  let title = "";
  const hex = /\/Title\s*<([0-9A-Fa-f]+)>/.exec(text);
  const plain = /\/Title\s*\(((?:\\.|[^\\)])*)\)/.exec(text);
  if (hex) {
    const bytes = Buffer.from(hex[1], "hex");
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      for (let i = 2; i + 1 < bytes.length; i += 2) title += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
    } else title = bytes.toString("latin1");
  } else if (plain) {
    const raw = plain[1].replace(/\\([()\\])/g, "$1");
    const bytes = Buffer.from(raw, "latin1");
    if (bytes[0] === 0xfe && bytes[1] === 0xff) {
      title = "";
      for (let i = 2; i + 1 < bytes.length; i += 2) title += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
    } else title = raw;
  }
  return { pages, title };
}

const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: { "Accept-Language": "en" } });
  const page = await context.newPage();
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.on("pageerror", (e) => process.stderr.write(`page error: ${e.message}\n`));
  page.setDefaultTimeout(15_000);
  await page.addInitScript(() => { if (!localStorage.getItem("baffle-lang")) localStorage.setItem("baffle-lang", "en"); });
  await page.goto(`${url}/#/d/${t}`);
  const main = page.locator('section.flight[data-flight="M"]');
  await main.locator('.column[data-round="1"] .match').first().waitFor();
  const round1 = main.locator('.column[data-round="1"] .match');
  const names = await round1.evaluateAll((all) => all.map((m) =>
    [...m.querySelectorAll(".who .name")].map((n) => n.textContent).join(" v ")));
  say(`ROUND1 ${names.length} | ${names.join("; ")}`);
  const flights = await page.locator("section.flight").evaluateAll((all) => all.map((f) =>
    [f.dataset.flight, f.querySelectorAll(".column").length]));
  say(`FLIGHTS ${flights.map((f) => f[0]).join(" ")} | rounds ${flights.map((f) => f[1]).join(" ")}`);
  const winner = (key) => main.locator(`.match[data-key="${key}"] .who.win .name`).textContent();
  say(`WINNER M1-1 ${await winner("M1-1")} | M1-2 ${await winner("M1-2")}`);
  const next = main.locator('a.match[data-key="M2-1"]');
  await next.waitFor();
  const nextNames = await next.locator(".who .name").allTextContents();
  say(`NEXT M2-1 ${nextNames.join(" v ")} | ${await next.getAttribute("href")}`);
  const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
  const scrolls = await main.locator(".bracket-box").evaluate((b) => b.scrollWidth > b.clientWidth);
  say(`FITS ${width} | bracket scrolls ${scrolls}`);
  if (shots) await page.screenshot({ path: `${shots}/web-phone-en-draw.png` });

  if ((await lines.next()).value !== "GO") throw new Error("expected GO");
  await main.locator('.match[data-key="M1-3"] .who.win').waitFor();
  say(`LIVE M1-3 ${await winner("M1-3")}`);

  await page.locator("form.search input").fill(query);
  const path = page.locator(".paths .path").first();
  await path.waitFor();
  const steps = await path.locator("li").allTextContents();
  say(`PATH ${await path.locator("h3").textContent()} | ${steps.join(" / ")}`);
  const proof = await page.locator(".proof p").allTextContents();
  const commitment = /: ([0-9a-f]{64})$/.exec(proof[0]);
  const seed = /: ([0-9a-f]{64})$/.exec(proof[1]);
  say(`PROOF ${commitment && commitment[1]} | ${seed && seed[1]}`);

  await page.goto(`${url}/#/t/${t}`);
  const link = page.locator("a.draw-link:not([hidden])");
  await link.waitFor();
  say(`LINK ${await link.getAttribute("href")}`);

  await page.goto(`${url}/#/d/${t}`);
  await page.selectOption("#lang", "el");
  await page.waitForFunction(() => document.querySelector("section.flight h2")?.textContent.startsWith("Κύριο"));
  await main.locator('.match[data-key="M1-3"] .who.win').waitFor();
  const elFlights = await page.locator("section.flight > h2").allTextContents();
  say(`EL ${await page.locator("nav.views a[aria-current]").textContent()} | ${elFlights.join(" | ")}`);
  if (shots) await page.screenshot({ path: `${shots}/web-phone-el-draw.png` });
  await page.selectOption("#lang", "en");

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`${url}/#/wd/${t}`);
  // Only a hash change: the phone view's bracket is still there until the wall's view
  // replaces it (then empty until its WatchDraw answers), so wait for the wall first.
  await page.waitForFunction(() => document.body.classList.contains("wall-draw"));
  await main.locator('.column[data-round="1"] .match').first().waitFor();
  const wallBoxes = await main.locator('.column[data-round="1"] .match').count();
  const px = await main.locator(".match .who .name").first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  say(`WALL ${wallBoxes} | ${px >= 20 ? "20+" : px}`);
  if (shots) await page.screenshot({ path: `${shots}/web-wall-en-draw.png`, scale: "css" });

  await page.setViewportSize({ width: 794, height: 1123 });
  for (const what of ["draw", "scoresheets", "results"]) {
    await page.goto(`${url}/#/print/${t}/${what}`);
    await page.waitForFunction((w) => document.getElementById("view").dataset.printed === w, what);
    await page.emulateMedia({ media: "print" });
    const chrome = await page.locator("body > header").isVisible();
    const pdf = await page.pdf({ format: "A4", printBackground: true });
    if (shots && what === "scoresheets") await page.screenshot({ path: `${shots}/web-print-en-scoresheets.png`, clip: { x: 0, y: 0, width: 794, height: 1123 } });
    await page.emulateMedia({ media: "screen" });
    const facts = pdfFacts(pdf);
    let extra = "";
    if (what === "scoresheets") extra = ` | sheets ${(await page.locator(".sheet").evaluateAll((all) => all.map((s) => s.dataset.key))).join(" ")}`;
    if (what === "results") extra = ` | decided ${(await page.locator("table.results tbody tr[data-key]").evaluateAll((all) => all.map((r) => r.dataset.key))).join(" ")}`;
    if (chrome) extra += " | CHROME SHOWN IN PRINT";
    say(`PRINT ${what} | ${facts.title} | pages ${facts.pages}${extra}`);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}/#/d/${encodeURIComponent(robin)}`);
  await page.locator("table.standings tbody tr").first().waitFor();
  const rows = await page.locator("table.standings tbody tr").evaluateAll((all) => all.map((r) =>
    [...r.cells].slice(0, 4).map((c) => c.textContent).join(" ")));
  say(`STANDINGS ${rows.join("; ")} | rounds ${await page.locator("section.pairings").count()}`);
} finally {
  await browser.close();
  input.close();
}
