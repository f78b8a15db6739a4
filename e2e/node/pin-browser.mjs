// pin-browser.mjs: the demo tenant's server "up" has one change waiting:
// delete_note, destructive, listed again as read-only. In Chromium: the
// tenant page says "1 change waiting"; the server's page shows the diff
// (accepted | listed), the gate warning and the hash, at 1280 px with
// JavaScript on and at 390 px with it off, fitting both; at 390 px
// without JavaScript the person ticks the change and "lift the approval
// gate" and accepts it. Prints {"checks": N, "failures": [...]}.
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
  await page.screenshot({ path: path.join(shots, "pin-" + label + ".png"), fullPage: true });
  const section = (await page.$("#changes")) || (await page.$("#mcp-servers"));
  if (section) await section.screenshot({ path: path.join(shots, "pin-" + label + "-section.png") });
}

async function click(page, selector) {
  const [resp] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return resp;
}

const runs = [
  { name: "desktop-js", viewport: { width: 1280, height: 900 }, js: true, accept: false },
  { name: "phone-nojs", viewport: { width: 390, height: 844 }, js: false, accept: true },
];
for (const run of runs) {
  const ctx = await browser.newContext({ viewport: run.viewport, javaScriptEnabled: run.js });
  const page = await ctx.newPage();
  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await click(page, "form[action='/console/signin'] button[type=submit]");

  await page.goto(gw + "/console/tenants/demo#mcp-servers");
  const section = (await page.textContent("#mcp-servers")) || "";
  check(section.includes("1 change waiting"), `${run.name}: the tenant page says 1 change waiting`);
  check(section.includes("changed: waiting for acceptance"), `${run.name}: delete_note's row says it waits`);
  await shot(page, run.name + "-tenant");

  await page.goto(gw + "/console/tenants/demo/mcp-servers/up#changes");
  const changes = (await page.textContent("#changes")) || "";
  check(changes.includes("Changes waiting (1)"), `${run.name}: the server page has one change waiting`);
  check(changes.includes("accepted as destructive, listed as read-only"), `${run.name}: the gate before and after is shown`);
  check(changes.includes("This change would lift the approval gate"), `${run.name}: the gate warning is shown`);
  check(changes.includes("Deletes the note with the given id.") && changes.includes("Looks up the note with the given id."),
    `${run.name}: both descriptions are in the diff`);
  const hash = await page.getAttribute("input[name='hash.delete_note']", "value");
  check(hash && hash.startsWith("sha256:"), `${run.name}: the hash travels in a hidden field (${hash})`);
  // The two columns: side by side at desktop width, stacked at phone width.
  const cells = await page.$$eval("table.mcp-diff tr.mod td", (tds) => tds.slice(0, 2).map((td) => {
    const r = td.getBoundingClientRect();
    return { x: r.x, y: r.y, visible: r.width > 0 && r.height > 0 };
  }));
  check(cells.length === 2, `${run.name}: a modified row has two cells`);
  if (cells.length === 2) {
    if (run.viewport.width > 800) check(cells[1].x > cells[0].x && Math.abs(cells[1].y - cells[0].y) < 2, `${run.name}: columns side by side`);
    else check(cells[1].y > cells[0].y, `${run.name}: columns stacked`);
  }
  await shot(page, run.name + "-changes");

  if (run.accept) {
    await page.check("input[name='accept'][value='delete_note']");
    await page.check("input[name='lift.delete_note']");
    const resp = await click(page, "form.mcp-accept button[type=submit]");
    check(resp && resp.status() === 200, `${run.name}: accepting answers 200 (${resp && resp.status()})`);
    const body = (await page.textContent("body")) || "";
    check(body.includes("Accepted for MCP server up: delete_note (gate lifted)"), `${run.name}: the flash says the gate was lifted`);
    check(body.includes("None: every tool this server lists is served as accepted."), `${run.name}: no change waits any more`);
    await shot(page, run.name + "-accepted");
  }
  await ctx.close();
}
await browser.close();
console.log(JSON.stringify({ checks, failures }));
