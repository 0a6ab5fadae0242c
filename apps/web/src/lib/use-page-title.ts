import { useEffect } from 'react';
import { TITLE_SEPARATOR } from './ui-constants';

// The complement defaults to the title the page had before the app changed it ("Till").
const originalTitle = typeof document === 'undefined' ? '' : document.title;

/** Builds the document title: inner text + separator + complement. */
export function formatTitle(inner: string, complement = originalTitle, separator = TITLE_SEPARATOR): string {
  if (!inner) return complement;
  return complement ? `${inner} ${separator} ${complement}` : inner;
}

/** Sets the tab's title while the page is shown. */
export function usePageTitle(inner: string): void {
  useEffect(() => {
    document.title = formatTitle(inner);
  }, [inner]);
}
