import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fail, type Outcome } from '../../errors.js';
import type { FilesService } from './service.js';
import { IMAGE_TYPES } from './sniff.js';

/** Avatars are stored as this square WebP, whatever was uploaded. */
export const AVATAR_SIZE = 256;
// A decompression bomb (a tiny file that decodes to billions of pixels) is refused before decoding.
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Makes the avatar for `updateInfo({avatarFileId})`: the user's own uploaded image, resized to a
 * 256x256 WebP without its metadata (no camera GPS leaks through a profile picture), stored under a
 * key of its own. The link to it (`avatarUrl`) names only that copy, never the original file.
 * Answers the new key; the previous avatar's object is removed.
 */
export async function makeAvatar(files: FilesService, userId: string, fileId: string): Promise<Outcome<string>> {
  const row = await files.repo.findById(fileId);
  if (!row || row.user_id !== userId) return fail.notFound('avatarFileId');
  if (!IMAGE_TYPES.has(row.mime)) return fail.invalidInput('avatarFileId', 'invalid');
  // Loaded on first use: libvips adds some 30 MB to the resident memory of every server otherwise.
  const { default: sharp } = await import('sharp');
  // Opened last: the stream holds its file open until it is read or destroyed.
  const source = await files.deps.storage.get(row.storage_key);
  if (!source) return fail.notFound('avatarFileId');
  const resizer = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
    .webp({ quality: 82 });
  source.on('error', (error) => resizer.destroy(error));
  let webp: Buffer;
  try {
    webp = await source.pipe(resizer).toBuffer();
  } catch {
    // Sniffing passed but the image does not decode (truncated, corrupt, or too many pixels).
    source.destroy();
    return fail.invalidInput('avatarFileId', 'invalid');
  }
  const key = `avatars/${randomBytes(16).toString('base64url')}`;
  await files.deps.storage.put(key, Readable.from([webp]), 'image/webp');
  const previous = await files.deps.owners.avatarOf(userId);
  if (previous?.startsWith('avatars/')) await files.deleteObject(previous);
  return key;
}
