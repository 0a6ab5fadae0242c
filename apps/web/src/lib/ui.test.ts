import { describe, expect, it, vi } from 'vitest';
import { fitInside } from '@/platform/image';
import { configFileName } from '@/platform/types';
import { readConfigFrom, writeConfigTo } from '@/platform/config';
import { issueToMessage } from './form';
import { formatMoney } from './format';
import { formatTitle } from './use-page-title';
import { theme } from './theme';

describe('the interface constants', () => {
  it('builds titles as inner text, separator and complement', () => {
    expect(formatTitle('Cart', 'Till')).toBe('Cart | Till');
    expect(formatTitle('Cart', 'Till', '·')).toBe('Cart · Till');
    expect(formatTitle('', 'Till')).toBe('Till');
  });

  it('closes dialogs in 150 ms and caps menus at 304 px', () => {
    expect(theme.components?.MuiDialog?.defaultProps?.transitionDuration).toBe(150);
    expect(theme.components?.MuiMenu?.styleOverrides?.paper).toMatchObject({ maxHeight: 304 });
    expect(theme.components?.MuiAutocomplete?.styleOverrides?.listbox).toMatchObject({ maxHeight: 304 });
  });

  it('scales pictures to fit 1024 x 768 without enlarging them', () => {
    expect(fitInside(4000, 3000, 1024, 768)).toEqual({ width: 1024, height: 768 });
    expect(fitInside(2000, 500, 1024, 768)).toEqual({ width: 1024, height: 256 });
    expect(fitInside(300, 200, 1024, 768)).toEqual({ width: 300, height: 200 });
  });

  it('keeps config files as JSON under a .json name', async () => {
    expect(configFileName('settings')).toBe('settings.json');
    expect(configFileName('../evil')).toBe('___evil.json');
    const files = new Map<string, string>();
    const backend = {
      read: async (file: string) => files.get(file) ?? null,
      write: async (file: string, text: string) => void files.set(file, text),
    };
    await writeConfigTo(backend, 'settings', { theme: 'dark' });
    expect(files.get('settings.json')).toBe('{"theme":"dark"}');
    expect(await readConfigFrom(backend, 'settings', {})).toEqual({ theme: 'dark' });
    expect(await readConfigFrom(backend, 'absent', { theme: 'light' })).toEqual({ theme: 'light' });
  });

  it('reports a corrupt config file and replaces it by the defaults', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const files = new Map([
      ['cut.json', '{"theme":'],
      ['wrong.json', '"dark"'],
    ]);
    const backend = {
      read: async (file: string) => files.get(file) ?? null,
      write: async (file: string, text: string) => void files.set(file, text),
    };
    expect(await readConfigFrom(backend, 'cut', { theme: 'light' })).toEqual({ theme: 'light' });
    expect(files.get('cut.json')).toBe('{"theme":"light"}');
    expect(await readConfigFrom(backend, 'wrong', { theme: 'light' })).toEqual({ theme: 'light' });
    expect(files.get('wrong.json')).toBe('{"theme":"light"}');
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/cut\.json is not JSON/),
      expect.stringMatching(/wrong\.json holds string, not object/),
    ]);
    warn.mockRestore();
  });

  it('maps schema issues to the translated field messages', () => {
    expect(issueToMessage({ code: 'too_small', origin: 'string', minimum: 8, input: 'abc' })).toBe(
      'validation.too_short#8',
    );
    expect(issueToMessage({ code: 'too_small', origin: 'string', minimum: 1, input: '' })).toBe('validation.required');
    expect(issueToMessage({ code: 'invalid_format' })).toBe('validation.invalid');
  });

  it('writes money from minor units', () => {
    expect(formatMoney({ amount: 449, currency: 'USD' }, 'en')).toBe('$4.49');
    expect(formatMoney({ amount: 500, currency: 'JPY' }, 'en')).toBe('¥500');
  });
});
