// toolchange-browser.mjs: the demo tenant's server "up" has two changes
// the jury graded (fetch_note, new, flagged: quality 1; delete_note,
// relisted read-only: quality 2). In Chromium, at 1280 px with JavaScript
// on and at 390 px with it off: the server's page shows each change's
// verdict with a link to it, and the Quality page shows the verdicts as
// changed definitions linking back to the change, both fitting the width.
// Prints {"checks": N, "failures": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, CHROMIUM,
// SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium, checkFits } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const shots = process.env.SCREENSHOT_DIR;
const browser = await launchChromium();

async function shot(page, label) {
  await checkFits(page, label);
  if (!shots) return;
  await page.screenshot({ path: path.join(shots, "toolchange-" + label + ".png"), fullPage: false });
}

for (const run of [
  { name: "desktop-js", viewport: { width: 1280, height: 900 }, js: true },
  { name: "phone-nojs", viewport: { width: 390, height: 844 }, js: false },
]) {
  const ctx = await browser.newContext({ viewport: run.viewport, javaScriptEnabled: run.js });
  const page = await ctx.newPage();
  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await Promise.all([page.waitForNavigation(), page.click("form[action='/console/signin'] button[type=submit]")]);

  await page.goto(gw + "/console/tenants/demo/mcp-servers/up#changes");
  const fetchNote = (await page.textContent("#change-fetch_note .mcp-verdict").catch(() => "")) || "";
  check(fetchNote.includes("Jury: quality 1 of 4") && fetchNote.includes("unsafe_action"),
    `${run.name}: fetch_note's change shows the jury's 1 with unsafe_action (${fetchNote.trim()})`);
  const deleteNote = (await page.textContent("#change-delete_note .mcp-verdict").catch(() => "")) || "";
  check(deleteNote.includes("Jury: quality 2 of 4"), `${run.name}: delete_note's change shows the jury's 2 (${deleteNote.trim()})`);
  const href = await page.getAttribute("#change-fetch_note .mcp-verdict a", "href").catch(() => null);
  check(href === "/console/quality?tenant=demo&tool=up__fetch_note", `${run.name}: the verdict links to the Quality page (${href})`);
  await page.evaluate(() => document.querySelector("#change-fetch_note")?.scrollIntoView());
  await shot(page, run.name + "-changes");

  await page.goto(gw + href);
  const card = (await page.textContent("article.card").catch(() => "")) || "";
  check(card.includes("up__fetch_note definition") && card.includes("a changed definition of MCP server up's tool"),
    `${run.name}: the Quality page says the verdict is on a changed definition (${card.slice(0, 160).trim()})`);
  const back = await page.getAttribute("article.card a[href*='/mcp-servers/']", "href").catch(() => null);
  check(back === "/console/tenants/demo/mcp-servers/up#change-fetch_note", `${run.name}: it links back to the change (${back})`);
  await shot(page, run.name + "-quality");
  await ctx.close();
}
await browser.close();
console.log(JSON.stringify({ checks, failures }));
