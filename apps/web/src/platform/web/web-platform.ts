import { IMAGE_MAX_HEIGHT, IMAGE_MAX_WIDTH } from '@/lib/ui-constants';
import { readConfigFrom, writeConfigTo } from '../config';
import { chooseImageFile, scaleImage } from '../image';
import { textBlob, type Platform } from '../types';
import { idbConfig } from './idb-config';

/**
 * The browser side: downloads, the file chooser, config files in IndexedDB, no in-app store.
 * `onVisibleAgain` is the page's resume (platform.ts).
 */
export const createWebPlatform = (onVisibleAgain: (listener: () => void) => () => void): Platform => ({
  kind: 'web',
  async saveFile(name, content) {
    // A link downloads from its address; bytes and text from an object URL of their own.
    const blob = 'url' in content ? null : 'blob' in content ? content.blob : textBlob(content.text);
    const href = blob ? URL.createObjectURL(blob) : (content as { url: string }).url;
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    // The click has been dispatched synchronously; the blob URL can go once the download started.
    if (blob) setTimeout(() => URL.revokeObjectURL(href), 10_000);
    return { name, where: 'downloads' };
  },
  // The browser shows its own downloads bar, from which the file opens.
  canOpenSaved: false,
  async openFile() {},
  async pickImage(box = { maxWidth: IMAGE_MAX_WIDTH, maxHeight: IMAGE_MAX_HEIGHT }) {
    const file = await chooseImageFile();
    return file ? scaleImage(file, box.maxWidth, box.maxHeight) : null;
  },
  readConfig: (name, defaults) => readConfigFrom(idbConfig, name, defaults),
  writeConfig: (name, value) => writeConfigTo(idbConfig, name, value),
  onResume: (listener) => onVisibleAgain(listener),
  onLinkOpened: () => () => {},
  async openPaymentPage(url) {
    window.location.assign(url);
  },
  async closePaymentPage() {},
  async openSignInPage(url) {
    window.location.assign(url);
  },
  async closeSignInPage() {},
  socialSignIn: () => Promise.reject(new Error('The browser signs in with the web flow')),
  inAppStore: () => null,
  startInAppStore: async () => {},
  watchInAppProducts: () => () => undefined,
  restoreInApp: () => Promise.reject(new Error('The browser has no in-app store')),
  buyInApp: () => Promise.reject(new Error('The browser has no in-app store')),
  startShell() {},
});
