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
