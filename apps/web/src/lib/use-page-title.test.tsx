import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { usePageTitle } from './use-page-title';

describe('usePageTitle', () => {
  it("sets inner text, separator and complement, by default the page's own title", () => {
    const original = document.title;
    renderHook(() => usePageTitle('Cart'));
    expect(document.title).toBe(original ? `Cart | ${original}` : 'Cart');
    renderHook(() => usePageTitle('Cart', { separator: '·', complement: 'Till' }));
    expect(document.title).toBe('Cart · Till');
  });
});
