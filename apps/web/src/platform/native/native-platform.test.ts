import { beforeEach, describe, expect, it, vi } from 'vitest';

// The plugins as Capacitor's JavaScript side exposes them, mocked: each test checks what the app
// passes to them (directories, paths, options) on Android and on iOS.
const cap = vi.hoisted(() => ({
  platform: 'android' as 'android' | 'ios',
  files: new Map<string, string>(),
  listeners: new Map<string, (data: unknown) => void>(),
}));

vi.mock('@capacitor/core', () => ({
  Capacitor: { getPlatform: () => cap.platform, isNativePlatform: () => true },
  // The app's own Android plugin (DownloadsPlugin.java): a name already in Download gets a number.
  registerPlugin: () => ({
    save: vi.fn(async (o: { name: string; data: string }) => {
      const name = cap.files.has(`Download/${o.name}`) ? o.name.replace(/(\.\w+)?$/, ' (1)$1') : o.name;
      cap.files.set(`Download/${name}`, o.data);
      return { name, folder: 'Download', uri: `content://media/external/downloads/${cap.files.size}` };
    }),
    share: vi.fn(async () => undefined),
  }),
}));
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Documents: 'DOCUMENTS', Data: 'DATA', Library: 'LIBRARY', ExternalStorage: 'EXTERNAL_STORAGE' },
  Encoding: { UTF8: 'utf8' },
  Filesystem: {
    writeFile: vi.fn(async (o: { path: string; directory: string; data: string }) => {
      cap.files.set(`${o.directory}/${o.path}`, o.data);
      return { uri: `file:///${o.directory}/${o.path}` };
    }),
    readFile: vi.fn(async (o: { path: string; directory: string }) => {
      const data = cap.files.get(`${o.directory}/${o.path}`);
      if (data === undefined) throw new Error('File does not exist.');
      return { data };
    }),
  },
}));
vi.mock('@capacitor/camera', () => ({
  MediaTypeSelection: { Photo: 0, Video: 1, All: 2 },
  Camera: { chooseFromGallery: vi.fn() },
}));
// Its import puts the real store on the window; the tests put their own there.
vi.mock('capacitor-plugin-cdv-purchase', () => ({}));
vi.mock('@capacitor/share', () => ({ Share: { share: vi.fn(async () => ({})) } }));
vi.mock('@capacitor/app', () => ({
  App: {
    addListener: vi.fn(async (event: string, cb: (data: unknown) => void) => {
      cap.listeners.set(event, cb);
      return { remove: async () => void cap.listeners.delete(event) };
    }),
    minimizeApp: vi.fn(async () => undefined),
  },
}));
vi.mock('@capacitor/status-bar', () => ({
  Style: { Dark: 'DARK', Light: 'LIGHT', Default: 'DEFAULT' },
  StatusBar: { setStyle: vi.fn(async () => undefined) },
}));
vi.mock('@capacitor/keyboard', () => ({ Keyboard: { setAccessoryBarVisible: vi.fn(async () => undefined) } }));
vi.mock('@capacitor/splash-screen', () => ({ SplashScreen: { hide: vi.fn(async () => undefined) } }));

const { App } = await import('@capacitor/app');
const { Camera } = await import('@capacitor/camera');
const { Filesystem } = await import('@capacitor/filesystem');
const { Keyboard } = await import('@capacitor/keyboard');
const { Share } = await import('@capacitor/share');
const { SplashScreen } = await import('@capacitor/splash-screen');
const { nativePlatform } = await import('./native-platform');
const { TillDownloads } = await import('./downloads');
const { startShell } = await import('./shell');

beforeEach(() => {
  cap.files.clear();
  cap.listeners.clear();
  vi.clearAllMocks();
});

describe('the native platform', () => {
  it('saves a file into the shared Download folder on Android, as base64, under a free name, and shares it', async () => {
    cap.platform = 'android';
    const saved = await nativePlatform.saveFile('codes.txt', { blob: new Blob(['A1\nB2'], { type: 'text/plain' }) });
    expect(TillDownloads.save).toHaveBeenCalledWith({ name: 'codes.txt', data: btoa('A1\nB2') });
    expect(Filesystem.writeFile).not.toHaveBeenCalled();
    expect(saved).toEqual({ name: 'codes.txt', where: 'download-folder', uri: 'content://media/external/downloads/1' });
    const again = await nativePlatform.saveFile('codes.txt', { blob: new Blob(['C3']) });
    expect(again.name).toBe('codes (1).txt');
    await nativePlatform.openFile(saved);
    expect(TillDownloads.share).toHaveBeenCalledWith({ uri: saved.uri });
    expect(Share.share).not.toHaveBeenCalled();
  });

  it("saves a file into the iOS app's Documents (the Files app)", async () => {
    cap.platform = 'ios';
    const saved = await nativePlatform.saveFile('codes.txt', { blob: new Blob(['A1']) });
    expect(Filesystem.writeFile).toHaveBeenCalledWith({
      path: 'codes.txt',
      data: btoa('A1'),
      directory: 'DOCUMENTS',
      recursive: true,
    });
    expect(saved.where).toBe('documents');
    expect(nativePlatform.kind).toBe('ios');
  });

  it('saves text as its UTF-8 bytes, never fetching it as an address', async () => {
    cap.platform = 'ios';
    const fetch = vi.spyOn(globalThis, 'fetch');
    try {
      await nativePlatform.saveFile('till-recovery-codes.txt', { text: 'ab12-cd34\nü\n' });
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      fetch.mockRestore();
    }
    const written = cap.files.get('DOCUMENTS/till-recovery-codes.txt') ?? '';
    expect(new TextDecoder().decode(Uint8Array.from(atob(written), (c) => c.charCodeAt(0)))).toBe('ab12-cd34\nü\n');
  });

  it("saves a link's file by fetching its address", async () => {
    cap.platform = 'ios';
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('PDF', { status: 200 }));
    try {
      await nativePlatform.saveFile('report.pdf', { url: 'https://till.example/api/files/download/f1' });
      expect(fetch).toHaveBeenCalledWith('https://till.example/api/files/download/f1');
    } finally {
      fetch.mockRestore();
    }
    expect(cap.files.get('DOCUMENTS/report.pdf')).toBe(btoa('PDF'));
  });

  it('keeps config files as JSON in the private Library folder, and replaces a corrupt one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const platform of ['android', 'ios'] as const) {
      cap.platform = platform;
      cap.files.clear();
      expect(await nativePlatform.readConfig('settings', { theme: 'light' })).toEqual({ theme: 'light' });
      await nativePlatform.writeConfig('settings', { theme: 'dark' });
      expect(Filesystem.writeFile).toHaveBeenLastCalledWith({
        path: 'config/settings.json',
        data: '{"theme":"dark"}',
        directory: 'LIBRARY',
        encoding: 'utf8',
        recursive: true,
      });
      expect(await nativePlatform.readConfig('settings', { theme: 'light' })).toEqual({ theme: 'dark' });
      expect(Filesystem.readFile).toHaveBeenLastCalledWith({
        path: 'config/settings.json',
        directory: 'LIBRARY',
        encoding: 'utf8',
      });
      cap.files.set('LIBRARY/config/settings.json', '{"theme":');
      expect(await nativePlatform.readConfig('settings', { theme: 'light' })).toEqual({ theme: 'light' });
      expect(cap.files.get('LIBRARY/config/settings.json')).toBe('{"theme":"light"}');
    }
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/settings\.json is not JSON/);
    warn.mockRestore();
  });

  it('picks a photo from the library only, asking the picker for the 1024 x 768 box', async () => {
    vi.mocked(Camera.chooseFromGallery).mockResolvedValueOnce({
      results: [{ type: 0, saved: false, webPath: 'capacitor://localhost/_capacitor_file_/photo.jpg' }],
    } as never);
    const fetched = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce({ blob: async () => new Blob(['x'], { type: 'image/jpeg' }) } as Response);
    // jsdom cannot decode images: the scaling itself is tested in Chromium (e2e/phone-platform).
    const bitmap = { width: 800, height: 600, close: vi.fn() };
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => bitmap),
    );
    const file = await nativePlatform.pickImage();
    expect(Camera.chooseFromGallery).toHaveBeenCalledWith({
      mediaType: 0,
      limit: 1,
      targetWidth: 1024,
      targetHeight: 768,
      correctOrientation: true,
      quality: 90,
    });
    expect(fetched).toHaveBeenCalledWith('capacitor://localhost/_capacitor_file_/photo.jpg');
    expect(file?.type).toBe('image/jpeg');
    vi.mocked(Camera.chooseFromGallery).mockRejectedValueOnce(new Error('User cancelled photos app'));
    expect(await nativePlatform.pickImage()).toBeNull();
    vi.unstubAllGlobals();
    fetched.mockRestore();
  });

  it("hears the app's resume event and stops hearing it", async () => {
    const listener = vi.fn();
    const off = nativePlatform.onResume(listener);
    await vi.waitFor(() => expect(cap.listeners.has('resume')).toBe(true), { timeout: 20_000 });
    cap.listeners.get('resume')?.(undefined);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    await vi.waitFor(() => expect(cap.listeners.has('resume')).toBe(false), { timeout: 20_000 });
  });

  it("offers the platform's own store only when the purchase plugin is there", () => {
    cap.platform = 'android';
    expect(nativePlatform.inAppStore()).toBeNull();
    vi.stubGlobal('CdvPurchase', { store: {} });
    expect(nativePlatform.inAppStore()).toBe('googleplay');
    cap.platform = 'ios';
    expect(nativePlatform.inAppStore()).toBe('appstore');
    vi.unstubAllGlobals();
  });
});

describe('the shell', () => {
  it("goes back on Android's back button, and to the background where there is no way back", async () => {
    cap.platform = 'android';
    const win = { history: { back: vi.fn() }, matchMedia: () => ({ matches: false }) } as unknown as Window;
    await startShell(win);
    const back = cap.listeners.get('backButton');
    back?.({ canGoBack: true });
    expect(win.history.back).toHaveBeenCalledTimes(1);
    expect(App.minimizeApp).not.toHaveBeenCalled();
    back?.({ canGoBack: false });
    expect(App.minimizeApp).toHaveBeenCalledTimes(1);
    expect(SplashScreen.hide).toHaveBeenCalled();
    expect(Keyboard.setAccessoryBarVisible).not.toHaveBeenCalled();
  });

  it('hides the splash even when the shell cannot set itself up', async () => {
    cap.platform = 'android';
    vi.mocked(App.addListener).mockRejectedValueOnce(new Error('plugin not implemented'));
    const win = { history: { back: vi.fn() }, matchMedia: () => ({ matches: false }) } as unknown as Window;
    await startShell(win);
    expect(SplashScreen.hide).toHaveBeenCalledTimes(1);
  });

  it('shows the keyboard bar on iOS, where there is no back button', async () => {
    cap.platform = 'ios';
    const win = { history: { back: vi.fn() }, matchMedia: () => ({ matches: true }) } as unknown as Window;
    await startShell(win);
    expect(cap.listeners.has('backButton')).toBe(false);
    expect(Keyboard.setAccessoryBarVisible).toHaveBeenCalledWith({ isVisible: true });
    expect(SplashScreen.hide).toHaveBeenCalled();
  });
});
