import type { Readable } from 'node:stream';

/** How many leading bytes are read to tell the type; enough for zip-based office documents. */
export const SNIFF_BYTES = 64 * 1024;

/**
 * The types an upload may have, as sniffed from its bytes. Types a browser would run (HTML, SVG,
 * XML, scripts) are not here: HTML without a signature reads as plain text and is served as such.
 */
export const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
  'image/bmp',
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/x-m4a',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'text/plain',
]);

/** Images a browser shows inline and the avatar resizer reads. */
/** File name endings of the allowed types, for a file chooser (the server still sniffs the content). */
export const ALLOWED_EXTENSIONS: readonly string[] = [
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.webp',
  '.avif',
  '.heic',
  '.bmp',
  '.pdf',
  '.zip',
  '.docx',
  '.xlsx',
  '.pptx',
  '.odt',
  '.ods',
  '.mp3',
  '.ogg',
  '.wav',
  '.m4a',
  '.mp4',
  '.webm',
  '.mov',
  '.txt',
];

export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
]);

/**
 * The type of a file from its first bytes: a known signature, else `text/plain` when the bytes are
 * UTF-8 without NULs, else undefined. The client's declared type is never consulted.
 */
export async function sniffType(head: Buffer): Promise<string | undefined> {
  // Loaded on the first upload rather than at start, like the other heavy optional modules.
  const { fileTypeFromBuffer } = await import('file-type');
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  return looksLikeText(head) ? 'text/plain' : undefined;
}

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    // `stream: true` lets the sample end inside a multi-byte character.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the first `bytes` of a stream without losing them: answers those bytes and a stream of the
 * whole content. The returned stream keeps the source's backpressure, fails with the source's
 * errors, and fails with `check`'s error as soon as the running total is refused.
 */
export async function peek(
  source: Readable,
  bytes: number,
  check: (total: number) => Error | undefined,
): Promise<{ head: Buffer; body: AsyncIterable<Buffer>; total: () => number }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first: Buffer[] = [];
  let length = 0;
  let done = false;
  try {
    while (length < bytes) {
      const next = await it.next();
      if (next.done) {
        done = true;
        break;
      }
      first.push(next.value);
      length += next.value.length;
      const refused = check(length);
      if (refused) throw refused;
    }
  } catch (error) {
    await it.return?.();
    throw error;
  }
  const head = Buffer.concat(first);
  let total = head.length;
  async function* body(): AsyncGenerator<Buffer> {
    let finished = done;
    try {
      if (head.length) yield head;
      while (!finished) {
        const next = await it.next();
        if (next.done) {
          finished = true;
          break;
        }
        total += next.value.length;
        const refused = check(total);
        if (refused) throw refused;
        yield next.value;
      }
    } finally {
      // Stops reading the part when the consumer gives up or a limit is hit.
      if (!finished) await it.return?.();
    }
  }
  return { head, body: body(), total: () => total };
}
