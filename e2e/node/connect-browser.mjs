// connect-browser.mjs: "Connect accounts" in a real Chromium (Debian's,
// driven by playwright-core), with JavaScript on and off. For each run's
// tenant: the operator signs in to the console and makes a HubSpot connect
// link, opens it as the owner, consents on the sandbox's page and lands on
// "HubSpot connected"; the used link then shows "already used"; a second
// link denied at the sandbox ends on a refusal page; two links open in two
// tabs of one browser both complete; a form on another site posting to a
// link's start is refused (403) and the link still works; a Google link whose
// grant reaches several accounts shows the picker, where one GA4 property
// is ticked. Prints one JSON line:
// {"checks": N, "failures": [...], "runs": [{"tenant", "link", "code",
// "state", "ga4"}]}: the HubSpot link, the callback's code and state, and
// the GA4 account ticked, for the Go side's checks.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, GTMGATE_TENANTS
// (comma separated, one per run: JavaScript on, then off), CHROMIUM;
// CONNECT_SHOTS, a directory for screenshots (none when unset).
import { check, checks, failures, launchChromium } from "./browser.mjs";

const gw = process.env.GTMGATE_GATEWAY_URL;
const key = process.env.GTMGATE_ADMIN_KEY;
const tenants = (process.env.GTMGATE_TENANTS || "").split(",");
const runs = [];


const browser = await launchChromium();

// press clicks a button and waits for the page it leads to (through any
// redirects); it returns the last response.
async function press(page, button) {
  const [resp] = await Promise.all([page.waitForNavigation(), button.click()]);
  return resp;
}

// shoot saves a screenshot under CONNECT_SHOTS, when set.
async function shoot(page, name) {
  if (process.env.CONNECT_SHOTS) await page.screenshot({ path: `${process.env.CONNECT_SHOTS}/${name}.png`, fullPage: true });
}

const text = async (page) => (await page.locator("body").innerText()).replace(/\s+/g, " ");

// newLink makes a connect link on the tenant's console page and returns
// its URL.
async function newLink(page, tag, tenant, provider) {
  await page.goto(gw + `/console/tenants/${tenant}`);
  await page.selectOption("#connect-provider", provider);
  await press(page, page.locator(`form[action='/console/tenants/${tenant}/connect-links'] button[type=submit]`));
  const url = ((await page.locator("#new-link").textContent()) || "").trim();
  check(url.startsWith(gw + "/connect/"), `${tag}: ${provider} link "${url}"`);
  return url;
}

for (const [i, js] of [true, false].entries()) {
  const tag = js ? "js" : "nojs";
  const tenant = tenants[i];
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: js });
  const page = await ctx.newPage();
  const run = { tenant };

  // 1. The operator signs in and makes a HubSpot link.
  await page.goto(gw + "/console/signin");
  await page.fill("#admin_key", key);
  await press(page, page.locator("form[action='/console/signin'] button[type=submit]"));
  check(!page.url().includes("/console/signin"), `${tag}: still at sign-in (${page.url()})`);
  const link = await newLink(page, tag, tenant, "hubspot");
  run.link = link;
  check((await page.locator("section.token h2").textContent()).includes("hubspot"), `${tag}: the link's card does not name HubSpot`);
  check(await page.locator("button.copy[data-copy=new-link]").isVisible() === js, `${tag}: Copy visible is not ${js}`);
  const open = page.locator("section.token a", { hasText: "Open" });
  check(await open.getAttribute("href") === link, `${tag}: Open goes to ${await open.getAttribute("href")}`);
  // The link is shown once: the page opened again does not hold it.
  await page.goto(gw + `/console/tenants/${tenant}`);
  check(await page.locator("#new-link").count() === 0 && !(await text(page)).includes(link), `${tag}: the link is shown again`);

  // 2. The owner opens it in the same browser, consents and is done. A
  // second link is open in another tab of the same browser all along: both
  // pages are shown, both Continues pressed, the second consented first,
  // and each link completes (each has its own cookies).
  const second = await newLink(page, tag, tenant, "hubspot");
  const owner = await ctx.newPage();
  const owner2 = await ctx.newPage();
  let resp = await owner.goto(link);
  check(resp.status() === 200, `${tag}: link page ${resp.status()}`);
  let body = await text(owner);
  for (const want of [tenant, "gtmgate asks to connect your HubSpot account", "Read your HubSpot contacts", "crm.objects.contacts.read", "works once"]) check(body.includes(want), `${tag}: link page lacks "${want}": ${body}`);
  resp = await owner2.goto(second);
  check(resp.status() === 200, `${tag}: second link page ${resp.status()}`);
  await shoot(owner, `link-${tag}`);
  resp = await press(owner, owner.getByRole("button", { name: "Continue to HubSpot" }));
  check(new URL(owner.url()).pathname === "/oauth/authorize", `${tag}: Continue led to ${owner.url()}`);
  check((await text(owner)).includes("sandbox — consent"), `${tag}: no sandbox consent page`);
  await press(owner2, owner2.getByRole("button", { name: "Continue to HubSpot" }));
  check(new URL(owner2.url()).pathname === "/oauth/authorize", `${tag}: second tab's Continue led to ${owner2.url()}`);
  resp = await press(owner2, owner2.getByRole("button", { name: "Allow" }));
  body = await text(owner2);
  check(resp.status() === 200 && body.includes("Your HubSpot account is connected"), `${tag}: second tab, consented first: ${resp.status()} ${body}`);
  resp = await press(owner, owner.getByRole("button", { name: "Allow" }));
  body = await text(owner);
  check(resp.status() === 200 && owner.url().startsWith(gw + "/connect/callback"), `${tag}: after Allow ${resp.status()} at ${owner.url()}: ${body}`);
  const answer = new URL(owner.url()).searchParams;
  run.code = answer.get("code");
  run.state = answer.get("state");
  check(body.includes("Your HubSpot account is connected") && body.includes("HubSpot portal") && body.includes(tenant), `${tag}: done page: ${body}`);
  await owner2.close();

  // 3. A form on another site posting to a link's start (even with the
  // page's token) is refused with a page that says what to do; the link
  // still works from its own page.
  const target = await newLink(page, tag, tenant, "hubspot");
  await owner.goto(target);
  const token = await owner.locator("input[name=csrf]").getAttribute("value");
  check((token || "").length > 20, `${tag}: the link page's form has no token`);
  await ctx.route("http://evil.example/**", (r) => r.fulfill({ contentType: "text/html",
    body: `<!doctype html><title>Prize</title><form method="post" action="${target}"><input type="hidden" name="csrf" value="${token}"><button type="submit">Claim your prize</button></form><p><a href="${target}">Open the link</a></p>` }));
  const evil = await ctx.newPage();
  await evil.goto("http://evil.example/");
  resp = await press(evil, evil.getByRole("button", { name: "Claim your prize" }));
  body = await text(evil);
  check(resp.status() === 403 && body.includes("Press Continue on the link's page") && body.includes("the link still works"), `${tag}: cross-site start ${resp.status()}: ${body}`);
  check(!new URL(evil.url()).pathname.startsWith("/oauth"), `${tag}: the cross-site start reached the provider: ${evil.url()}`);
  await shoot(evil, `refused-${tag}`);
  await evil.setViewportSize({ width: 390, height: 844 });
  await shoot(evil, `refused-${tag}-390`);
  if (js) check(await evil.evaluate(() => document.documentElement.scrollWidth <= 390), `${tag}: the refusal overflows 390 px`);
  resp = await press(evil, evil.getByRole("link", { name: "Open the link's page again" }));
  check(resp.status() === 200 && (await text(evil)).includes("asks to connect your HubSpot account"), `${tag}: "Open the link's page again" led to ${resp.status()}`);
  // Opened from another site's page (as from a mail), the link's own
  // Continue works: its page's cookie is set on that cross-site navigation.
  await evil.goto("http://evil.example/");
  resp = await press(evil, evil.getByRole("link", { name: "Open the link" }));
  check(resp.status() === 200, `${tag}: the link opened from another site: ${resp.status()}`);
  await press(evil, evil.getByRole("button", { name: "Continue to HubSpot" }));
  resp = await press(evil, evil.getByRole("button", { name: "Allow" }));
  check(resp.status() === 200 && (await text(evil)).includes("Your HubSpot account is connected"), `${tag}: the link after a refused cross-site start: ${resp.status()} ${await text(evil)}`);
  await evil.close();

  // 4. Refusals: the used link; a denied consent.
  resp = await owner.goto(link);
  check(resp.status() === 410 && (await text(owner)).includes("already used"), `${tag}: reopened link ${resp.status()}: ${await text(owner)}`);
  const denied = await newLink(page, tag, tenant, "hubspot");
  await owner.goto(denied);
  await press(owner, owner.getByRole("button", { name: "Continue to HubSpot" }));
  resp = await press(owner, owner.getByRole("button", { name: "Deny" }));
  body = await text(owner);
  check(resp.status() === 403 && body.includes("Not connected") && body.includes("refused"), `${tag}: after Deny ${resp.status()}: ${body}`);
  resp = await owner.goto(denied);
  check(resp.status() >= 400, `${tag}: the denied link opens again (${resp.status()})`);

  // Google: the picker; one GA4 property is ticked.
  const google = await newLink(page, tag, tenant, "google");
  await owner.goto(google);
  await press(owner, owner.getByRole("button", { name: "Continue to Google" }));
  resp = await press(owner, owner.getByRole("button", { name: "Allow" }));
  body = await text(owner);
  check(resp.status() === 200 && body.includes("Choose the Google accounts") && body.includes("GA4 properties"), `${tag}: no picker: ${body}`);
  const boxes = owner.locator("input[type=checkbox][name=account]");
  check(await boxes.count() >= 2, `${tag}: the picker offers ${await boxes.count()} accounts`);
  const ga4 = owner.locator("input[type=checkbox][name=account][value^='ga4:']").first();
  run.ga4 = await ga4.getAttribute("value");
  await ga4.check();
  resp = await press(owner, owner.getByRole("button", { name: "Connect the chosen accounts" }));
  body = await text(owner);
  check(resp.status() === 200 && body.includes("Your Google account is connected") && body.includes("GA4 property"), `${tag}: after the picker ${resp.status()}: ${body}`);
  check(!body.includes("Gmail"), `${tag}: an account not ticked was connected: ${body}`);

  // The console lists the tenant's links with their outcomes.
  await page.goto(gw + `/console/tenants/${tenant}`);
  const links = await page.locator("#connect table").innerText();
  check((links.match(/completed/g) || []).length === 4, `${tag}: console lists ${links}`);
  runs.push(run);
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures, runs }));
