// mcpservers-browser.mjs: a person adds an upstream MCP server to the demo
// tenant in the console, in a real Chromium, at a desktop and a phone
// width, with JavaScript on and off: test the connection, hide the "wait"
// tool, mark "create_note" destructive, save; with JavaScript on, edit it
// keeping the stored secret; a refusal shows beside the form with status
// 422. Prints one JSON line: {"checks": N, "failures": [...], "servers":
// [...], "screenshots": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, UPSTREAM_URL,
// UPSTREAM_TOKEN, CHROMIUM, SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium, checkFits } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const upURL = process.env.UPSTREAM_URL;
const upToken = process.env.UPSTREAM_TOKEN;
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];
const servers = [];

const browser = await launchChromium();

// shot checks the page fits its window and keeps a PNG of it, or of
// the element "of" when given.
async function shot(page, label, of) {
  await checkFits(page, label);
  if (shots) {
    const file = path.join(shots, "mcpservers-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    if (of) await of.screenshot({ path: file });
    else await page.screenshot({ path: file, fullPage: true });
    screenshots.push(file);
  }
}

async function click(page, selector) {
  const [resp] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return resp;
}

const runs = [
  { name: "desktop-js", viewport: { width: 1280, height: 900 }, js: true },
  { name: "phone-js", viewport: { width: 390, height: 844 }, js: true },
  { name: "desktop-nojs", viewport: { width: 1280, height: 900 }, js: false },
  { name: "phone-nojs", viewport: { width: 390, height: 844 }, js: false },
];

for (const [i, run] of runs.entries()) {
  const ctx = await browser.newContext({ viewport: run.viewport, javaScriptEnabled: run.js });
  const page = await ctx.newPage();
  page.on("dialog", (d) => d.accept());
  const tag = run.name;
  const name = `notes-${i}`;

  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await click(page, "form[action='/console/signin'] button[type=submit]");

  // The add form on the tenant page.
  await page.goto(gw + "/console/tenants/demo#mcp-servers");
  check(await page.locator("#mcp-add").count() === 1, `${tag}: no "Add an MCP server" form`);
  await page.fill("#mcp-name", name);
  await page.fill("#mcp-url", upURL);
  await page.selectOption("#mcp-kind", "bearer");
  // Without JavaScript every auth field shows, labelled with its kind;
  // with it, only the chosen kind's.
  check(await page.locator("#mcp-header").isVisible() === !run.js, `${tag}: header field visible=${!run.js} wanted`);
  check(await page.locator("#mcp-token-url").isVisible() === !run.js, `${tag}: token URL field visible=${!run.js} wanted`);
  check(await page.locator("#mcp-secret").isVisible(), `${tag}: no secret field`);
  await page.fill("#mcp-secret", upToken);
  await shot(page, `${tag} add form`, page.locator("#mcp-servers"));

  // Test the connection: the tools are listed, nothing saved.
  let resp = await click(page, "#mcp-form button[value=test]");
  check(resp.status() === 200, `${tag}: test answered ${resp.status()}`);
  const tested = (await page.locator("#mcp-tested").textContent() || "").trim();
  check(/Connected in .*5 tools listed\. Nothing is saved yet\./.test(tested), `${tag}: test says "${tested}"`);
  check(await page.locator("input[name=serve]").count() === 5, `${tag}: ${await page.locator("input[name=serve]").count()} tool rows`);
  check(await page.locator("#mcp-secret").inputValue() === "", `${tag}: the secret was written back into the page`);
  check(!(await page.content()).includes(upToken), `${tag}: the page holds the secret`);
  check((await page.locator("#mcp-form").textContent()).includes("Type the secret again to save"), `${tag}: no "type the secret again" note`);
  check(await page.locator("#mcp-name").inputValue() === name && await page.locator("#mcp-url").inputValue() === upURL, `${tag}: typed values not kept`);
  const listed = await ctx.request.get(gw + "/admin/tenants/demo/mcp-servers/" + name, { headers: { "X-Admin-Key": key } });
  check(listed.status() === 404, `${tag}: after a test the server answers ${listed.status()}, want 404 (nothing saved)`);

  // Hide wait, make create_note destructive, save (the secret typed again).
  await page.locator("input[name=serve][value=wait]").uncheck();
  await page.selectOption(`select[name="destructive.create_note"]`, "yes");
  await shot(page, `${tag} tested`);
  await page.fill("#mcp-secret", upToken);
  resp = await click(page, "#mcp-form button[value=save]");
  const flash = (await page.locator(".flash").textContent() || "").trim();
  check(flash === `MCP server ${name} saved: 5 tools listed, 4 served.`, `${tag}: after save the flash says "${flash}"`);
  check(page.url().endsWith("/console/tenants/demo#mcp-servers"), `${tag}: after save at ${page.url()}`);
  const article = page.locator("article.mcp-server", { has: page.locator(`h3:text-is("${name}")`) });
  check(await article.count() === 1, `${tag}: ${name} not listed on the tenant page`);
  check((await article.textContent()).includes("not in the allow-list"), `${tag}: wait not shown as left out`);
  await shot(page, `${tag} saved`, page.locator("#mcp-servers"));
  servers.push(name);

  if (run.js) {
    // Edit: the form prefilled, the secret empty; a test and a save keep
    // the stored secret.
    await click(page, `a[href="/console/tenants/demo/mcp-servers/${name}"]`);
    check(await page.locator("#mcp-url").inputValue() === upURL, `${tag}: edit form URL`);
    check(await page.locator("#mcp-kind").inputValue() === "bearer", `${tag}: edit form kind`);
    check(await page.locator("#mcp-secret").inputValue() === "", `${tag}: edit form shows a secret`);
    check((await page.locator("#mcp-form").textContent()).includes("leave empty to keep the stored secret"), `${tag}: no keep-the-secret note`);
    check(!(await page.locator("input[name=serve][value=wait]").isChecked()), `${tag}: wait checked on the edit page`);
    check(await page.locator(`select[name="destructive.create_note"]`).inputValue() === "yes", `${tag}: create_note override not selected`);
    await shot(page, `${tag} edit`);
    resp = await click(page, "#mcp-form button[value=test]");
    check(resp.status() === 200 && /5 tools listed/.test(await page.locator("#mcp-tested").textContent()), `${tag}: edit test with the stored secret`);
    // A refusal: shown beside the form, 422, typed values kept.
    await page.fill("#mcp-url", "http://mcp.example.com/mcp");
    resp = await click(page, "#mcp-form button[value=save]");
    check(resp.status() === 422, `${tag}: refused save answered ${resp.status()}`);
    const problem = (await page.locator("#mcp-problem").textContent() || "").trim();
    check(problem.startsWith("Not saved: url must use https"), `${tag}: refusal says "${problem}"`);
    check(await page.locator("#mcp-url").inputValue() === "http://mcp.example.com/mcp", `${tag}: the refused URL was not kept`);
    check((await page.locator("#mcp-form").textContent()).includes("Stores a note and returns its id."), `${tag}: the refused form lost the tools' descriptions`);
    check(await page.locator(`select[name="destructive.create_note"]`).inputValue() === "yes", `${tag}: the refused form lost a choice`);
    await shot(page, `${tag} refused`);
    await page.fill("#mcp-url", upURL);
    resp = await click(page, "#mcp-form button[value=save]");
    check((await page.locator(".flash").textContent() || "").includes(`MCP server ${name} saved: 5 tools listed, 4 served.`), `${tag}: edit not saved`);
  }
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures, servers, screenshots }));
