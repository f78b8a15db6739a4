// browser.mjs: what the browser scripts share: Chromium launched from
// CHROMIUM with the flags a sandboxed CI machine needs, and the tally of
// checks each script prints as its last JSON line.
import { chromium } from "playwright-core";

export const failures = [];
export let checks = 0;

// check counts one check, and records what when it failed.
export function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
}

// launchChromium starts the Chromium the project's install-browser.sh put
// at CHROMIUM.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

// checkFits checks that page is no wider than its window (nothing scrolls
// sideways), naming the page by label.
export async function checkFits(page, label) {
  const layout = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
  check(layout.sw <= layout.cw, `${label}: page is ${layout.sw}px wide in a ${layout.cw}px window`);
}

// press clicks locator and waits for the navigation it starts; the answer
// is the navigation's response.
export async function press(page, locator) {
  const [resp] = await Promise.all([page.waitForNavigation(), locator.click()]);
  return resp;
}
