// playground-browser.mjs: an operator signs in through the demo's IdP and
// tries a tenant's tools in Chromium, at a desktop and a phone width, with
// JavaScript on and off: the tools list (grouped by domain, held actions
// marked), a read tool's playground (a CRM search), its result; then, with
// an approval policy on the CRM's writes, a mutating action held, and the
// gate's page reached from the playground's link. Prints one JSON line:
// {"checks": N, "failures": [...], "screenshots": [...], "gates": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY (to set the approval
// policy between the two parts), WHO (the demo IdP's button), CHROMIUM,
// SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium, checkFits } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const who = process.env.WHO || "Olivia";
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];
const gates = [];

async function admin(method, p, body) {
  const resp = await fetch(gw + p, {
    method,
    headers: { "x-admin-key": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await resp.text();
  return { status: resp.status, json: text ? JSON.parse(text) : null };
}

async function shot(page, label) {
  await checkFits(page, label);
  if (shots) {
    const file = path.join(shots, "playground-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await page.screenshot({ path: file, fullPage: !label.endsWith("tools") });
    screenshots.push(file);
  }
}

async function submit(page, form) {
  const [resp] = await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
  return resp;
}

const runs = [
  { name: "desktop-js", viewport: { width: 1280, height: 900 }, js: true },
  { name: "phone-nojs", viewport: { width: 390, height: 844 }, js: false },
];

const browser = await launchChromium();
const pages = [];
try {
  for (const run of runs) {
    const tag = run.name;
    const ctx = await browser.newContext({ viewport: run.viewport, javaScriptEnabled: run.js });
    const page = await ctx.newPage();
    pages.push([run, page]);
    const tools = gw + "/console/tenants/demo/tools";
    await page.goto(tools);
    check(page.url().startsWith(gw + "/console/signin"), `${tag}: not sent to sign-in (${page.url()})`);
    await Promise.all([
      page.waitForURL((u) => !u.href.startsWith(gw + "/console/signin")),
      page.getByRole("link", { name: /Sign in with the demo's sandbox IdP/ }).click(),
    ]);
    await Promise.all([page.waitForURL(tools), page.getByRole("button", { name: new RegExp(who) }).click()]);
    check(page.url() === tools, `${tag}: after sign-in at ${page.url()}, not the tools page`);

    // The list: by domain, each action marked, the policy's holds shown.
    const body = await page.locator("main").innerText();
    check(await page.locator("main h2", { hasText: /^crm$/ }).count() === 1, `${tag}: no crm group on the tools page`);
    check(body.includes("crm_contacts") && body.includes("held for approval"), `${tag}: the list lacks crm_contacts or a held action`);
    const budget = page.locator("article", { hasText: "google_ads_campaigns" }).locator("li", { hasText: "update_budget" });
    check((await budget.innerText()).includes("held for approval"), `${tag}: update_budget is not marked held (ads_mutate is)`);
    await shot(page, `${tag} tools`);

    // The selector is a GET form: it works without JavaScript.
    const selector = page.locator("form[aria-label='Whose tools']");
    check(await selector.count() === 1, `${tag}: no agent selector`);
    await selector.locator("select").selectOption({ index: 0 });
    await submit(page, selector);
    check(page.url().startsWith(tools), `${tag}: the selector went to ${page.url()}`);

    // A read tool's playground: a CRM search.
    await Promise.all([page.waitForNavigation(), page.locator("a[href='/console/tenants/demo/tools/crm_contacts']").first().click()]);
    check(page.url() === tools + "/crm_contacts", `${tag}: the playground link went to ${page.url()}`);
    const form = page.locator("form.playground");
    const options = await form.locator("select[name='in.action'] option").allInnerTexts();
    check(options.includes("search") && options.some((o) => o.startsWith("create (")), `${tag}: action options ${JSON.stringify(options)}`);
    await form.locator("select[name='in.action']").selectOption("search");
    await form.locator("[name='in.query']").fill("Anika");
    await form.locator("[name='in.limit']").fill("5");
    await form.locator("[name='in.rationale']").fill("Trying the CRM search from the playground");
    await shot(page, `${tag} playground`);
    await submit(page, form);
    const result = page.locator("pre.result");
    check(await result.count() === 1, `${tag}: no result after the search: ${(await page.locator("main").innerText()).slice(0, 400)}`);
    if (await result.count() === 1) {
      const text = await result.innerText();
      let parsed = null;
      try { parsed = JSON.parse(text); } catch { /* checked below */ }
      check(parsed !== null, `${tag}: the result is not pretty JSON: ${text.slice(0, 200)}`);
      const box = await result.boundingBox();
      check(box && box.width <= run.viewport.width, `${tag}: the result is ${box && box.width}px wide`);
    }
    check(await form.locator("[name='in.query']").inputValue() === "Anika", `${tag}: the form did not keep the query`);
    await shot(page, `${tag} result`);

    // A value that is not a number: shown next to its field, kept.
    await form.locator("[name='in.limit']").evaluate((e) => { e.type = "text"; });
    await form.locator("[name='in.limit']").fill("five");
    await submit(page, form);
    const err = page.locator("form.playground .field", { has: page.locator("[name='in.limit']") }).locator(".error-text");
    check(await err.count() === 1 && (await err.innerText()).includes("not a whole number"), `${tag}: no error next to limit`);
  }

  // An approval policy on the CRM's writes: a contact's creation is held.
  const tenant = (await admin("GET", "/admin/tenants/demo")).json.tenant;
  const config = { ...tenant };
  for (const k of ["id", "created_at", "updated_at"]) delete config[k];
  config.approval_policy = { ...config.approval_policy, categories: [...(config.approval_policy.categories || []), "crm_write"] };
  const put = await admin("PUT", "/admin/tenants/demo", config);
  check(put.status === 200, `setting the approval policy: ${put.status} ${JSON.stringify(put.json).slice(0, 300)}`);

  for (const [run, page] of pages) {
    const tag = run.name;
    await page.goto(gw + "/console/tenants/demo/tools/crm_contacts");
    const create = await page.locator("select[name='in.action'] option[value='create']").innerText();
    check(create.includes("held for approval"), `${tag}: create is not marked held: ${create}`);
    const form = page.locator("form.playground");
    await form.locator("select[name='in.action']").selectOption("create");
    await form.locator("[name='in.properties']").fill(`{"email": "playground-${tag}@example.com"}`);
    await form.locator("[name='in.rationale']").fill("Trying a held creation from the playground");
    await submit(page, form);
    const gate = page.locator(".gate a[href^='/console/approvals/apr_']");
    check(await gate.count() === 1, `${tag}: no gate after a held call: ${(await page.locator("main").innerText()).slice(0, 400)}`);
    if (await gate.count() === 1) {
      const held = await page.locator(".gate").innerText();
      check(held.includes("crm_contacts") && held.includes("create"), `${tag}: the gate does not say what it holds: ${held}`);
      await shot(page, `${tag} held`);
      const href = await gate.getAttribute("href");
      gates.push(href.split("/").pop());
      await Promise.all([page.waitForNavigation(), gate.click()]);
      check(page.url() === gw + href, `${tag}: the gate's link went to ${page.url()}`);
      check((await page.locator("main").innerText()).includes("crm_contacts"), `${tag}: the gate's page does not show the held call`);
      await shot(page, `${tag} gate`);
    }
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ checks, failures, screenshots, gates }));
