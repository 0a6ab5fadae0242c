import en from '@/i18n/en.json';
import { Translator, type Texts } from './translator';

/** The app's texts in the language in use (see `translator.ts`). */
export type I18n = Translator;

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'de', label: 'Deutsch' },
] as const;
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'till:lang';

/** The language to start in: the one chosen before, else the browser's if we have it, else English. */
export function initialLanguage(): LanguageCode {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  const wanted = [saved, ...(typeof navigator === 'undefined' ? [] : navigator.languages)];
  for (const tag of wanted) {
    const base = tag?.slice(0, 2).toLowerCase();
    const hit = LANGUAGES.find((l) => l.code === base);
    if (hit) return hit.code;
  }
  return 'en';
}

/**
 * The English texts of every screen but the first (the catalog and the frame around it). The first
 * screen's JavaScript is measured (bench/web) and the texts grow with each screen, so they come
 * with the first page that needs them; `en.json` holds the first screen's own.
 */
const screenTexts = () => import('@/i18n/en.screens.json');

/** Starts fetching the other screens' texts, e.g. when the app opens on one of them. */
export function preloadScreenTexts(): void {
  void screenTexts();
}

const withScreenTexts = new WeakSet<I18n>();

/** Adds the other screens' English texts to `instance` (once); pages wait for it before they show. */
export async function loadScreenTexts(instance: I18n): Promise<void> {
  const { default: texts } = await screenTexts();
  if (withScreenTexts.has(instance)) return;
  instance.addTexts('en', texts as Texts);
  withScreenTexts.add(instance);
}

// Other languages load whole when chosen.
const loaders: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {
  de: () => import('@/i18n/de.json'),
};

/** Switches the interface language, loading its texts first when they are not there yet. */
export async function setLanguage(instance: I18n, lng: string): Promise<void> {
  const load = loaders[lng];
  if (load && !instance.hasTexts(lng)) instance.addTexts(lng, (await load()).default as Texts);
  instance.setLanguage(lng);
}

/** Builds the app's texts (tests build their own), in English until `setLanguage`. */
export function createI18n(lng: string = initialLanguage()): I18n {
  const instance = new Translator('en', { en: en as Texts });
  // Writing the page's `lang` makes the browser look at every text on it again (fonts, hyphens):
  // only a change is written, and the page the server drew already says English.
  const markPage = (lang: string) => {
    if (typeof document !== 'undefined' && document.documentElement.lang !== lang) document.documentElement.lang = lang;
  };
  instance.onLanguageChange((lang) => {
    markPage(lang);
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      // Private mode without storage: the choice lasts for this visit only.
    }
  });
  markPage('en');
  if (lng !== 'en') void setLanguage(instance, lng);
  return instance;
}
