import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ConfigError } from '../config.js';
import { takenAtOf, type BackupStore, type StoredBackup } from './backup-names.js';

/** Backups in an S3 bucket, under a prefix: `s3://BUCKET[/PREFIX]?endpoint=URL&region=REGION`. */
export class S3BackupStore implements BackupStore {
  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  static fromUrl(raw: string): S3BackupStore {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError('BACKUP_URL', 'is not a valid s3:// URL');
    }
    if (!url.hostname) throw new ConfigError('BACKUP_URL', 's3:// needs a bucket');
    const prefix = decodeURIComponent(url.pathname.replace(/^\/+/, ''));
    const endpoint = url.searchParams.get('endpoint') ?? undefined;
    const pathStyle = url.searchParams.get('forcePathStyle');
    const client = new S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      region: url.searchParams.get('region') ?? 'us-east-1',
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: pathStyle ? pathStyle === 'true' : Boolean(endpoint),
    });
    return new S3BackupStore(client, url.hostname, prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix);
  }

  async save(name: string, file: string): Promise<void> {
    // The object appears only once the upload completes: a cut upload leaves nothing under the name.
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.prefix + name,
        Body: createReadStream(file),
        ContentType: 'application/gzip',
      },
      leavePartsOnError: false,
    }).done();
  }

  async list(): Promise<StoredBackup[]> {
    const found: StoredBackup[] = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of res.Contents ?? []) {
        const name = (o.Key ?? '').slice(this.prefix.length);
        const takenAt = takenAtOf(name);
        if (takenAt !== undefined) found.push({ name, takenAt, size: o.Size ?? 0 });
      }
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return found.sort((a, b) => b.takenAt - a.takenAt);
  }

  async open(name: string): Promise<Readable | undefined> {
    if (takenAtOf(name) === undefined) return undefined;
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + name }));
      return res.Body as Readable;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    if (takenAtOf(name) === undefined) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + name }));
  }

  close(): void {
    this.client.destroy();
  }
}
