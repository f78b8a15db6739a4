// mcpoauth-browser.mjs: a person connects an OAuth-protected upstream MCP
// server (e2e/oauthmcpsrv) in a real Chromium: with MODE=add, they add it
// in the console (auth "OAuth sign-in", no client: gtmgate registers one)
// and its page says it is not connected; then (every mode) they press
// Connect, Continue on the link's page, Allow on the authorization
// server's consent page, and are back with the grant listed. The connect
// part is timed. Prints one JSON line: {"checks": N, "failures": [...],
// "connect_ms": N, "screenshots": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, UPSTREAM_URL,
// SERVER (its name), MODE (add or reconnect), CHROMIUM, SCREENSHOT_DIR
// (optional).
import { check, checks, failures, launchChromium, checkFits, press } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const upURL = process.env.UPSTREAM_URL;
const name = process.env.SERVER;
const mode = process.env.MODE || "add";
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];

const browser = await launchChromium();

async function shot(page, label) {
  await checkFits(page, label);
  if (shots) {
    const file = path.join(shots, "mcpoauth-" + mode + "-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  }
}

const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
await page.goto(gw + "/console/signin");
await page.fill("#admin_key", key);
await press(page, page.locator("form[action='/console/signin'] button[type=submit]"));
const serverPage = `${gw}/console/tenants/demo/mcp-servers/${name}`;

if (mode === "add") {
  await page.goto(gw + "/console/tenants/demo#mcp-servers");
  await page.fill("#mcp-name", name);
  await page.fill("#mcp-url", upURL);
  await page.selectOption("#mcp-kind", "oauth");
  check(await page.locator("#mcp-client-id").isVisible(), "add: the client id field is hidden for OAuth sign-in");
  check(!(await page.locator("#mcp-token-url").isVisible()), "add: the token URL field shows for OAuth sign-in");
  await press(page, page.locator("#mcp-form button[value=save]"));
  await page.goto(serverPage);
  const conn = (await page.locator("#connect").textContent()) || "";
  check(/Not connected/.test(conn), `add: the server's page does not say it is not connected: ${conn.trim()}`);
  await shot(page, "not connected desktop");
}

// Connect: the console makes a link and opens it; Continue; Allow.
await page.goto(serverPage);
const started = Date.now();
let resp = await press(page, page.locator("#mcp-connect"));
check(resp.status() === 200 && new URL(page.url()).pathname.startsWith("/connect/"), `connect: Connect led to ${page.url()} (${resp.status()})`);
await shot(page, "link page desktop");
resp = await press(page, page.getByRole("button", { name: /^Continue to / }));
check(new URL(page.url()).pathname === "/as/authorize", `connect: Continue led to ${page.url()}`);
resp = await press(page, page.locator("#allow"));
const connectMS = Date.now() - started;
const done = (await page.locator("h1").textContent()) || "";
check(resp.status() === 200 && /connected/.test(done), `connect: the callback answered ${resp.status()}: ${done}`);
await shot(page, "done desktop");

// The grant is listed on the server's page, at both widths.
for (const [label, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]]) {
  await page.setViewportSize(viewport);
  await page.goto(serverPage + "#connect");
  const conn = (await page.locator("#connect").textContent()) || "";
  check(/Granted for the tenant/.test(conn) && !/must be connected again/.test(conn), `${label}: the grant is not listed as holding: ${conn.trim()}`);
  check(/Connect again/.test(conn), `${label}: no "Connect again" button`);
  await shot(page, "connected " + label);
}

await browser.close();
console.log(JSON.stringify({ checks, failures, connect_ms: connectMS, screenshots }));
