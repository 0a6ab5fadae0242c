import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SECURITY_EVENT_KINDS, type SecurityLogEntry } from '@till/protocol';
import { setLanguage } from '@/lib/i18n';
import { fakeTill, renderWithApp, testI18n } from '@/test/render';
import { SecurityLogList } from './security-log-list';

const entry = (kind: SecurityLogEntry['kind'], detail: SecurityLogEntry['detail'], id = kind): SecurityLogEntry => ({
  id,
  kind,
  at: '2026-03-01T10:00:00.000Z',
  ip: null,
  device: null,
  actorId: 'admin',
  detail,
});

/** Every kind the server writes, with the detail it writes with it. */
const ALL: SecurityLogEntry[] = SECURITY_EVENT_KINDS.map((kind) =>
  entry(kind, { method: 'password', count: 2, to: 'new@example.test', level: 9, amount: 50, name: 'Laptop' }),
);

async function show(lang: 'en' | 'de', entries: SecurityLogEntry[]) {
  const i18n = testI18n();
  await setLanguage(i18n, lang);
  renderWithApp(
    <SecurityLogList entries={entries} total={entries.length} page={1} pageSize={50} onPage={() => {}} label="Log" />,
    { till: fakeTill(() => ({ code: 904 })), i18n },
  );
  return screen.getAllByRole('listitem').map((item) => item.firstElementChild?.firstElementChild?.textContent ?? '');
}

describe('the security log in words', () => {
  it('names a changed access level by its name in English and German, not by its number', async () => {
    expect(await show('en', [entry('admin_level_changed', { level: 9, from: 2 })])).toEqual([
      'Access level changed to “Administrator”',
    ]);
  });

  it('says the same in German', async () => {
    expect(await show('de', [entry('admin_level_changed', { level: 2, from: 9 })])).toEqual([
      'Zugriffsstufe auf „Mitglied“ geändert',
    ]);
  });

  it.each(['en', 'de'] as const)(
    'has a sentence for every kind of entry in %s, with no placeholder or number left',
    async (lang) => {
      const lines = await show(lang, ALL);
      expect(lines).toHaveLength(SECURITY_EVENT_KINDS.length);
      lines.forEach((line, i) => {
        expect(line, SECURITY_EVENT_KINDS[i]).not.toBe(SECURITY_EVENT_KINDS[i]);
        expect(line).not.toMatch(/\{\{|\b9\b/);
      });
    },
  );
});
