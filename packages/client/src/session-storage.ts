/**
 * Where a {@link Session} keeps itself across reloads. Web Storage (`localStorage`,
 * `sessionStorage`) fits as it is; asynchronous stores (device preferences) may answer promises.
 *
 * @example
 * const till = createTill({ storage: window.localStorage });
 */
export interface SessionStorage {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/**
 * The shape of Capacitor's `Preferences` plugin that {@link preferencesStorage} needs.
 *
 * @example
 * import { Preferences } from '@capacitor/preferences';
 * const prefs: PreferencesLike = Preferences;
 */
export interface PreferencesLike {
  get(options: { key: string }): Promise<{ value: string | null }>;
  set(options: { key: string; value: string }): Promise<void>;
  remove(options: { key: string }): Promise<void>;
}

/**
 * Adapts device preferences (Capacitor's `Preferences`) to {@link SessionStorage}, so the phone
 * app keeps its session without the SDK importing Capacitor.
 *
 * @example
 * import { Preferences } from '@capacitor/preferences';
 * const till = createTill({ storage: preferencesStorage(Preferences) });
 * await till.session.ready;
 */
export function preferencesStorage(preferences: PreferencesLike): SessionStorage {
  return {
    getItem: async (key) => (await preferences.get({ key })).value,
    setItem: (key, value) => preferences.set({ key, value }),
    removeItem: (key) => preferences.remove({ key }),
  };
}

/**
 * A {@link SessionStorage} in memory, for tests and for Node scripts that want to hand a session
 * from one client to another.
 *
 * @example
 * const storage = memoryStorage();
 * const a = createTill({ apiHost, storage });
 */
export function memoryStorage(): SessionStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}
