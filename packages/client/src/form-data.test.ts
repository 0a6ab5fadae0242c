import { describe, expect, it } from 'vitest';
import { buildFormData, needsMultipart, parseDataUri } from './form-data.js';
import { extensionFor } from './mime.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('parseDataUri', () => {
  it('decodes a base64 data URI into its MIME type and bytes', () => {
    const parsed = parseDataUri(PNG);
    expect(parsed?.mime).toBe('image/png');
    expect([...(parsed?.bytes ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(parseDataUri('data:text/plain;charset=utf-8;base64,aGk=')?.mime).toBe('text/plain');
  });

  it('leaves other strings alone: plain text, non-base64 data URIs, broken base64', () => {
    expect(parseDataUri('hello')).toBeNull();
    expect(parseDataUri('data:text/plain,hello')).toBeNull();
    expect(parseDataUri('data:image/png;base64,@@@')).toBeNull();
    expect(parseDataUri('data: is a word')).toBeNull();
  });
});

describe('extensionFor', () => {
  it('maps MIME types to extensions, ignoring case and parameters, bin when unknown', () => {
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('IMAGE/PNG; q=1')).toBe('png');
    expect(extensionFor('application/pdf')).toBe('pdf');
    expect(extensionFor('application/x-nobody-knows')).toBe('bin');
  });
});

describe('needsMultipart', () => {
  it('is true with files, a progress callback, a data-URI field or a Blob field only', () => {
    expect(needsMultipart({ a: 1 }, {})).toBe(false);
    expect(needsMultipart({ a: 1 }, { files: [] })).toBe(false);
    expect(needsMultipart({ a: 1 }, { files: [new Blob(['x'])] })).toBe(true);
    expect(needsMultipart({ a: 1 }, { onUploadProgress: () => {} })).toBe(true);
    expect(needsMultipart({ pic: PNG }, {})).toBe(true);
    expect(needsMultipart({ pic: new Blob(['x']) }, {})).toBe(true);
  });
});

describe('buildFormData', () => {
  it('turns data-URI fields into files named by timestamp with the MIME extension, after the plain fields', async () => {
    const form = buildFormData(
      {
        avatar: PNG,
        token: 't',
        doc: 'data:application/pdf;base64,JVBERg==',
        n: 2,
        meta: { a: [1] },
        skip: undefined,
        nil: null,
      },
      undefined,
      () => 1_732_250_000_000,
    );
    const keys: string[] = [];
    form.forEach((_value, key) => keys.push(key));
    expect(keys).toEqual(['token', 'n', 'meta', 'avatar', 'doc']);
    expect(form.get('n')).toBe('2');
    expect(form.get('meta')).toBe('{"a":[1]}');
    const avatar = form.get('avatar') as File;
    expect(avatar.name).toBe('1732250000000.png');
    expect(avatar.type).toBe('image/png');
    expect(new Uint8Array(await avatar.arrayBuffer())[1]).toBe(0x50);
    expect((form.get('doc') as File).name).toBe('1732250000000-1.pdf');
  });

  it('appends files from a list as `files` and by field name from a record', () => {
    const list = buildFormData({}, [new File(['a'], 'a.txt'), { name: 'b.bin', data: new Uint8Array([1, 2]) }]);
    expect(list.getAll('files').map((f) => (f as File).name)).toEqual(['a.txt', 'b.bin']);
    const named = buildFormData(
      {},
      { avatar: new File(['a'], 'me.jpg'), extra: [new Blob(['x'], { type: 'text/plain' })] },
      () => 5,
    );
    expect((named.get('avatar') as File).name).toBe('me.jpg');
    expect((named.get('extra') as File).name).toBe('5.txt');
  });
});
