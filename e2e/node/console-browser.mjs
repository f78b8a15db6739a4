// console-browser.mjs: an operator uses the console in a real Chromium
// (Debian's, driven by playwright-core). With JavaScript on and off, at a
// desktop and a phone width, in light and dark: sign in, create a tenant and
// issue a token (the tenant page's tables scroll, its buttons reachable,
// its local nav reaching each section), approve a held call, replay a
// failed one, filter the audit log, sign out. Then: a form post without the CSRF token is refused, and
// the console refuses to load inside a frame. Prints one JSON line:
// {"checks": N, "failures": [...], "screenshots": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, GTMGATE_APPROVAL_ID
// (a held call), GTMGATE_LEDGER_ID (a failed call), CHROMIUM,
// SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium, checkFits } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const approvals = (process.env.GTMGATE_APPROVAL_IDS || "").split(",");
const ledgerID = process.env.GTMGATE_LEDGER_ID;
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];


const browser = await launchChromium();

async function shot(page, label) {
  await checkFits(page, label);
  if (shots) {
    const file = path.join(shots, "console-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await page.screenshot({ path: file, fullPage: false });
    screenshots.push(file);
  }
}

// tablesFit: every table scrolls in its own wrapper instead of squeezing
// its cells (no cell narrower than 40 px, no id broken across lines), and
// each of its buttons can be scrolled fully into the window.
async function tablesFit(page, label) {
  const bad = await page.evaluate(() => {
    const out = [];
    for (const t of document.querySelectorAll("main table")) {
      const ox = getComputedStyle(t.parentElement).overflowX;
      if (ox !== "auto" && ox !== "scroll") out.push(`a table whose wrapper has overflow-x ${ox}`);
      for (const c of t.querySelectorAll("td, th")) {
        const w = c.getBoundingClientRect().width;
        if (c.textContent.trim().length > 2 && w < 40) out.push(`cell "${c.textContent.trim().slice(0, 20)}" is ${Math.round(w)}px wide`);
      }
      for (const e of t.querySelectorAll("td code, td a")) {
        if (!/\s/.test(e.textContent.trim()) && e.getClientRects().length > 1) out.push(`"${e.textContent.trim()}" breaks across lines`);
      }
    }
    return out;
  });
  check(bad.length === 0, `${label}: ${bad.slice(0, 5).join("; ")}`);
  const vw = page.viewportSize().width;
  for (const b of await page.locator("main table button").all()) {
    await b.scrollIntoViewIfNeeded();
    const box = await b.boundingBox();
    check(box && box.x >= 0 && box.x + box.width <= vw, `${label}: button "${await b.textContent()}" at ${JSON.stringify(box)} in a ${vw}px window`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function submit(page, form) {
  const [resp] = await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
  return resp;
}

const runs = [
  { name: "desktop-light-js", viewport: { width: 1280, height: 900 }, colorScheme: "light", js: true },
  { name: "phone-dark-nojs", viewport: { width: 390, height: 844 }, colorScheme: "dark", js: false },
  { name: "desktop-dark-nojs", viewport: { width: 1280, height: 900 }, colorScheme: "dark", js: false },
  { name: "phone-light-js", viewport: { width: 390, height: 844 }, colorScheme: "light", js: true },
];

for (const [i, run] of runs.entries()) {
  const ctx = await browser.newContext({ viewport: run.viewport, colorScheme: run.colorScheme, javaScriptEnabled: run.js });
  const page = await ctx.newPage();
  page.on("dialog", (d) => d.accept());
  const tag = run.name;

  // Sign in.
  await page.goto(gw + "/console/approvals");
  check(page.url().includes("/console/signin"), `${tag}: not sent to sign-in (${page.url()})`);
  await page.fill("#admin_key", key);
  await submit(page, page.locator("form[action='/console/signin']"));
  check(page.url().endsWith("/console/approvals"), `${tag}: after sign-in at ${page.url()}`);

  // Overview with its charts.
  await page.goto(gw + "/console/?range=30d");
  check(await page.locator("svg.chart").count() >= 2, `${tag}: overview has ${await page.locator("svg.chart").count()} charts`);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(run.colorScheme === "dark" ? bg !== "rgb(255, 255, 255)" : bg === "rgb(255, 255, 255)", `${tag}: background ${bg}`);
  await shot(page, `${tag} overview`);
  const bars = page.locator("svg.chart").first().locator("g[tabindex='0']");
  if (await bars.count() > 0) {
    await bars.last().focus();
    const named = await page.evaluate(() => [document.activeElement.getAttribute("aria-label"), document.activeElement.querySelector("title")?.textContent]);
    check(/: \d+ calls?/.test(named[0] || "") && named[0] === named[1], `${tag}: a focused bar is named ${JSON.stringify(named)}`);
  } else check(false, `${tag}: no focusable bar on the overview`);
  const icon = await page.request.get(gw + "/favicon.ico");
  check(icon.status() === 200 && icon.headers()["content-type"] === "image/svg+xml", `${tag}: /favicon.ico answers ${icon.status()}`);

  // Create a tenant and issue a token.
  const tenant = `console-${i}`;
  await page.goto(gw + "/console/tenants");
  await page.fill("#id", tenant);
  await page.fill("#name", `Console ${i}`);
  await submit(page, page.locator("form[action='/console/tenants']"));
  check(page.url().endsWith(`/console/tenants/${tenant}`), `${tag}: after create at ${page.url()}`);
  await page.fill("#label", "browser");
  await submit(page, page.locator(`form[action='/console/tenants/${tenant}/tokens']`));
  const token = (await page.locator("#new-token").textContent() || "").trim();
  check(token.startsWith("gtm_"), `${tag}: issued token "${token}"`);
  check(await page.locator("button.copy").isVisible() === run.js, `${tag}: copy button visible=${!run.js}`);
  await shot(page, `${tag} tenant`);
  await tablesFit(page, `${tag} tenant`);
  check(await page.locator("main table button", { hasText: "Revoke" }).count() >= 1, `${tag}: no Revoke button on the tenant page`);
  const local = await page.locator("nav.local a").evaluateAll((as) => as.map((a) => [a.getAttribute("href"), !!document.getElementById(a.getAttribute("href").slice(1))]));
  check(local.length >= 8 && local.every(([, found]) => found), `${tag}: the tenant page's local nav links ${JSON.stringify(local)}`);
  const api = await fetch(gw + `/api/v1/${tenant}/approvals/none`, { headers: { Authorization: "Bearer " + token } });
  check(api.status === 404, `${tag}: the issued token gets ${api.status} from the gateway, want 404`);

  // Approve a held call.
  const id = approvals[i];
  await page.goto(gw + "/console/approvals");
  const card = page.locator("article", { hasText: id });
  check(await card.count() === 1, `${tag}: held call ${id} not listed`);
  if (await card.count() === 1) {
    check((await card.locator("pre").textContent()).includes("@example.com"), `${tag}: the held call's input is not shown in full`);
    await shot(page, `${tag} approvals`);
    await submit(page, card.locator(`form[action$='/approve']`));
    check((await page.locator(".flash").textContent()).includes("approved"), `${tag}: no approval flash`);
  }

  // Replay a failed call.
  await page.goto(gw + "/console/errors");
  const entry = page.locator("article", { hasText: ledgerID }).first();
  check(await entry.count() === 1, `${tag}: ledger entry ${ledgerID} not listed`);
  if (await entry.count() === 1) {
    const force = entry.locator("input[name=force]");
    if (await force.count() === 1) await force.check();
    await submit(page, entry.locator("form"));
    check((await page.locator(".flash").textContent()).includes("Replayed " + ledgerID + ": the call failed again: UPSTREAM_ERROR"), `${tag}: no replay outcome with its error`);
    await shot(page, `${tag} errors`);
  }

  // Filter the audit log.
  await page.goto(gw + "/console/audit");
  await page.selectOption("#f-source", "console");
  await submit(page, page.locator("form.filters"));
  const sources = await page.locator("table.audit tbody tr td:nth-child(4)").allTextContents();
  check(sources.length > 0 && sources.every((s) => s.trim() === "console"), `${tag}: audit filtered to console shows ${JSON.stringify(sources.slice(0, 5))}`);
  await shot(page, `${tag} audit`);

  // Sign out; the console asks for the key again.
  await submit(page, page.locator("form.signout"));
  check(page.url().includes("/console/signin"), `${tag}: after sign-out at ${page.url()}`);
  await page.goto(gw + "/console/tenants");
  check(page.url().includes("/console/signin"), `${tag}: signed out, yet ${page.url()} opened`);
  await ctx.close();
}

// A form posted without the CSRF token is refused (the session is valid).
{
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await submit(page, page.locator("form[action='/console/signin']"));
  await page.goto(gw + "/console/tenants");
  await page.evaluate(() => document.querySelector("form[action='/console/tenants'] input[name=csrf]").remove());
  await page.fill("#id", "no-csrf");
  const resp = await submit(page, page.locator("form[action='/console/tenants']"));
  check(resp.status() === 403, `CSRF-less post: status ${resp.status()}, want 403`);

  // The console refuses to render inside a frame (frame-ancestors 'none').
  const framer = await ctx.newPage();
  await framer.setContent(`<iframe id="f" src="${gw}/console/tenants" width="600" height="400"></iframe>`);
  await framer.waitForTimeout(500);
  const frame = framer.frames().find((f) => f !== framer.mainFrame());
  let framed = "";
  try { framed = frame ? await frame.evaluate(() => document.body ? document.body.innerText : "") : ""; } catch (e) { framed = ""; }
  check(!framed.includes("Create a tenant"), "the console rendered inside a frame");
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures, screenshots }));
