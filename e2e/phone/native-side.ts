import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { PlayAccount, PlayBilling, PURCHASE_PLUGIN_METHODS } from './play-billing.js';

/**
 * The native half of Capacitor's bridge, standing in for the Android shell: the page gets the same
 * script the shell injects (`window.Capacitor` with its globals, Capacitor's own native-bridge.js
 * and the plugins' headers), so `@capacitor/core` sees Android and sends every plugin call through
 * `androidBridge.postMessage`. The calls are answered here, in the shapes the plugins' Android
 * implementations resolve with, through `Capacitor.fromNative` as the shell's MessageHandler does.
 */

const require = createRequire(import.meta.url);

/** The page's origin inside the Android shell. */
export const PHONE_ORIGIN = 'https://localhost';

/** One plugin call as native-bridge.js posts it. */
interface NativeCall {
  callbackId: string;
  pluginId: string;
  methodName: string;
  options: Record<string, unknown>;
}

/** What a plugin method answers: data to resolve with, or an error to reject with. */
type Answer = { data?: unknown } | { error: { message: string; code?: string } };

interface Listener {
  page: Page;
  pluginId: string;
  eventName: string;
  callbackId: string;
}

/**
 * The methods each plugin registers on Android with their return type (`promise`, or `callback`
 * for listeners), as JSExport writes them into `Capacitor.PluginHeaders`. Core calls natively
 * only what is listed here.
 */
const PLUGINS: Record<string, string[]> = {
  App: ['exitApp', 'getInfo', 'getLaunchUrl', 'getState', 'minimizeApp', 'toggleBackButtonHandler', 'getAppLanguage'],
  Browser: ['open', 'close'],
  Camera: [
    'takePhoto',
    'recordVideo',
    'chooseFromGallery',
    'editPhoto',
    'getPhoto',
    'pickImages',
    'checkPermissions',
    'requestPermissions',
  ],
  Filesystem: [
    'readFile',
    'writeFile',
    'appendFile',
    'deleteFile',
    'mkdir',
    'rmdir',
    'readdir',
    'getUri',
    'stat',
    'rename',
    'copy',
  ],
  Keyboard: ['show', 'hide', 'setAccessoryBarVisible', 'setStyle', 'setResizeMode', 'getResizeMode', 'setScroll'],
  // capacitor-plugin-cdv-purchase's Android side (Google Play Billing): play-billing.ts answers it.
  PurchasePlugin: PURCHASE_PLUGIN_METHODS,
  Preferences: ['configure', 'get', 'set', 'remove', 'keys', 'clear', 'migrate', 'removeOld'],
  Share: ['canShare', 'share'],
  // @capgo/capacitor-social-login's Android side: Google's Credential Manager sheet, answered by `signInSheet`.
  SocialLogin: [
    'initialize',
    'login',
    'logout',
    'isLoggedIn',
    'getAuthorizationCode',
    'refresh',
    'refreshToken',
    'decodeIdToken',
    'getPluginVersion',
    'providerSpecificCall',
  ],
  SplashScreen: ['show', 'hide'],
  StatusBar: ['setStyle', 'setBackgroundColor', 'show', 'hide', 'getInfo', 'setOverlaysWebView'],
};

function pluginHeaders(): unknown[] {
  return Object.entries(PLUGINS).map(([name, methods]) => ({
    name,
    methods: [
      { name: 'addListener', rtype: 'callback' },
      { name: 'removeListener', rtype: 'callback' },
      { name: 'removeAllListeners', rtype: 'promise' },
      ...methods.map((m) => ({ name: m, rtype: 'promise' })),
    ],
  }));
}

/** Android's external storage and the app's folders, as the Filesystem plugin names them. */
const DIRECTORY_ROOTS: Record<string, string> = {
  EXTERNAL_STORAGE: '/storage/emulated/0',
  DOCUMENTS: '/storage/emulated/0/Documents',
  LIBRARY: '/data/user/0/app.till.mobile/files',
  DATA: '/data/user/0/app.till.mobile/files',
  CACHE: '/data/user/0/app.till.mobile/cache',
};

/** A file on the stand-in phone. */
export interface PhoneFile {
  /** Base64 (no encoding given) or text (an encoding given), as it was written. */
  data: string;
  encoding?: string;
}

export class NativeSide {
  /** What `@capacitor/preferences` holds (Android's SharedPreferences). */
  readonly preferences = new Map<string, string>();
  /** Files by absolute path. */
  readonly files = new Map<string, PhoneFile>();
  /** Every plugin call, in order, for tests to read. */
  readonly calls: NativeCall[] = [];
  /** Addresses `Browser.open` was asked to show, in order. */
  readonly browserOpened: string[] = [];
  browserOpen = false;
  /**
   * The provider's sign-in sheet (SocialLogin.login): given the login's options (provider, nonce),
   * answers what the plugin's Android side resolves with; unset, the person cancels.
   */
  signInSheet: ((options: Record<string, unknown>) => Promise<unknown>) | undefined;
  /** What SocialLogin.initialize was given, in order. */
  readonly socialInitialized: Record<string, unknown>[] = [];
  /** The photo the gallery picker hands over next; null: the user cancels. */
  nextPick: { bytes: Buffer; mimeType: string } | null = null;
  /** Google Play Billing on this phone, for the Google account `play` (by default one that bought nothing, with no products). */
  readonly billing: PlayBilling;
  private readonly listeners: Listener[] = [];
  private readonly retained = new Map<string, unknown[]>();

  /**
   * `platform`: the shell stood in for. `ios` injects what Capacitor's iOS shell does instead:
   * `webkit.messageHandlers.bridge` (calls posted as objects), iOS's native-bridge.js, and answers
   * to the bridge's synchronous `prompt` questions (CapacitorCookies, CapacitorHttp: off, as in
   * this app's configuration). The page's origin stays `https://localhost` (iOS serves
   * `capacitor://localhost`, a scheme the test browser cannot serve).
   */
  constructor(
    play: PlayAccount = new PlayAccount('app.till.mobile', []),
    readonly platform: 'android' | 'ios' = 'android',
  ) {
    this.billing = new PlayBilling(play, (eventName, data) => this.emit('PurchasePlugin', eventName, data));
  }

  /** The script the shell puts at the top of every page it loads. */
  initScript(): string {
    if (this.platform === 'ios') {
      const bridge = readFileSync(
        require.resolve('@capacitor/ios/Capacitor/Capacitor/assets/native-bridge.js'),
        'utf8',
      );
      return [
        `window.Capacitor = { DEBUG: false, isLoggingEnabled: false, Plugins: {} };`,
        `window.WEBVIEW_SERVER_URL = ${JSON.stringify(PHONE_ORIGIN)};`,
        // WKWebView's script message handler: calls go out as objects, answers come back through fromNative.
        `window.webkit = { messageHandlers: { bridge: { postMessage(data) {
          window.__tillNative(JSON.parse(JSON.stringify(data))).then((reply) => { if (reply) window.Capacitor.fromNative(reply); });
        } } } };`,
        // WebViewDelegationHandler's text input panel: the bridge's synchronous questions.
        `window.prompt = (text) => {
          try {
            const asked = JSON.parse(text);
            if (asked.type === 'CapacitorCookies.isEnabled' || asked.type === 'CapacitorHttp') return 'false';
          } catch {}
          return null;
        };`,
        bridge,
        `window.Capacitor.PluginHeaders = ${JSON.stringify(pluginHeaders())};`,
      ].join('\n\n');
    }
    const bridge = readFileSync(
      require.resolve('@capacitor/android/capacitor/src/main/assets/native-bridge.js'),
      'utf8',
    );
    return [
      `window.Capacitor = { DEBUG: false, isLoggingEnabled: false, Plugins: {} };`,
      `window.WEBVIEW_SERVER_URL = ${JSON.stringify(PHONE_ORIGIN)};`,
      // The shell's JavaScript interface: calls go out as JSON, answers come back through fromNative.
      `window.androidBridge = { postMessage(json) {
        window.__tillNative(JSON.parse(json)).then((reply) => { if (reply) window.Capacitor.fromNative(reply); });
      } };`,
      bridge,
      `window.Capacitor.PluginHeaders = ${JSON.stringify(pluginHeaders())};`,
    ].join('\n\n');
  }

  /** Answers one call from the page (the binding `__tillNative`). */
  async receive(page: Page, call: NativeCall & { type?: string }): Promise<unknown> {
    // iOS posts its console and window errors on the same channel; the shell logs them, answering nothing.
    if ((call.type !== undefined && call.type !== 'message') || call.pluginId === 'Console') return null;
    this.calls.push(call);
    const reply = { callbackId: call.callbackId, pluginId: call.pluginId, methodName: call.methodName };
    if (call.methodName === 'addListener') {
      const eventName = String(call.options.eventName);
      this.listeners.push({ page, pluginId: call.pluginId, eventName, callbackId: call.callbackId });
      // Events kept until someone listens (App's appUrlOpen) reach the first listener.
      const key = `${call.pluginId}:${eventName}`;
      const kept = this.retained.get(key);
      if (kept) {
        this.retained.delete(key);
        queueMicrotask(() => kept.forEach((data) => void this.emit(call.pluginId, eventName, data)));
      }
      // The listener's call stays open: native answers nothing now, each event comes back on it.
      return null;
    }
    if (call.methodName === 'removeListener') {
      const i = this.listeners.findIndex((l) => l.callbackId === call.options.callbackId && l.page === page);
      if (i >= 0) this.listeners.splice(i, 1);
      return null;
    }
    if (call.methodName === 'removeAllListeners') {
      for (let i = this.listeners.length - 1; i >= 0; i--)
        if (this.listeners[i]!.pluginId === call.pluginId && this.listeners[i]!.page === page)
          this.listeners.splice(i, 1);
      return { ...reply, save: false, success: true };
    }
    const answer = await this.answer(call);
    if ('error' in answer) return { ...reply, save: false, success: false, error: answer.error };
    return { ...reply, save: false, success: true, ...(answer.data === undefined ? {} : { data: answer.data }) };
  }

  /** Tells the page's listeners of a plugin event, as the plugin's notifyListeners does. */
  async emit(pluginId: string, eventName: string, data: unknown = {}, retain = false): Promise<void> {
    const targets = this.listeners.filter((l) => l.pluginId === pluginId && l.eventName === eventName);
    if (!targets.length && retain) {
      const key = `${pluginId}:${eventName}`;
      this.retained.set(key, [...(this.retained.get(key) ?? []), data]);
      return;
    }
    for (const l of targets)
      await l.page
        .evaluate(
          (r) => (window as unknown as { Capacitor: { fromNative(r: unknown): void } }).Capacitor.fromNative(r),
          { callbackId: l.callbackId, pluginId, methodName: 'addListener', save: true, success: true, data },
        )
        .catch((error: unknown) => {
          // The page that listened has gone (a navigation, a closed phone): as in the shell, its
          // listeners go with it and the event is not delivered.
          if (!/Execution context was destroyed|Target page, context or browser has been closed/.test(String(error)))
            throw error;
          const i = this.listeners.indexOf(l);
          if (i >= 0) this.listeners.splice(i, 1);
        });
  }

  /** Whether the page listens to that event now. */
  listens(pluginId: string, eventName: string): boolean {
    return this.listeners.some((l) => l.pluginId === pluginId && l.eventName === eventName);
  }

  /** The app comes back to the foreground (AppPlugin's handleOnResume). */
  resume(): Promise<void> {
    return this.emit('App', 'resume', {});
  }

  /** The system hands the app a link it is registered for (AppPlugin's handleOnNewIntent). */
  openUrl(url: string): Promise<void> {
    return this.emit('App', 'appUrlOpen', { url }, true);
  }

  /** The user closes the system browser's tab: BrowserPlugin's browserFinished. */
  async finishBrowser(): Promise<void> {
    this.browserOpen = false;
    await this.emit('Browser', 'browserFinished', {});
  }

  /** The address of a file under a Filesystem directory. */
  static pathOf(directory: unknown, path: unknown): string {
    const root = typeof directory === 'string' ? (DIRECTORY_ROOTS[directory] ?? '') : '';
    const rel = String(path).replace(/^\/+/, '');
    return root ? `${root}/${rel}` : `/${rel}`;
  }

  private async answer(call: NativeCall): Promise<Answer> {
    const o = call.options;
    if (call.pluginId === 'PurchasePlugin') return this.billing.answer(call.methodName, o);
    switch (`${call.pluginId}.${call.methodName}`) {
      case 'Preferences.get':
        return { data: { value: this.preferences.get(String(o.key)) ?? null } };
      case 'Preferences.set':
        this.preferences.set(String(o.key), String(o.value));
        return {};
      case 'Preferences.remove':
        this.preferences.delete(String(o.key));
        return {};
      case 'Preferences.keys':
        return { data: { keys: [...this.preferences.keys()] } };
      case 'Preferences.clear':
        this.preferences.clear();
        return {};
      case 'Filesystem.writeFile': {
        const path = NativeSide.pathOf(o.directory, o.path);
        this.files.set(path, { data: String(o.data), ...(o.encoding ? { encoding: String(o.encoding) } : {}) });
        return { data: { uri: `file://${path}` } };
      }
      case 'Filesystem.readFile': {
        const file = this.files.get(NativeSide.pathOf(o.directory, o.path));
        if (!file) return { error: { message: 'File does not exist.', code: 'OS-PLUG-FILE-0008' } };
        return { data: { data: file.data } };
      }
      case 'Camera.chooseFromGallery': {
        const pick = this.nextPick;
        this.nextPick = null;
        if (!pick) return { error: { message: 'User cancelled photos app', code: 'OS-PLUG-CAMR-0006' } };
        const path = `/data/user/0/app.till.mobile/cache/picked-${this.files.size}.jpg`;
        this.files.set(path, { data: pick.bytes.toString('base64') });
        return {
          data: {
            results: [
              {
                type: 'photo',
                uri: `file://${path}`,
                webPath: `${PHONE_ORIGIN}/_capacitor_file_${path}`,
                saved: false,
                metadata: { format: pick.mimeType === 'image/png' ? 'png' : 'jpeg' },
              },
            ],
          },
        };
      }
      case 'Browser.open':
        this.browserOpened.push(String(o.url));
        this.browserOpen = true;
        return {};
      case 'Browser.close':
        // Android brings the app's own activity back over the custom tab and resolves.
        this.browserOpen = false;
        return {};
      case 'SocialLogin.initialize':
        this.socialInitialized.push(o);
        return {};
      case 'SocialLogin.login':
        if (!this.signInSheet) return { error: { message: 'User cancelled', code: 'USER_CANCELLED' } };
        return { data: await this.signInSheet(o) };
      case 'Share.share':
        return { data: { activityType: '' } };
      case 'App.getLaunchUrl':
        return {};
      case 'App.getState':
        return { data: { isActive: true } };
      case 'App.getInfo':
        return { data: { name: 'Till', id: 'app.till.mobile', build: '1', version: '0.1.0' } };
      case 'App.getAppLanguage':
        return { data: { value: 'en' } };
      case 'App.minimizeApp':
      case 'App.toggleBackButtonHandler':
      case 'Keyboard.setAccessoryBarVisible':
      case 'SplashScreen.hide':
      case 'StatusBar.setStyle':
        return {};
      default:
        return {
          error: {
            message: `${call.pluginId}.${call.methodName} is not answered by the stand-in`,
            code: 'UNIMPLEMENTED',
          },
        };
    }
  }
}
