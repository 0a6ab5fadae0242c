/** Debian's Chromium, which scripts/ensure-chromium.sh installs when missing. */
export const CHROMIUM = '/usr/bin/chromium';

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
