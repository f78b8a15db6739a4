// site-browser.mjs: reads the site and the docs as a person does, in a real
// Chromium (Debian's, driven by playwright-core) with JavaScript off, at a
// desktop and a phone width, in light and dark colour schemes. It follows the
// navigation by clicking, checks what a reader sees, and prints one JSON line:
// {"checks": N, "failures": [...], "screenshots": [...]}.
//
// Environment: GTMGATE_SITE_URL, GTMGATE_DOCS_URL, CHROMIUM (the browser's
// path), SCREENSHOT_DIR (optional: where to save a PNG of each page).
import { check, checks, failures, launchChromium } from "./browser.mjs";
import path from "node:path";

const site = process.env.GTMGATE_SITE_URL;
const docs = process.env.GTMGATE_DOCS_URL;
const shots = process.env.SCREENSHOT_DIR;
const screenshots = [];


const browser = await launchChromium();

const viewports = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
};

// readable checks the page a reader landed on: a status, one visible h1,
// the site navigation, no sideways scrolling of the page itself, and text
// that stands out from its background.
async function readable(page, label, resp, wantStatus, wantH1) {
  check(resp && resp.status() === wantStatus, `${label}: status ${resp && resp.status()}, want ${wantStatus}`);
  const h1 = page.locator("main h1");
  check(await h1.count() === 1, `${label}: ${await h1.count()} h1 in main`);
  if (await h1.count() === 1) {
    check(await h1.isVisible(), `${label}: h1 not visible`);
    const text = (await h1.textContent()).trim();
    check(text.includes(wantH1), `${label}: h1 "${text}", want "${wantH1}"`);
  }
  const navLinks = page.locator("header nav a");
  check(await navLinks.count() >= 5, `${label}: ${await navLinks.count()} navigation links`);
  const layout = await page.evaluate(() => {
    const doc = document.documentElement;
    const body = getComputedStyle(document.body);
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, color: body.color, background: body.backgroundColor };
  });
  check(layout.scrollWidth <= layout.clientWidth, `${label}: page is ${layout.scrollWidth}px wide in a ${layout.clientWidth}px window`);
  check(layout.color !== layout.background, `${label}: text colour equals background (${layout.color})`);
  if (shots) {
    const file = path.join(shots, label.replace(/[^a-z0-9]+/gi, "-") + ".png");
    await page.screenshot({ path: file, fullPage: false });
    screenshots.push(file);
  }
  return layout;
}

for (const [name, viewport] of Object.entries(viewports)) {
  for (const colorScheme of ["light", "dark"]) {
    const ctx = await browser.newContext({ viewport, colorScheme, javaScriptEnabled: false });
    const page = await ctx.newPage();
    const tag = `${name}/${colorScheme}`;

    const home = await readable(page, `${tag} home`, await page.goto(site + "/"), 200, "");
    if (colorScheme === "dark") {
      check(home.background !== "rgb(255, 255, 255)", `${tag} home: white background in dark mode`);
    }
    check((await page.title()).length > 0, `${tag} home: no <title>`);

    // Follow the navigation by clicking, as a reader does.
    const pricingLink = page.locator("header nav a", { hasText: "Pricing" });
    check(await pricingLink.count() === 1, `${tag}: no Pricing link in the navigation`);
    if (await pricingLink.count() === 1) {
      const [resp] = await Promise.all([page.waitForNavigation(), pricingLink.click()]);
      check(new URL(page.url()).pathname === "/pricing", `${tag}: Pricing link led to ${page.url()}`);
      await readable(page, `${tag} pricing`, resp, 200, "Pricing");
      const current = page.locator('header nav a[aria-current="page"]');
      check(await current.count() === 1 && (await current.textContent()).includes("Pricing"),
        `${tag} pricing: the navigation does not mark the current page`);
    }

    await readable(page, `${tag} insight`, await page.goto(site + "/insights/the-30-day-install-playbook"), 200, "");
    const agentLinks = await page.evaluate(() => [...document.querySelectorAll("link[rel=alternate]")].map((l) => l.getAttribute("href")));
    check(agentLinks.some((h) => h && h.endsWith(".md")), `${tag} insight: no link to the page's markdown (${agentLinks})`);

    // Search from the header form (a plain GET form: no JavaScript needed),
    // then open the first result.
    for (const [host, base, query] of [["site", site, "pricing"], ["docs", docs, "bearer token"]]) {
      await page.goto(base + "/");
      const box = page.locator('header form[role="search"] input[name="q"]');
      check(await box.count() === 1, `${tag} ${host}: no search box in the header`);
      if (await box.count() !== 1) continue;
      await box.fill(query);
      const [resp] = await Promise.all([page.waitForNavigation(), box.press("Enter")]);
      check(new URL(page.url()).pathname === "/search", `${tag} ${host}: search led to ${page.url()}`);
      await readable(page, `${tag} ${host} search`, resp, 200, "Search");
      const first = page.locator("main ol.results li a").first();
      check(await first.count() === 1, `${tag} ${host} search: no results for "${query}"`);
      check(await page.locator("main ol.results mark").count() > 0, `${tag} ${host} search: no highlighted match`);
      check(await box.inputValue() === query, `${tag} ${host} search: the box lost the query`);
      if (await first.count() === 1) {
        const title = (await first.textContent()).trim();
        const [hit] = await Promise.all([page.waitForNavigation(), first.click()]);
        await readable(page, `${tag} ${host} search hit`, hit, 200, title);
      }
    }

    await readable(page, `${tag} 404`, await page.goto(site + "/no-such-page"), 404, "not found");
    for (const href of ["/sitemap.xml", "/llms.txt", "/"]) {
      check(await page.locator(`main a[href="${href}"]`).count() > 0, `${tag} 404: no link to ${href}`);
    }

    await readable(page, `${tag} docs`, await page.goto(docs + "/"), 200, "gtmgate");
    const quickstart = page.locator("header nav a", { hasText: "Quickstart" });
    if (await quickstart.count() === 1) {
      const [resp] = await Promise.all([page.waitForNavigation(), quickstart.click()]);
      await readable(page, `${tag} docs quickstart`, resp, 200, "");
      check(await page.locator("main pre code").count() > 0, `${tag} docs quickstart: no code blocks`);
    } else {
      check(false, `${tag} docs: no Quickstart link in the navigation`);
    }
    await ctx.close();
  }
}

await browser.close();
console.log(JSON.stringify({ checks, failures, screenshots }));
