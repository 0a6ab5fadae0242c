import { preferencesStorage, type SessionStorage } from '@till/client';
import { isNativeShell } from './platform';

/**
 * Where the session is kept across restarts. The browser: its localStorage. The phone apps: the
 * device's preferences (`@capacitor/preferences`), since the OS may clear a WebView's storage when
 * space runs low, which would sign the user out. The plugin loads with the first read, inside the
 * shell only.
 */
export function appSessionStorage(web: Storage = window.localStorage): SessionStorage {
  if (!isNativeShell()) return web;
  const device = import('@capacitor/preferences').then((m) => preferencesStorage(m.Preferences));
  return {
    async getItem(key) {
      const prefs = await device;
      const kept = await prefs.getItem(key);
      // Earlier versions of the app kept the session in the WebView's storage: it moves over once,
      // so that an update does not sign anyone out (and a move cut short is finished next time).
      const earlier = web.getItem(key);
      if (earlier !== null) {
        if (!kept) await prefs.setItem(key, earlier);
        web.removeItem(key);
      }
      return kept || earlier;
    },
    async setItem(key, value) {
      await (await device).setItem(key, value);
    },
    async removeItem(key) {
      await (await device).removeItem(key);
      web.removeItem(key);
    },
  };
}
