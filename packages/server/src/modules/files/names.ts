const MAX_NAME_CHARS = 200;

// Control characters, and the invisible format characters (bidi overrides such as U+202E, zero
// widths) that let a name display as something it is not: `invoice\u202Efdp.exe` reads as
// `invoiceexe.pdf`.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
// Characters that some file systems refuse or read as syntax when a user saves the download.
const RESERVED = /[<>:"|?*]/g;

/**
 * A client's file name made safe to show and to offer as a download name: the last path segment
 * only, NFC-normalised, without control or bidi characters, without leading dots, at most 200
 * characters (keeping the extension). It is only ever displayed; storage uses random keys.
 *
 * @example sanitizeFileName('../../etc/passwd') // 'passwd'
 */
export function sanitizeFileName(raw: string | undefined): string {
  const normalised = (raw ?? '').normalize('NFC').replace(INVISIBLE, '');
  const last =
    normalised
      .split(/[/\\]/)
      .filter((s) => s.trim())
      .pop() ?? '';
  let name = last
    .replace(RESERVED, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  const chars = [...name];
  if (chars.length > MAX_NAME_CHARS) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = chars.slice(0, MAX_NAME_CHARS - [...ext].length).join('') + ext;
  }
  return name || 'file';
}

/**
 * A `Content-Disposition` value for a sanitised name: an ASCII fallback for old clients and the
 * exact name in RFC 5987 `filename*`, so that quotes or non-Latin letters cannot break the header.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%;]/g, '_')
      .trim() || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
