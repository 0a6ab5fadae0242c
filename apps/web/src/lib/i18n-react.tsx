import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { TFunction, Translator } from './translator';

const TranslatorContext = createContext<Translator | null>(null);

/** Gives the screens below it their texts. */
export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/**
 * The text lookup in the language in use, and the translator itself. A change of language
 * re-renders the caller, with a new `t`, so that memos and effects that use it run again.
 */
export function useTranslation(): { t: TFunction; i18n: Translator } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation needs a TranslatorProvider above it');
  const language = useSyncExternalStore(
    (changed) => translator.onLanguageChange(changed),
    () => translator.language,
    () => translator.language,
  );
  const t = useMemo(() => translator.fixedT(language), [translator, language]);
  return { t, i18n: translator };
}
