import { registerPlugin } from '@capacitor/core';

/** Where DownloadsPlugin put a file: the name it got (a taken name gets a number) and its folder. */
export interface SavedDownload {
  name: string;
  /** The shared folder's name as the file manager shows it: `Download`. */
  folder: string;
  /** A content:// address that `share` hands on. */
  uri: string;
}

/** The Android app's own plugin (`android/app/src/main/java/app/till/mobile/DownloadsPlugin.java`). */
export interface TillDownloadsPlugin {
  /** Saves base64 `data` as `name` into the shared Download folder; rejects with the reason. */
  save(options: { name: string; data: string; mimeType?: string }): Promise<SavedDownload>;
  /** Opens the system's share sheet (open with, send) on a file `save` answered. */
  share(options: { uri: string; mimeType?: string }): Promise<void>;
}

export const TillDownloads = registerPlugin<TillDownloadsPlugin>('TillDownloads');
