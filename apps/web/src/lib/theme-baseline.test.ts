import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

// index.html carries MUI's CssBaseline as static CSS (the app renders no CssBaseline): its values
// must stay those the theme gives CssBaseline.
const html = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../index.html'), 'utf8');

/** The declarations of the rule in index.html's styles whose selector list is `selectors`. */
function rule(...selectors: string[]): Record<string, string> {
  const rules = [...html.matchAll(/([^{}/]+)\{([^{}]*)\}/g)];
  const found = rules.find(
    (m) =>
      m[1]!
        .split(',')
        .map((s) => s.trim())
        .join(',') === selectors.join(','),
  );
  if (!found) throw new Error(`index.html has no rule for ${selectors.join(', ')}`);
  return Object.fromEntries(
    found[2]!
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]),
  );
}
const font = (family: string) => family.replace(/["'\s]/g, '');

describe("index.html's baseline styles", () => {
  it("are CssBaseline's for the app's theme: body text, colours and box sizing", () => {
    const body = rule('body');
    const text = theme.typography.body1;
    expect(body).toMatchObject({
      margin: '0',
      color: theme.palette.text.primary,
      'background-color': theme.palette.background.default,
      'font-weight': String(text.fontWeight),
      'font-size': String(text.fontSize),
      'line-height': String(text.lineHeight),
    });
    // The theme's own font stack gets no letter spacing from MUI (only its default Roboto does).
    expect(body['letter-spacing']).toBe(text.letterSpacing === undefined ? undefined : String(text.letterSpacing));
    expect(font(body['font-family'] ?? '')).toBe(font(String(text.fontFamily)));
    expect(rule('html')).toMatchObject({ 'box-sizing': 'border-box', '-webkit-text-size-adjust': '100%' });
    expect(rule('*', '*::before', '*::after')).toEqual({ 'box-sizing': 'inherit' });
    expect(rule('strong', 'b')).toEqual({ 'font-weight': String(theme.typography.fontWeightBold) });
    expect(rule('body::backdrop')).toEqual({ 'background-color': theme.palette.background.default });
  });
});
