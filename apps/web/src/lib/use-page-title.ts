import { useEffect } from 'react';
import { TITLE_SEPARATOR } from './ui-constants';

// The complement defaults to the title the page had before the app changed it ("Till").
const originalTitle = typeof document === 'undefined' ? '' : document.title;

/** Builds the document title: inner text + separator + complement. */
export function formatTitle(inner: string, complement = originalTitle, separator = TITLE_SEPARATOR): string {
  if (!inner) return complement;
  return complement ? `${inner} ${separator} ${complement}` : inner;
}

/**
 * Sets the tab's title while the page is shown: the inner text, the separator (default `|`) and
 * the complement (default the page's original title).
 */
export function usePageTitle(inner: string, options: { separator?: string; complement?: string } = {}): void {
  const { separator = TITLE_SEPARATOR, complement = originalTitle } = options;
  useEffect(() => {
    document.title = formatTitle(inner, complement, separator);
  }, [inner, complement, separator]);
}
