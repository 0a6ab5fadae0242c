// The app's texts and their lookup: nested keys, `{{name}}` values, plural forms chosen by
// Intl.PluralRules (`key_one`, `key_other`), a default value, and English behind every other
// language. The texts are i18next's JSON format; the lookup is what the app asks of it, in a
// fraction of i18next's weight on the first screen (see docs/decisions/009-own-text-lookup.md).

/** Texts of one language: nested objects whose leaves are strings. */
export interface Texts {
  [key: string]: string | Texts;
}

/** Values for a text: `count` also picks the plural form, `defaultValue` answers a missing key. */
export type TOptions = Record<string, unknown> & { count?: number; defaultValue?: string };

/** Looks a text up by its dotted key (or the first of several keys that has one), in the language in use. */
export type TFunction = (key: string | readonly string[], options?: TOptions) => string;

const FALLBACK = 'en';
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

function lookup(texts: Texts | undefined, key: string): string | undefined {
  return find(texts, key.split('.'), 0);
}

/** The text at `parts[from..]` below `node`; a key may itself hold dots (`"limit.too_short"`). */
function find(node: string | Texts | undefined, parts: string[], from: number): string | undefined {
  if (from === parts.length) return typeof node === 'string' ? node : undefined;
  if (node === undefined || typeof node === 'string') return undefined;
  let key = '';
  for (let i = from; i < parts.length; i++) {
    key = i === from ? (parts[i] ?? '') : `${key}.${parts[i] ?? ''}`;
    const found = Object.hasOwn(node, key) ? find(node[key], parts, i + 1) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

function merge(into: Texts, from: Texts): Texts {
  for (const [key, value] of Object.entries(from)) {
    const there = into[key];
    into[key] = typeof value === 'object' && typeof there === 'object' ? merge({ ...there }, value) : value;
  }
  return into;
}

function valueAt(values: Record<string, unknown>, path: string): unknown {
  let node: unknown = values;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** Fills `{{name}}` from `values`; a placeholder without a value stays as written. */
export function interpolate(text: string, values: Record<string, unknown> | undefined): string {
  if (!values || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, path: string) => {
    const value = valueAt(values, path);
    return value === undefined || value === null ? whole : String(value as string | number);
  });
}

type Listener = (language: string) => void;

/** The texts of the languages loaded so far, and the one in use. */
export class Translator {
  private readonly texts = new Map<string, Texts>();
  private readonly plurals = new Map<string, Intl.PluralRules>();
  private readonly listeners = new Set<Listener>();
  private current: string;

  constructor(language: string, texts: Record<string, Texts>) {
    this.current = language;
    for (const [lng, t] of Object.entries(texts)) this.addTexts(lng, t);
  }

  /** The language in use. */
  get language(): string {
    return this.current;
  }

  /** Adds texts to a language, over those it has (nested keys merge). */
  addTexts(language: string, texts: Texts): void {
    this.texts.set(language, merge({ ...(this.texts.get(language) ?? {}) }, texts));
  }

  hasTexts(language: string): boolean {
    return this.texts.has(language);
  }

  /** Whether `key` has a text in the language in use or in English. */
  exists(key: string): boolean {
    return this.resolve(key, undefined) !== undefined;
  }

  /** Switches the language; listeners hear of it (the React side re-renders on it). */
  setLanguage(language: string): void {
    if (language === this.current) return;
    this.current = language;
    for (const listener of [...this.listeners]) listener(language);
  }

  /** Calls `listener` on each change of language; answers the call that stops it. */
  onLanguageChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The text of `key` in the language in use (else English), filled with `options`' values. */
  readonly t: TFunction = (key, options) => this.translate(this.current, key, options);

  /** A lookup in `language`, whatever the language in use becomes. */
  fixedT(language: string): TFunction {
    return (key, options) => this.translate(language, key, options);
  }

  private translate(language: string, key: string | readonly string[], options: TOptions | undefined): string {
    const keys = typeof key === 'string' ? [key] : key;
    let text: string | undefined;
    for (const k of keys) if ((text = this.resolve(k, options?.count, language)) !== undefined) break;
    return interpolate(text ?? options?.defaultValue ?? keys[keys.length - 1] ?? '', options);
  }

  private resolve(key: string, count: number | undefined, language = this.current): string | undefined {
    const languages = language === FALLBACK ? [FALLBACK] : [language, FALLBACK];
    for (const lng of languages) {
      const texts = this.texts.get(lng);
      if (count !== undefined) {
        const form = lookup(texts, `${key}_${this.pluralRules(lng).select(count)}`);
        if (form !== undefined) return form;
      }
      const text = lookup(texts, key);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  private pluralRules(language: string): Intl.PluralRules {
    let rules = this.plurals.get(language);
    if (!rules) {
      rules = new Intl.PluralRules(language);
      this.plurals.set(language, rules);
    }
    return rules;
  }
}
