import { describe, expect, it } from 'vitest';
import { parseRange } from './download.js';
import { contentDisposition, sanitizeFileName } from './names.js';

describe('sanitizeFileName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\photo.jpg', 'photo.jpg'],
    ['/', 'file'],
    ['', 'file'],
    ['.htaccess', 'htaccess'],
    ['a\u0000b\u0007c.txt', 'abc.txt'],
    ['report\u202Egnp.exe', 'reportgnp.exe'],
    ['zero\u200Bwidth\uFEFF.txt', 'zerowidth.txt'],
    ['line\nbreak.txt', 'linebreak.txt'],
    ['e\u0301t\u00e9.txt', '\u00e9t\u00e9.txt'],
    ['what?*<>|":.txt', 'what_______.txt'],
    ['  spaced   out .txt ', 'spaced out .txt'],
  ])('%j shows as %j', (raw, shown) => {
    expect(sanitizeFileName(raw)).toBe(shown);
  });

  it('cuts long names to 200 characters and keeps the extension', () => {
    const name = sanitizeFileName(`${'\u{1F600}'.repeat(300)}.pdf`);
    expect([...name]).toHaveLength(200);
    expect(name.endsWith('\u{1F600}.pdf')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name in filename*', () => {
    expect(contentDisposition('inline', 'r\u00e9sum\u00e9 (1).pdf')).toBe(
      `inline; filename="resume (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`,
    );
    expect(contentDisposition('attachment', '\u65e5\u672c.txt')).toBe(
      `attachment; filename=".txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`,
    );
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, 100, undefined],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=90-500', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=5-2', 100, undefined],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
    ['bytes=-', 100, undefined],
  ])('%s of %i bytes is %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
