import { Directory, Encoding, Filesystem } from '@capacitor/filesystem';
import { IMAGE_MAX_HEIGHT, IMAGE_MAX_WIDTH } from '@/lib/ui-constants';
import { chooseImageFile, scaleImage } from '../image';
import { configFileName, type Platform } from '../types';

const CONFIG_DIR = 'config';

async function toBase64(data: Blob | string): Promise<string> {
  const blob = typeof data === 'string' ? await (await fetch(data)).blob() : data;
  const buf = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < buf.length; i += 0x8000) binary += String.fromCharCode(...buf.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The phone side (Capacitor): documents and config files in the app's own storage. */
export const nativePlatform: Platform = {
  async saveFile(name, data) {
    await Filesystem.writeFile({ path: name, data: await toBase64(data), directory: Directory.Documents });
  },
  async pickImage(box = { maxWidth: IMAGE_MAX_WIDTH, maxHeight: IMAGE_MAX_HEIGHT }) {
    // The WebView's file chooser offers the camera and the gallery on both platforms.
    const file = await chooseImageFile();
    return file ? scaleImage(file, box.maxWidth, box.maxHeight) : null;
  },
  async readConfig<T>(name: string) {
    try {
      const res = await Filesystem.readFile({
        path: `${CONFIG_DIR}/${configFileName(name)}`,
        directory: Directory.Data,
        encoding: Encoding.UTF8,
      });
      return typeof res.data === 'string' ? (JSON.parse(res.data) as T) : null;
    } catch {
      return null;
    }
  },
  async writeConfig(name, value) {
    await Filesystem.writeFile({
      path: `${CONFIG_DIR}/${configFileName(name)}`,
      data: JSON.stringify(value),
      directory: Directory.Data,
      encoding: Encoding.UTF8,
      recursive: true,
    });
  },
};
