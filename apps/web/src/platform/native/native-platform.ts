import { App } from '@capacitor/app';
import { Camera, MediaTypeSelection } from '@capacitor/camera';
import { Capacitor } from '@capacitor/core';
import { Directory, Encoding, Filesystem } from '@capacitor/filesystem';
import { Share } from '@capacitor/share';
// The in-app store's plugin: importing it puts CdvPurchase (v13) and its store on the window.
import 'capacitor-plugin-cdv-purchase';
import { IMAGE_MAX_HEIGHT, IMAGE_MAX_WIDTH } from '@/lib/ui-constants';
import { readConfigFrom, writeConfigTo, type ConfigBackend } from '../config';
import { scaleImage } from '../image';
import { textBlob, type FileContent, type Platform, type SavedFile } from '../types';
import { TillDownloads } from './downloads';

const CONFIG_DIR = 'config';

async function toBase64(content: FileContent): Promise<string> {
  const blob =
    'blob' in content
      ? content.blob
      : 'text' in content
        ? textBlob(content.text)
        : await (await fetch(content.url)).blob();
  const buf = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < buf.length; i += 0x8000) binary += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(binary);
}

const isAndroid = () => Capacitor.getPlatform() === 'android';

/**
 * Config files in the app's private storage, under `config/`: Library on both platforms (Android
 * maps it to the app's files folder; on iOS it is backed up but, unlike Documents, not shown in
 * the Files app next to the user's own documents).
 */
export const nativeConfig: ConfigBackend = {
  async read(file) {
    try {
      const res = await Filesystem.readFile({
        path: `${CONFIG_DIR}/${file}`,
        directory: Directory.Library,
        encoding: Encoding.UTF8,
      });
      return typeof res.data === 'string' ? res.data : await res.data.text();
    } catch {
      // The plugin rejects for a missing file; anything else unreadable is treated the same.
      return null;
    }
  },
  async write(file, text) {
    await Filesystem.writeFile({
      path: `${CONFIG_DIR}/${file}`,
      data: text,
      directory: Directory.Library,
      encoding: Encoding.UTF8,
      recursive: true,
    });
  },
};

// The plugin rejects with a message of its own when the user closes the picker without a choice.
const isCancel = (err: unknown) => err instanceof Error && /cancel/i.test(err.message);

/** The phone side (Capacitor). */
export const nativePlatform: Platform = {
  get kind() {
    return isAndroid() ? 'android' : 'ios';
  },
  async saveFile(name, content): Promise<SavedFile> {
    // Android: the shared Download folder, where the user's file manager and other apps find it,
    // through the app's own plugin (MediaStore; Filesystem cannot write there from Android 11 on).
    // iOS: the app's Documents, shown in the Files app.
    if (isAndroid()) {
      const saved = await TillDownloads.save({ name, data: await toBase64(content) });
      return { name: saved.name, where: 'download-folder', uri: saved.uri };
    }
    const res = await Filesystem.writeFile({
      path: name,
      data: await toBase64(content),
      directory: Directory.Documents,
      recursive: true,
    });
    return { name, where: 'documents', uri: res.uri };
  },
  canOpenSaved: true,
  async openFile(file) {
    if (!file.uri) return;
    // The share sheet both opens the file in another app and sends it on. Share takes file:// only;
    // Android's saved files are MediaStore's content:// ones.
    if (isAndroid()) await TillDownloads.share({ uri: file.uri });
    else await Share.share({ title: file.name, files: [file.uri] });
  },
  async pickImage(box = { maxWidth: IMAGE_MAX_WIDTH, maxHeight: IMAGE_MAX_HEIGHT }) {
    let picked;
    try {
      // The system photo picker: the library only (no camera), which needs no permission on Android.
      picked = await Camera.chooseFromGallery({
        mediaType: MediaTypeSelection.Photo,
        limit: 1,
        targetWidth: box.maxWidth,
        targetHeight: box.maxHeight,
        correctOrientation: true,
        quality: 90,
      });
    } catch (err) {
      if (isCancel(err)) return null;
      throw err;
    }
    const photo = picked.results[0];
    if (!photo?.webPath) return null;
    const blob = await (await fetch(photo.webPath)).blob();
    const type = blob.type || 'image/jpeg';
    const file = new File([blob], `photo.${type === 'image/png' ? 'png' : 'jpg'}`, { type });
    // The plugin's target size is a hint the platforms read differently: the box is made sure of here.
    return scaleImage(file, box.maxWidth, box.maxHeight);
  },
  readConfig: (name, defaults) => readConfigFrom(nativeConfig, name, defaults),
  writeConfig: (name, value) => writeConfigTo(nativeConfig, name, value),
  onResume(listener) {
    const handle = App.addListener('resume', listener);
    return () => void handle.then((h) => h.remove());
  },
  onLinkOpened(listener) {
    const handle = App.addListener('appUrlOpen', ({ url }) => listener(url));
    return () => void handle.then((h) => h.remove());
  },
  async openPaymentPage(url) {
    const { Browser } = await import('@capacitor/browser');
    await Browser.open({ url });
  },
  async socialSignIn(provider, nonce) {
    const { signInNatively } = await import('./social');
    return signInNatively(provider, nonce, !isAndroid());
  },
  async closePaymentPage() {
    const { Browser } = await import('@capacitor/browser');
    await Browser.close();
  },
  async openSignInPage(url) {
    const { Browser } = await import('@capacitor/browser');
    await Browser.open({ url });
  },
  async closeSignInPage() {
    const { Browser } = await import('@capacitor/browser');
    await Browser.close();
  },
  inAppStore() {
    const cdv = (globalThis as { CdvPurchase?: unknown }).CdvPurchase;
    if (!cdv) return null;
    return isAndroid() ? 'googleplay' : 'appstore';
  },
  async startInAppStore(products, validator) {
    const store = this.inAppStore();
    if (!store) return;
    const { startInAppStore, cdvStore } = await import('./purchase');
    const cdv = cdvStore();
    if (cdv) await startInAppStore({ store, cdv, products, validator, onResume: (l) => this.onResume(l) });
  },
  async buyInApp(lines, validator, onMessage) {
    const store = this.inAppStore();
    const { buyInApp, cdvStore } = await import('./purchase');
    const cdv = cdvStore();
    if (!store || !cdv) throw new Error('The in-app store is not available');
    return buyInApp({
      store,
      cdv,
      products: lines.map((l) => l.product),
      quantities: Object.fromEntries(lines.map((l) => [l.product.id, l.quantity])),
      validator,
      onResume: (l) => this.onResume(l),
      onMessage,
    });
  },
  async restoreInApp(validator) {
    const store = this.inAppStore();
    const { restoreInApp, cdvStore } = await import('./purchase');
    const cdv = cdvStore();
    if (!store || !cdv) throw new Error('The in-app store is not available');
    return restoreInApp({ store, cdv, validator, onResume: (l) => this.onResume(l) });
  },
  watchInAppProducts(listener) {
    let stop: (() => void) | null = null;
    let stopped = false;
    void import('./purchase').then((m) => {
      if (!stopped) stop = m.watchInAppProducts(listener);
    });
    return () => {
      stopped = true;
      stop?.();
    };
  },
  startShell() {
    void import('./shell').then((m) => m.startShell());
  },
};
