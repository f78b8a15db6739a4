// people-browser.mjs: people sign in to two gtmgate replicas through real
// OpenID providers (e2e/idpsrv processes) in Chromium: an approver of
// tenant demo approves a held budget change and sees demo only; a client
// company's person signs in through their own IdP and sees their tenant
// only; someone without a role is refused; revoking a grant and removing a
// person end their sessions on both replicas; a group removed at the IdP
// refuses the next sign-in. Prints one JSON line: {"checks": N, "failures": [...]}.
//
// Environment: GATEWAY_A, GATEWAY_B (the replicas), ADMIN_KEY, APPROVAL_ID
// (a held call of demo), CORP_IDP (the agency IdP's base URL, for its test
// endpoint), ADA_GRANT (the id of the grant that makes Ada an approver),
// CHROMIUM.
import { check, checks, failures, launchChromium } from "./browser.mjs";

const A = process.env.GATEWAY_A;
const B = process.env.GATEWAY_B;
const key = process.env.ADMIN_KEY;


async function admin(method, url, body) {
  const resp = await fetch(url, {
    method,
    headers: { "x-admin-key": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await resp.text();
  return { status: resp.status, json: text ? JSON.parse(text) : null };
}

const browser = await launchChromium();

// signIn signs a fresh browser in at gw through the IdP whose button says
// idpLabel, as the person named who; it returns the page where it ended.
async function signIn(gw, idpLabel, who) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(gw + "/console/approvals");
  check(page.url().includes("/console/signin"), `${who}: not sent to sign-in (${page.url()})`);
  await Promise.all([page.waitForURL((u) => !u.href.startsWith(gw + "/console/signin")), page.getByRole("link", { name: `Sign in with ${idpLabel}` }).click()]);
  check(page.url().includes("/login"), `${who}: not at the IdP's sign-in page (${page.url()})`);
  // The callback's page sends the browser on to where it started
  // (/console/approvals) by itself; wait for it, or the next navigation races it.
  await Promise.all([page.waitForURL(gw + "/console/approvals"), page.getByRole("button", { name: new RegExp(who) }).click()]);
  return page;
}

async function text(page) {
  return await page.locator("body").innerText();
}

// Ada, approver of demo, through the agency's IdP on replica A.
{
  const page = await signIn(A, "Agency SSO", "Ada");
  check(page.url() === A + "/console/approvals", `Ada: after sign-in at ${page.url()}`);
  const body = await text(page);
  check(body.includes("ada@demo.example"), "Ada: the header does not say who is signed in");
  check(!(await page.locator("nav a[href='/console/health']").count()), "Ada: the operator's Health page is in her navigation");
  await page.goto(A + "/console/tenants");
  check((await page.locator("a[href='/console/tenants/demo']").count()) > 0, "Ada: demo is not listed");
  check((await page.locator("a[href='/console/tenants/acme']").count()) === 0, "Ada: acme is listed");
  await page.goto(A + "/console/tenants/acme");
  check((await text(page)).includes("is not among them"), "Ada: acme's page was not refused");
  await page.goto(A + "/console/health");
  check((await text(page)).includes("this page is the operator"), "Ada: the Health page was not refused");

  // Approve the held budget change.
  await page.goto(A + "/console/approvals");
  const form = page.locator(`form[action='/console/approvals/${process.env.APPROVAL_ID}/approve']`);
  check((await form.count()) === 1, "Ada: the held budget change is not on her approvals page");
  await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
  const decided = await admin("GET", `${A}/admin/approvals/${process.env.APPROVAL_ID}`);
  check(decided.json.decided_by === "ada@demo.example" && decided.json.status === "executed",
    `Ada: approval after her decision: ${decided.json.status} by ${decided.json.decided_by}`);

  // The session is in the shared database: replica B knows it.
  await page.goto(B + "/console/tenants");
  check(page.url() === B + "/console/tenants" && (await text(page)).includes("ada@demo.example"), `Ada on replica B: at ${page.url()}`);

  // Revoking the grant ends her session at once, on both replicas.
  const revoked = await admin("DELETE", `${B}/admin/role-grants/${process.env.ADA_GRANT}`);
  check(revoked.status === 200, `revoke Ada's grant: ${revoked.status}`);
  for (const gw of [A, B]) {
    await page.goto(gw + "/console/approvals");
    check(page.url().startsWith(gw + "/console/signin"), `Ada after her grant went, on ${gw}: at ${page.url()}`);
  }
  await page.context().close();
}

// Carl, owner of acme, through acme's own IdP: acme only.
{
  const page = await signIn(B, "Acme Okta", "Carl");
  await page.goto(B + "/console/tenants");
  check((await page.locator("a[href='/console/tenants/acme']").count()) > 0, "Carl: acme is not listed");
  check((await page.locator("a[href='/console/tenants/demo']").count()) === 0, "Carl: demo is listed");
  await page.goto(B + "/console/approvals");
  check(!(await text(page)).includes(process.env.APPROVAL_ID), "Carl: demo's approval is on his page");
  await page.context().close();
}

// Dana, approver of demo through a second, independently configured IdP:
// she decides the second held change.
{
  const page = await signIn(A, "Partner SSO", "Dana");
  await page.goto(A + "/console/tenants");
  check((await page.locator("a[href='/console/tenants/demo']").count()) > 0 && (await page.locator("a[href='/console/tenants/acme']").count()) === 0,
    "Dana: does not see demo alone");
  await page.goto(A + "/console/approvals");
  const form = page.locator(`form[action='/console/approvals/${process.env.SECOND_APPROVAL_ID}/approve']`);
  check((await form.count()) === 1, "Dana: the second held change is not on her approvals page");
  await Promise.all([page.waitForNavigation(), form.locator("button[type=submit]").click()]);
  const decided = await admin("GET", `${A}/admin/approvals/${process.env.SECOND_APPROVAL_ID}`);
  check(decided.json.decided_by === "dana@partner.example" && decided.json.status === "executed",
    `Dana: approval after her decision: ${decided.json.status} by ${decided.json.decided_by}`);
  await page.context().close();
}

// Nina has no role: refused, told what to ask for.
{
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(A + "/console/signin");
  await Promise.all([page.waitForURL(/\/login/), page.getByRole("link", { name: "Sign in with Agency SSO" }).click()]);
  const [resp] = await Promise.all([page.waitForNavigation({ url: (u) => u.href.startsWith(A + "/console/sso/callback") }), page.getByRole("button", { name: /Nina/ }).click()]);
  const body = await text(page);
  check(resp.status() === 403 && body.includes("no role in gtmgate has been given to you") && body.includes("nina@demo.example"),
    `Nina: ${resp.status()} ${body.slice(0, 300)}`);
  await page.goto(A + "/console/approvals");
  check(page.url().includes("/console/signin"), "Nina reached the console");
  await ctx.close();
}

// Victor, viewer of demo: removing him ends his sessions on both replicas.
{
  const page = await signIn(A, "Agency SSO", "Victor");
  const people = await admin("GET", `${A}/admin/people`);
  const victor = people.json.people.find((p) => p.email === "victor@demo.example");
  check(victor, "Victor is not among the people");
  const removed = await admin("DELETE", `${A}/admin/people/${victor.id}`);
  check(removed.status === 200, `remove Victor: ${removed.status}`);
  for (const gw of [B, A]) {
    await page.goto(gw + "/console/tenants");
    check(page.url().startsWith(gw + "/console/signin"), `Victor after removal, on ${gw}: at ${page.url()}`);
  }
  await page.context().close();
}

// Olga, operator admin; then her group is taken away at the IdP, and her
// next sign-in is refused.
{
  const page = await signIn(B, "Agency SSO", "Olga");
  await page.goto(B + "/console/health");
  check(!(await text(page)).includes("this page is the operator"), "Olga: Health refused to an operator");
  await page.context().close();
  const r = await fetch(`${process.env.CORP_IDP}/admin/groups?subject=olga`, { method: "POST", body: "[]" });
  check(r.status === 204, `take Olga's group at the IdP: ${r.status}`);
  const ctx = await browser.newContext();
  const again = await ctx.newPage();
  await again.goto(B + "/console/signin");
  await Promise.all([again.waitForURL(/\/login/), again.getByRole("link", { name: "Sign in with Agency SSO" }).click()]);
  const [resp] = await Promise.all([again.waitForNavigation({ url: (u) => u.href.startsWith(B + "/console/sso/callback") }), again.getByRole("button", { name: /Olga/ }).click()]);
  check(resp.status() === 403, `Olga without her group: ${resp.status()}`);
  await ctx.close();
}

await browser.close();
console.log(JSON.stringify({ checks, failures }));
