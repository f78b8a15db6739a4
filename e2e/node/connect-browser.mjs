// connect-browser.mjs: "Connect accounts" in a real Chromium (Debian's,
// driven by playwright-core), with JavaScript on and off. For each run's
// tenant: the operator signs in to the console and makes a HubSpot connect
// link, opens it as the owner, consents on the sandbox's page and lands on
// "HubSpot connected"; the used link then shows "already used"; a second
// link denied at the sandbox ends on a refusal page; a Google link whose
// grant reaches several accounts shows the picker, where one GA4 property
// is ticked. Prints one JSON line:
// {"checks": N, "failures": [...], "runs": [{"tenant", "link", "code",
// "state", "ga4"}]}: the HubSpot link, the callback's code and state, and
// the GA4 account ticked, for the Go side's checks.
//
// Environment: GTMGATE_GATEWAY_URL, GTMGATE_ADMIN_KEY, GTMGATE_TENANTS
// (comma separated, one per run: JavaScript on, then off), CHROMIUM.
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

  // 2. The owner opens it in the same browser, consents and is done.
  const owner = await ctx.newPage();
  let resp = await owner.goto(link);
  check(resp.status() === 200, `${tag}: link page ${resp.status()}`);
  let body = await text(owner);
  for (const want of [tenant, "gtmgate asks to connect your HubSpot account", "Read your HubSpot contacts", "crm.objects.contacts.read", "works once"]) check(body.includes(want), `${tag}: link page lacks "${want}": ${body}`);
  resp = await press(owner, owner.getByRole("button", { name: "Continue to HubSpot" }));
  check(new URL(owner.url()).pathname === "/oauth/authorize", `${tag}: Continue led to ${owner.url()}`);
  check((await text(owner)).includes("sandbox — consent"), `${tag}: no sandbox consent page`);
  resp = await press(owner, owner.getByRole("button", { name: "Allow" }));
  body = await text(owner);
  check(resp.status() === 200 && owner.url().startsWith(gw + "/connect/callback"), `${tag}: after Allow ${resp.status()} at ${owner.url()}`);
  const answer = new URL(owner.url()).searchParams;
  run.code = answer.get("code");
  run.state = answer.get("state");
  check(body.includes("Your HubSpot account is connected") && body.includes("HubSpot portal") && body.includes(tenant), `${tag}: done page: ${body}`);

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
  check((links.match(/completed/g) || []).length === 2, `${tag}: console lists ${links}`);
  runs.push(run);
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures, runs }));
