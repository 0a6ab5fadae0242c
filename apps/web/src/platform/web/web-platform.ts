import { IMAGE_MAX_HEIGHT, IMAGE_MAX_WIDTH } from '@/lib/ui-constants';
import { chooseImageFile, scaleImage } from '../image';
import { configFileName, type Platform } from '../types';

const CONFIG_PREFIX = 'till:config/';

/** The browser side: downloads, the file chooser, and config files in localStorage. */
export const webPlatform: Platform = {
  async saveFile(name, data) {
    const href = typeof data === 'string' ? data : URL.createObjectURL(data);
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    // The click has been dispatched synchronously; the blob URL can go once the download started.
    if (typeof data !== 'string') setTimeout(() => URL.revokeObjectURL(href), 10_000);
  },
  async pickImage(box = { maxWidth: IMAGE_MAX_WIDTH, maxHeight: IMAGE_MAX_HEIGHT }) {
    const file = await chooseImageFile();
    return file ? scaleImage(file, box.maxWidth, box.maxHeight) : null;
  },
  async readConfig<T>(name: string) {
    try {
      const text = localStorage.getItem(CONFIG_PREFIX + configFileName(name));
      return text === null ? null : (JSON.parse(text) as T);
    } catch {
      return null;
    }
  },
  async writeConfig(name, value) {
    localStorage.setItem(CONFIG_PREFIX + configFileName(name), JSON.stringify(value));
  },
};
