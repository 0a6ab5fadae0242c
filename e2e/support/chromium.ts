/** Debian's Chromium, which scripts/ensure-chromium.sh installs when missing: the web benchmark's browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Chromium's headless shell, the same engine without the desktop browser around it (Debian's
 * chromium-headless-shell, the build Playwright itself runs headless): the browser tests' browser, which
 * serves their pages with less of the machine than the full browser in headless mode
 * (docs/decisions/024-browser-tests-in-the-headless-shell.md).
 */
export const CHROMIUM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Headless, and quiet: no background traffic or updates to disturb a test or a measurement. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
