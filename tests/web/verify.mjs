// Drives a real headless Chromium at a finished match's live view, for
// tests/tests/web_page.rs: the page must recompute every server roll itself.
//
//   node verify.mjs <page url> <match> <tampered log path>
//   → "VERIFIED <the page's dice line>"   once the page has checked the revealed dice
//   → "TAMPERED <verdict as JSON>"        the page's verifier on a forged copy of the log

import { launch } from "./chromium.mjs";
import { readFileSync } from "node:fs";

const [url, match, tamperedPath] = process.argv.slice(2);
const say = (line) => process.stdout.write(line + "\n");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => process.stderr.write(`page: ${m.text()}\n`));
  page.setDefaultTimeout(15_000);
  await page.goto(`${url}/#/m/${encodeURIComponent(match)}`);
  const line = page.locator(".live .verify");
  await line.filter({ hasText: /verified|VERIFIED/ }).waitFor();
  say(`VERIFIED ${await line.textContent()}`);
  const tampered = readFileSync(tamperedPath, "utf8");
  const verdict = await page.evaluate((text) => window.baffleVerify(text), tampered);
  say(`TAMPERED ${JSON.stringify(verdict)}`);
} finally {
  await browser.close();
}
