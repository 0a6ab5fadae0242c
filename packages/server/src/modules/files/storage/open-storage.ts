import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../../config.js';
import { LocalStorage } from './local.js';
import type { ObjectStorage } from './storage.js';

/**
 * Opens the storage `STORAGE_URL` names: `file:PATH` (relative to the working folder, or
 * `file:///absolute`) or `s3://BUCKET[/PREFIX]?endpoint=URL&region=REGION&forcePathStyle=true`.
 * S3 credentials come from the AWS SDK's usual sources (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, profiles, instance roles). The AWS SDK is loaded only for an s3 URL: it
 * adds some 20 MB to the resident memory of a server that does not use it.
 */
export async function openStorage(storageUrl: string): Promise<ObjectStorage> {
  if (storageUrl.startsWith('file:')) {
    const path = storageUrl.startsWith('file://') ? fileURLToPath(storageUrl) : storageUrl.slice('file:'.length);
    if (!path) throw new ConfigError('STORAGE_URL', 'file: needs a folder');
    return new LocalStorage(path);
  }
  if (storageUrl.startsWith('s3://')) {
    let url: URL;
    try {
      url = new URL(storageUrl);
    } catch {
      throw new ConfigError('STORAGE_URL', 'is not a valid s3:// URL');
    }
    const bucket = url.hostname;
    if (!bucket) throw new ConfigError('STORAGE_URL', 's3:// needs a bucket');
    const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    if (endpoint && !/^https?:\/\//.test(endpoint))
      throw new ConfigError('STORAGE_URL', 'endpoint must be an http(s) URL');
    const pathStyle = url.searchParams.get('forcePathStyle');
    const { S3Storage } = await import('./s3.js');
    return new S3Storage({
      bucket,
      prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
      client: {
        region: url.searchParams.get('region') ?? 'us-east-1',
        ...(endpoint ? { endpoint } : {}),
        // Self-hosted stores rarely have per-bucket DNS names, so an explicit endpoint means path style.
        forcePathStyle: pathStyle ? pathStyle === 'true' : Boolean(endpoint),
      },
    });
  }
  throw new ConfigError('STORAGE_URL', 'must start with file: or s3://');
}
