// gate-browser.mjs: a person opens the link a held call's elicitation gave
// (the gate's page on the console) in Chromium, signs in through the demo's
// IdP, sees exactly what will run, and decides. Prints one JSON line:
// {"checks": N, "failures": [...]}.
//
// Environment: GATE_URL (the elicitation's URL), WHO (the name on the demo
// IdP's button), DECISION (approve or reject), REASON, EXPECT (texts the
// page must show, separated by "|"), CHROMIUM; SCREENSHOT_DIR, when set,
// keeps a PNG of the gate's page as the approver reads it.
import { check, checks, failures, launchChromium } from "./browser.mjs";

const gate = process.env.GATE_URL;
const gw = new URL(gate).origin;
const id = new URL(gate).pathname.split("/").pop();


const browser = await launchChromium();
try {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(gate);
  check(page.url().startsWith(gw + "/console/signin"), `the link did not ask for sign-in first (${page.url()})`);
  await Promise.all([
    page.waitForURL((u) => !u.href.startsWith(gw + "/console/signin")),
    page.getByRole("link", { name: /Sign in with the demo's sandbox IdP/ }).click(),
  ]);
  // The callback's page sends the browser on to the gate by itself.
  await Promise.all([page.waitForURL(gate), page.getByRole("button", { name: new RegExp(process.env.WHO) }).click()]);
  check(page.url() === gate, `after sign-in at ${page.url()}, not the gate's page`);
  const body = await page.locator("body").innerText();
  for (const want of (process.env.EXPECT || "").split("|").filter(Boolean)) {
    check(body.includes(want), `the gate's page does not show ${JSON.stringify(want)}`);
  }
  if (process.env.SCREENSHOT_DIR) {
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/gate-desktop-js-pending.png`, fullPage: true });
  }
  // The gate's page fits a phone: nothing wider than 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check(width <= 390, `the gate's page is ${width} px wide at 390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  const form = page.locator(`form[action='/console/approvals/${id}/${process.env.DECISION}']`);
  check((await form.count()) === 1, `no ${process.env.DECISION} form on the gate's page`);
  if (process.env.REASON) {
    await form.locator("[name=reason]").fill(process.env.REASON);
  }
  await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
  const after = await page.locator("body").innerText();
  check(after.includes(`Approval ${id}: ${process.env.DECISION}d`), `no confirmation after deciding: ${after.slice(0, 300)}`);
} finally {
  await browser.close();
}
console.log(JSON.stringify({ checks, failures }));
