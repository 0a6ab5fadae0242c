import { describe, expect, it } from 'vitest';
import { refuseFiles } from './files-api';

const limits = { maxFileBytes: 1000, maxFiles: 2, types: ['image/png', 'text/plain'], extensions: ['.png', '.txt'] };
const file = (name: string, size: number, type: string) => new File([new Uint8Array(size)], name, { type });

describe('checking files against the limits before they are sent', () => {
  it('refuses a file too large, a type not allowed, and too many files', () => {
    expect(refuseFiles([file('a.png', 1000, 'image/png')], limits)).toBeNull();
    expect(refuseFiles([file('big.png', 1001, 'image/png')], limits)).toMatchObject({ reason: 'too_large' });
    expect(refuseFiles([file('tool.exe', 10, 'application/x-msdownload')], limits)).toMatchObject({
      reason: 'type',
    });
    // A type the browser does not know is judged by the name's ending (the server sniffs the content).
    expect(refuseFiles([file('notes.TXT', 10, '')], limits)).toBeNull();
    // A type the browser cannot name is the server's to judge by the content.
    expect(refuseFiles([file('data.bin', 10, 'application/octet-stream')], limits)).toBeNull();
    expect(refuseFiles([file('tool.exe', 10, 'application/x-msdos-program')], limits)).toMatchObject({
      reason: 'type',
    });
    expect(
      refuseFiles(
        [file('a.png', 1, 'image/png'), file('b.png', 1, 'image/png'), file('c.png', 1, 'image/png')],
        limits,
      ),
    ).toMatchObject({ reason: 'too_many', file: null });
  });
});
