import { configFileName } from './types';

/** Where a platform keeps its config files' text. */
export interface ConfigBackend {
  /** The file's text, or null when there is none. */
  read(file: string): Promise<string | null>;
  write(file: string, text: string): Promise<void>;
}

// A config must be JSON of the same kind as its defaults: an object stays an object, so that a
// file cut short or written by hand cannot hand the app a string where it expects settings.
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Reads config file `<name>.json` through the backend. A file that cannot be parsed, or holds the
 * wrong kind of value, is reported (console.warn, naming it) and replaced by the defaults, so that
 * the app starts the same way next time instead of failing on it again.
 */
export async function readConfigFrom<T>(backend: ConfigBackend, name: string, defaults: T): Promise<T> {
  const file = configFileName(name);
  let text: string | null;
  try {
    text = await backend.read(file);
  } catch {
    // Unreadable storage (private mode, a permission) is the same as no file: the defaults.
    return defaults;
  }
  if (text === null) return defaults;
  let why: string;
  try {
    const value: unknown = JSON.parse(text);
    if (kindOf(value) === kindOf(defaults)) return value as T;
    why = `holds ${kindOf(value)}, not ${kindOf(defaults)}`;
  } catch (err) {
    why = `is not JSON (${err instanceof Error ? err.message : String(err)})`;
  }
  console.warn(`Config file ${file} ${why}; it has been replaced by the defaults.`);
  await backend.write(file, JSON.stringify(defaults)).catch(() => undefined);
  return defaults;
}

/** Writes config file `<name>.json` through the backend. */
export function writeConfigTo(backend: ConfigBackend, name: string, value: unknown): Promise<void> {
  return backend.write(configFileName(name), JSON.stringify(value));
}
