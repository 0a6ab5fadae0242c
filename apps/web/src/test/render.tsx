import { AppQueryClient } from '@/lib/query-client';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { createTill, memoryStorage, type Till } from '@till/client';
import { AppProvider } from '@/app/provider';
import { CartStore } from '@/features/cart/hooks/cart-store';
import de from '@/i18n/de.json';
import screenTexts from '@/i18n/en.screens.json';
import { createI18n } from '@/lib/i18n';

/** A real SDK instance whose calls are answered by the given function instead of the network. */
export function fakeTill(answer: (path: string, body: Record<string, unknown>) => unknown): Till {
  return createTill({
    storage: memoryStorage(),
    adapter: async (config) => {
      const raw = config.data;
      const body = typeof raw === 'string' ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const data = await answer(String(config.url), body);
      return { data, status: 200, statusText: 'OK', headers: {}, config };
    },
  });
}

/** The app's texts in English with the texts of every screen, as a page sees it. */
export function testI18n() {
  const i18n = createI18n('en');
  i18n.addTexts('en', screenTexts);
  return i18n;
}

/** The same in German, as a page sees it once German is chosen. */
export function testI18nGerman() {
  const i18n = testI18n();
  i18n.addTexts('de', de);
  i18n.setLanguage('de');
  return i18n;
}

/** Renders a component inside the app's providers (English, fresh cache and cart). */
export function renderWithApp(
  ui: ReactElement,
  options: { till: Till; cart?: CartStore; route?: string; i18n?: ReturnType<typeof createI18n> },
) {
  const queryClient = new AppQueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const cart = options.cart ?? new CartStore(null);
  const result = render(
    <AppProvider till={options.till} queryClient={queryClient} i18n={options.i18n ?? testI18n()} cart={cart}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>{ui}</MemoryRouter>
    </AppProvider>,
  );
  return { ...result, queryClient, cart };
}

/** A signed-in session for the fake SDK. */
export function signInFake(till: Till, level = 2): void {
  till.session.start({
    token: 'test-token-0123456789abcdef',
    expire: 3600,
    user: {
      id: 'u1',
      email: 'ada@example.test',
      name: 'Ada',
      lang: 'en',
      level,
      emailConfirmed: true,
      avatarUrl: null,
      credits: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
    },
  });
}
