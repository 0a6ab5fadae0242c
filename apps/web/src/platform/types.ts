/** What differs between the browser and the native shells, behind one interface. */
export interface Platform {
  /** Hands a file to the user: a download in the browser, a saved document on a phone. */
  saveFile(name: string, data: Blob | string): Promise<void>;
  /** Lets the user choose an image; answers it scaled to fit the given box, or null when cancelled. */
  pickImage(box?: { maxWidth: number; maxHeight: number }): Promise<File | null>;
  /** Reads a config file (`<name>.json`) from persistent storage; null when absent or unreadable. */
  readConfig<T>(name: string): Promise<T | null>;
  /** Writes a config file (`<name>.json`) to persistent storage as JSON. */
  writeConfig(name: string, value: unknown): Promise<void>;
}

/** The file name a config is kept under. */
export function configFileName(name: string): string {
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${safe}.json`;
}
