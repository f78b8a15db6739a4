// oauthsandbox-browser.mjs: issue #42's "Done when" as a new user would do
// it, against the --demo binary: sign in with the admin key, open the demo
// tenant's page, open its sandbox OAuth MCP server (seeded not connected),
// press Connect, Continue on the link's page, Allow on the sandbox's
// consent page, and come back to the server's page until its tools are
// served. The time from opening the tenant page to tools served is
// measured. The desktop pass has JavaScript on; a second pass at phone
// width, with JavaScript off, connects again. Prints one JSON line: {"checks": N, "failures": [...],
// "total_ms": N, "screenshots": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, SERVER, CHROMIUM,
// SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium, checkFits, press } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const name = process.env.SERVER;
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];

const browser = await launchChromium();

async function shot(page, label) {
  await checkFits(page, label);
  if (shots) {
    const file = path.join(shots, "oauthsandbox-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  }
}

let totalMS = 0;
// Desktop with JavaScript, then the phone without: every step is a link
// or a form, so it works with JavaScript off.
for (const [label, viewport, js] of [["desktop", { width: 1280, height: 900 }, true], ["phone no-js", { width: 390, height: 844 }, false]]) {
  const ctx = await browser.newContext({ viewport, javaScriptEnabled: js });
  const page = await ctx.newPage();
  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await press(page, page.locator("form[action='/console/signin'] button[type=submit]"));
  const serverPage = `${gw}/console/tenants/demo/mcp-servers/${name}`;

  const started = Date.now();
  await page.goto(gw + "/console/tenants/demo");
  const edit = page.locator(`a[href='/console/tenants/demo/mcp-servers/${name}']`);
  check(await edit.count() === 1, `${label}: the tenant page has no link to ${name}`);
  await shot(page, "tenant " + label);
  await press(page, edit.first());
  const conn = (await page.locator("#connect").textContent()) || "";
  if (label === "desktop") {
    check(/Not connected/.test(conn), `${label}: the server's page does not say it is not connected: ${conn.trim()}`);
  }
  await shot(page, "server " + label);
  let resp = await press(page, page.locator("#mcp-connect"));
  check(resp.status() === 200 && new URL(page.url()).pathname.startsWith("/connect/"), `${label}: Connect led to ${page.url()} (${resp.status()})`);
  resp = await press(page, page.getByRole("button", { name: /^Continue to / }));
  check(new URL(page.url()).pathname === "/as/authorize", `${label}: Continue led to ${page.url()}`);
  const consent = (await page.textContent("body")) || "";
  check(/gtmgate demo sandbox authorization server/.test(consent), `${label}: the consent page does not name itself as the demo's sandbox`);
  await shot(page, "consent " + label);
  resp = await press(page, page.locator("#allow"));
  const done = (await page.locator("h1").textContent()) || "";
  check(resp.status() === 200 && /connected/.test(done), `${label}: the callback answered ${resp.status()}: ${done}`);
  await shot(page, "done " + label);

  // Back to the server's page until its tools are served.
  let served = 0;
  for (let i = 0; i < 100 && served === 0; i++) {
    await page.goto(serverPage);
    served = await page.locator("text=search_notes").count();
    if (served === 0) await page.waitForTimeout(200);
  }
  check(served > 0, `${label}: search_notes is not on the server's page after connecting`);
  const ms = Date.now() - started;
  if (label === "desktop") totalMS = ms;
  await shot(page, "tools served " + label);
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures, total_ms: totalMS, screenshots }));
