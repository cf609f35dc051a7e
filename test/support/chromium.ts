/**
 * Debian's Chromium, as the browser tests and the bench's Lighthouse drive it: never a
 * downloaded browser (.ci/run installs the package), with the launch flags that work here.
 */
export const chromiumPath = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
