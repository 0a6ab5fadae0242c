import { extensionFor } from './mime.js';

/**
 * A file to upload: a `Blob`/`File`, or bytes with a name and a MIME type.
 *
 * @example
 * const file: UploadFile = { name: 'notes.txt', data: new TextEncoder().encode('hi'), type: 'text/plain' };
 */
export type UploadFile = Blob | { name: string; data: Blob | ArrayBuffer | Uint8Array; type?: string };

/**
 * Files of a service call: a list (sent as field `files`) or files by field name.
 *
 * @example
 * const files: UploadFiles = { avatar: picked, attachments: [a, b] };
 */
export type UploadFiles = UploadFile[] | Record<string, UploadFile | UploadFile[]>;

const DATA_URI = /^data:([^;,]*)((?:;[^;,]*)*);base64,([\s\S]*)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Parses a base64 data URI (`data:image/png;base64,...`) into its MIME type and bytes; answers null
 * for anything else, so ordinary strings that merely start with `data:` stay strings.
 *
 * @example
 * const parsed = parseDataUri(canvas.toDataURL('image/png'));
 * if (parsed) console.log(parsed.mime, parsed.bytes.length);
 */
export function parseDataUri(value: string): { mime: string; bytes: Uint8Array } | null {
  if (!value.startsWith('data:') && !value.startsWith('DATA:')) return null;
  const match = DATA_URI.exec(value);
  if (!match) return null;
  const payload = (match[3] ?? '').replace(/\s+/g, '');
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return null;
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return { mime: (match[1] || 'text/plain').toLowerCase(), bytes };
}

function isBlob(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

/**
 * True when a call must go as multipart form data: it has files, a progress callback, or a field
 * holding a data URI or a `Blob`.
 *
 * @example
 * needsMultipart({ avatar: dataUri }, {}); // true
 */
export function needsMultipart(
  fields: Record<string, unknown>,
  options: { files?: UploadFiles | undefined; onUploadProgress?: unknown },
): boolean {
  if (options.onUploadProgress) return true;
  if (
    options.files &&
    (Array.isArray(options.files) ? options.files.length > 0 : Object.keys(options.files).length > 0)
  )
    return true;
  return Object.values(fields).some((v) => isBlob(v) || (typeof v === 'string' && parseDataUri(v) !== null));
}

/**
 * Builds the multipart body of a call. Base64 data-URI strings become files named by timestamp
 * with the extension of their MIME type (`1732250000000.png`); objects and arrays travel as JSON
 * text, other values as strings; `undefined` and `null` fields are left out.
 *
 * @example
 * const form = buildFormData({ token, avatar: 'data:image/png;base64,iVBOR...' }, undefined);
 */
export function buildFormData(
  fields: Record<string, unknown>,
  files: UploadFiles | undefined,
  now: () => number = Date.now,
): FormData {
  const form = new FormData();
  const stamp = now();
  let named = 0;
  // Two data URIs in the same call share the timestamp; a counter keeps their names apart.
  const nameFor = (mime: string) => `${stamp}${named++ === 0 ? '' : `-${named - 1}`}.${extensionFor(mime)}`;

  // Plain fields go before every file, in their order: a server that reads the body as a stream
  // (the files service does) sees the token and options before the first byte of a file.
  const fileFields: [string, Blob, string][] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (isBlob(value)) {
      fileFields.push([name, value, fileName(value) ?? nameFor(value.type)]);
    } else if (typeof value === 'string') {
      const parsed = parseDataUri(value);
      if (parsed)
        fileFields.push([name, new Blob([parsed.bytes as BlobPart], { type: parsed.mime }), nameFor(parsed.mime)]);
      else form.append(name, value);
    } else if (typeof value === 'object') {
      form.append(name, JSON.stringify(value));
    } else {
      form.append(name, String(value));
    }
  }
  for (const [name, blob, filename] of fileFields) form.append(name, blob, filename);

  const entries: [string, UploadFile][] = [];
  if (Array.isArray(files)) for (const f of files) entries.push(['files', f]);
  else if (files) {
    for (const [field, f] of Object.entries(files))
      for (const one of Array.isArray(f) ? f : [f]) entries.push([field, one]);
  }
  for (const [field, file] of entries) {
    if (isBlob(file)) {
      form.append(field, file, fileName(file) ?? nameFor(file.type));
    } else {
      const blob = isBlob(file.data) ? file.data : new Blob([file.data as BlobPart], { type: file.type ?? '' });
      form.append(field, blob, file.name);
    }
  }
  return form;
}

function fileName(blob: Blob): string | undefined {
  const name = (blob as Blob & { name?: unknown }).name;
  return typeof name === 'string' && name ? name : undefined;
}
