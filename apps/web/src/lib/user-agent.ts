import type { TFunction } from 'i18next';
import { UAParser } from 'ua-parser-js';

/**
 * A session's name from its user agent, as a person says it: "Chrome 131 on Android 14",
 * "Firefox on Windows 10". The whole user-agent string is never shown; an empty or unreadable
 * one reads as an unknown device.
 *
 * @example
 * sessionName(t, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')
 * // 'Chrome 131 on Linux'
 */
export function sessionName(t: TFunction, userAgent: string | null | undefined): string {
  if (!userAgent) return t('profile.unknownDevice');
  const { browser, os } = UAParser(userAgent);
  if (!browser.name && !os.name) return t('profile.unknownDevice');
  const major = browser.major ? ` ${browser.major}` : '';
  const system = os.name ? `${os.name}${os.version ? ` ${os.version}` : ''}` : t('shop.sessions.unknownOs');
  return t('shop.sessions.name', {
    browser: browser.name ? `${browser.name}${major}` : t('shop.sessions.unknownBrowser'),
    os: system,
  });
}
