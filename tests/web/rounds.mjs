// Issue 31, point 10: a tournament's matches grouped by round, the latest first, and a
// round picker on the results. For tests/tests/web_page/issue31.rs.
//
//   node rounds.mjs <page url> <tournament>
//   → "LIST <round heading>: <tables>; …"    each section of the list, top to bottom
//   → "PICKER <links> | shown <round> | <smallest link height>"   the results' round picker
//   → "PICKED <hash> | <title> | <tables>"  after a tap on the first round's link

import { launch, servePageFiles } from "./chromium.mjs";

const [url, tournament] = process.argv.slice(2);
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, extraHTTPHeaders: { "Accept-Language": "en" } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await servePageFiles(page);
  await page.addInitScript(() => localStorage.setItem("baffle-lang", "en"));
  await page.goto(`${url}/#/t/${encodeURIComponent(tournament)}`);
  await page.locator("section.round a.card").first().waitFor();
  // Every match is in: the feed's first burst is drawn at once.
  await page.waitForFunction(() => document.querySelectorAll("section.round a.card").length === 4);
  const sections = await page.locator("section.round").evaluateAll((all) => all.map((s) =>
    `${s.querySelector("h2").textContent}: ${[...s.querySelectorAll("a.card .top span:first-child")].map((c) => c.textContent).join(", ")}`));
  say(`LIST ${sections.join("; ")}`);

  await page.goto(`${url}/#/r/${encodeURIComponent(tournament)}`);
  const picker = page.locator("nav.rounds");
  await picker.locator("a").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll("nav.rounds a").length === 2);
  const links = await picker.locator("a").allTextContents();
  const shown = await picker.locator("a[aria-current]").textContent();
  const height = Math.min(...await picker.locator("a").evaluateAll((all) => all.map((a) => a.getBoundingClientRect().height)));
  const visible = await picker.isVisible();
  say(`PICKER ${links.join(", ")} | shown ${shown} | ${height >= 48 ? "48+" : height} | visible ${visible}`);

  await picker.locator("a", { hasText: links[links.length - 1] }).click();
  await page.waitForFunction(() => /round 2/.test(document.querySelector("main h2")?.textContent || ""));
  await page.waitForFunction(() => document.querySelectorAll("table.results tbody tr").length > 0);
  const rows = await page.locator("table.results td.table").allTextContents();
  say(`PICKED ${new URL(page.url()).hash} | ${await page.locator("main h2").textContent()} | ${rows.join(", ")}`);
} finally {
  await browser.close();
}
