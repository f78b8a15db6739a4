// tenantforms-browser.mjs: an operator configures a tenant and its billing
// plan through the tenant page's forms in Chromium, at desktop and phone
// widths, with JavaScript on and off: add a provider and two accounts, make
// the second the default, hold a category for approval; see a duplicate
// account id refused beside its field, fix it, save; see a bad currency
// refused beside its field, fix it, save a plan with a model's prices. Each
// run has its own tenant (TENANTS, comma-separated, one per run). Prints one
// JSON line: {"checks": N, "failures": [...], "screenshots": [...]}.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, TENANTS, CHROMIUM,
// SCREENSHOT_DIR (optional).
import { check, checks, failures, launchChromium } from "./browser.mjs";
import path from "node:path";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const tenants = process.env.TENANTS.split(",");
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];

const runs = [
  { name: "desktop-js", viewport: { width: 1280, height: 900 }, js: true },
  { name: "phone-nojs", viewport: { width: 390, height: 844 }, js: false },
  { name: "desktop-nojs", viewport: { width: 1280, height: 900 }, js: false },
  { name: "phone-js", viewport: { width: 390, height: 844 }, js: true },
];

async function admin(p) {
  const resp = await fetch(gw + p, { headers: { "X-Admin-Key": key } });
  return resp.json();
}

// fits: the page does not scroll sideways, every table scrolls in its own
// wrapper, and no field of the two forms is narrower than its label.
async function fits(page, label, shotOf) {
  const bad = await page.evaluate(() => {
    const out = [];
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth > clientWidth) out.push(`page is ${scrollWidth}px wide in ${clientWidth}px`);
    for (const sec of document.querySelectorAll("#configuration, #billing")) {
      for (const t of sec.querySelectorAll("table")) {
        const ox = getComputedStyle(t.parentElement).overflowX;
        if (ox !== "auto" && ox !== "scroll") out.push(`a table whose wrapper has overflow-x ${ox}`);
        const heads = [...t.querySelectorAll("th")];
        for (const row of t.querySelectorAll("tbody tr")) {
          [...row.cells].forEach((c, i) => {
            const input = c.querySelector("input:not([type=hidden])");
            if (!input || !heads[i]) return;
            const r = document.createRange();
            r.selectNodeContents(heads[i]);
            const need = r.getBoundingClientRect().width;
            const have = input.getBoundingClientRect().width;
            if (input.type !== "radio" && input.type !== "checkbox" && have < need) out.push(`${input.id} is ${Math.round(have)}px under a ${Math.round(need)}px heading`);
          });
        }
      }
      for (const l of sec.querySelectorAll("label[for]")) {
        const input = document.getElementById(l.htmlFor);
        if (!input || input.tagName === "TEXTAREA") continue;
        const r = document.createRange();
        r.selectNodeContents(l);
        const need = Math.min(r.getBoundingClientRect().width, l.getBoundingClientRect().width);
        const have = input.getBoundingClientRect().width;
        if (have + 1 < need && have < 120) out.push(`${input.id} is ${Math.round(have)}px under a ${Math.round(need)}px label`);
      }
    }
    return out;
  });
  check(bad.length === 0, `${label}: ${bad.slice(0, 5).join("; ")}`);
  if (shots && shotOf) {
    const file = path.join(shots, "tenantforms-" + label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await shotOf.screenshot({ path: file });
    screenshots.push(file);
  }
}

async function click(page, selector) {
  const [resp] = await Promise.all([page.waitForNavigation(), page.locator(selector).click()]);
  return resp;
}

// refusedBeside checks that input id is marked invalid, described by a
// message containing text, and linked from the summary.
async function refusedBeside(page, tag, id, text) {
  const input = page.locator("#" + id);
  check((await input.getAttribute("aria-invalid")) === "true", `${tag}: #${id} not aria-invalid`);
  const described = await input.getAttribute("aria-describedby");
  const msg = described ? await page.locator("#" + described).textContent() : "";
  check(msg.includes(text), `${tag}: #${id}'s message is ${JSON.stringify(msg)}, want ${text}`);
  check((await page.locator(`.form-problems a[href='#${id}']`).count()) === 1, `${tag}: the summary does not link #${id}`);
}

const browser = await launchChromium();
try {
  for (const [i, run] of runs.entries()) {
    const tenant = tenants[i];
    const tag = run.name;
    const ctx = await browser.newContext({ viewport: run.viewport, javaScriptEnabled: run.js });
    const page = await ctx.newPage();
    await page.goto(gw + "/console/signin");
    await page.fill("#admin_key", key);
    await Promise.all([page.waitForNavigation(), page.locator("form[action='/console/signin'] button[type=submit]").click()]);

    if (i === 0) {
      // The demo tenant saved unchanged through the form is unchanged:
      // what the form does not show (toolsets, routes, manager ids) is kept.
      const before = (await admin("/admin/tenants/demo")).tenant;
      await page.goto(`${gw}/console/tenants/demo#configuration`);
      const resp = await click(page, "#configuration .config-form > button[value=save]:not(.visually-hidden)");
      const after = (await admin("/admin/tenants/demo")).tenant;
      delete before.updated_at;
      delete after.updated_at;
      check(resp.status() === 200 && JSON.stringify(after) === JSON.stringify(before),
        `${tag}: the demo tenant saved unchanged changed (${resp.status()}):\n${JSON.stringify(before)}\n${JSON.stringify(after)}`);
    }

    // The configuration: a provider, two accounts, the second the default.
    await page.goto(`${gw}/console/tenants/${tenant}#configuration`);
    check((await page.locator("#configuration details summary", { hasText: "Edit as JSON" }).count()) === 1, `${tag}: no Edit as JSON`);
    await page.selectOption("#cfg-new-provider", "google_ads");
    await click(page, "#configuration button[value='add-provider']");
    check((await page.locator("#cfg-p0-a0-id").count()) === 1, `${tag}: Add provider showed no account row`);
    await page.fill("#cfg-p0-a0-id", "111");
    await page.fill("#cfg-p0-a0-label", "Main");
    await click(page, "#configuration button[value='add-account:0']");
    check((await page.inputValue("#cfg-p0-a0-id")) === "111", `${tag}: Add account lost the typed id`);
    check((await page.locator("#cfg-p0-a1-id").count()) === 1, `${tag}: Add account showed no new row`);
    await page.fill("#cfg-p0-a1-id", "111");
    await page.fill("#cfg-p0-a1-label", "Brand");
    await page.check("#cfg-p0-a1-default");
    await page.check("#configuration input[name=categories][value=crm_write]");
    let resp = await click(page, "#configuration .config-form > button[value=save]:not(.visually-hidden)");
    check(resp.status() === 422, `${tag}: a duplicate account id answered ${resp.status()}`);
    await refusedBeside(page, tag, "cfg-p0-a1-id", "appears twice");
    check((await page.inputValue("#cfg-p0-a1-label")) === "Brand", `${tag}: the refused form lost the typed label`);
    check(await page.isChecked("#configuration input[name=categories][value=crm_write]"), `${tag}: the refused form lost the category`);
    await fits(page, `${tag} configuration refused`, page.locator("#configuration"));
    await page.fill("#cfg-p0-a1-id", "222");
    resp = await click(page, "#configuration .config-form > button[value=save]:not(.visually-hidden)");
    check(resp.status() === 200 && (await page.locator(".flash").textContent()).includes("Configuration saved."), `${tag}: not saved (${resp.status()})`);
    const t = (await admin(`/admin/tenants/${tenant}`)).tenant;
    const ads = t.providers?.google_ads;
    check(ads?.default === "222" && ads.accounts.length === 2, `${tag}: saved providers ${JSON.stringify(t.providers)}`);
    check(t.approval_policy?.categories?.includes("crm_write"), `${tag}: saved policy ${JSON.stringify(t.approval_policy)}`);
    check(await page.isChecked("#cfg-p0-a1-default"), `${tag}: the page does not show 222 as the default`);

    // The billing plan: none yet; a bad currency refused; fixed; saved.
    await page.goto(`${gw}/console/tenants/${tenant}#billing`);
    check((await page.locator("#billing").textContent()).includes("No billing plan yet"), `${tag}: no "No billing plan yet"`);
    await page.fill("#bill-plan", "growth");
    await page.fill("#bill-currency", "euro");
    await page.fill("#bill-calls", "1000");
    await page.fill("#bill-cat-ads_mutate", "0.5");
    await page.fill("#bill-m0-model", "gpt-4o");
    await page.fill("#bill-m0-input", "0.005");
    await page.fill("#bill-m0-output", "0.015");
    await click(page, "#billing button[value='add-model']");
    check((await page.locator("#bill-m1-model").count()) === 1 && (await page.inputValue("#bill-m0-model")) === "gpt-4o", `${tag}: Add model`);
    resp = await click(page, "#billing .billing-form > button[value=save]:not(.visually-hidden)");
    check(resp.status() === 422, `${tag}: a bad currency answered ${resp.status()}`);
    await refusedBeside(page, tag, "bill-currency", "ISO 4217");
    check((await page.inputValue("#bill-m0-output")) === "0.015", `${tag}: the refused plan lost the model's price`);
    await fits(page, `${tag} billing refused`, page.locator("#billing"));
    await page.fill("#bill-currency", "EUR");
    resp = await click(page, "#billing .billing-form > button[value=save]:not(.visually-hidden)");
    check(resp.status() === 200 && (await page.locator(".flash").textContent()).includes("Billing plan saved."), `${tag}: plan not saved (${resp.status()})`);
    const plan = await admin(`/admin/billing/${tenant}`);
    check(plan.plan === "growth" && plan.currency === "EUR" && plan.included_calls === 1000 &&
      plan.chat_token_price?.by_model?.["gpt-4o"]?.output === 0.015 && plan.tool_call_price?.by_category?.ads_mutate === 0.5,
      `${tag}: saved plan ${JSON.stringify(plan)}`);
    await fits(page, `${tag} saved`, page.locator("#configuration"));
    await ctx.close();
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify({ checks, failures, screenshots }));
