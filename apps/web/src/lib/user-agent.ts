import type { TFunction } from '@/lib/translator';
import Bowser from 'bowser';

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
  const { browser, os } = Bowser.parse(userAgent);
  if (!browser.name && !os.name) return t('profile.unknownDevice');
  const majorVersion = browser.version?.split('.')[0];
  const major = majorVersion ? ` ${majorVersion}` : '';
  // Windows reports "NT 10.0"; its marketing name ("10") is what people know.
  const osVersion = os.versionName ?? os.version;
  const system = os.name ? `${os.name}${osVersion ? ` ${osVersion}` : ''}` : t('security.sessions.unknownOs');
  return t('security.sessions.name', {
    browser: browser.name ? `${browser.name}${major}` : t('security.sessions.unknownBrowser'),
    os: system,
  });
}
