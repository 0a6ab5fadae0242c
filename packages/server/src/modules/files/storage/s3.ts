import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertKey, type ByteRange, type ObjectStorage } from './storage.js';

/** Where the S3 driver keeps objects. */
export interface S3Options {
  bucket: string;
  /** Prepended to every key (`tenant/` style), without a leading slash. */
  prefix: string;
  client: S3ClientConfig;
}

// S3's smallest part is 5 MiB; two parts in flight keep a 50 MB upload moving while holding at
// most ~10 MiB of it in memory per request.
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;
// How long close() waits for cut uploads to abort before the client is destroyed.
const CLOSE_WAIT_MS = 2000;

/** Objects in any S3-compatible store, written with multipart uploads. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  /** The uploads under way: close() lets a cut one abort its multipart upload before the client goes. */
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      // Streamed bodies of unknown length are sent with aws-chunked encoding when the SDK adds
      // checksums on its own; several S3-compatible servers then store the chunk framing as
      // content. Checksums only where the API requires them keeps bodies byte-exact everywhere.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...options.client,
    });
  }

  private keyOf(key: string): string {
    return this.options.prefix + assertKey(key);
  }

  async put(key: string, body: Readable, contentType: string): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.keyOf(key), Body: body, ContentType: contentType },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      // On any failure the multipart upload is aborted, so no parts linger and are billed.
      leavePartsOnError: false,
    });
    const done = upload.done().then(() => undefined);
    const settled = done.catch(() => undefined);
    this.writing.add(settled);
    try {
      await done;
    } catch (error) {
      body.destroy();
      throw error;
    } finally {
      this.writing.delete(settled);
    }
  }

  /**
   * A failed upload aborts its multipart upload (`leavePartsOnError: false`), also one cut by a
   * shutdown. One cut by a crash is left to the bucket's lifecycle rule
   * (`AbortIncompleteMultipartUpload`, docs/api.md): the bucket may be shared by several copies, so
   * an upload under way cannot be told from a leftover here.
   */
  async removeLeftovers(): Promise<number> {
    return 0;
  }

  async get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.keyOf(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return res.Body as Readable | undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(key) }));
  }

  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.options.prefix + prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const o of res.Contents ?? []) if (o.Key) keys.push(o.Key.slice(this.options.prefix.length));
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.writing),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    this.client.destroy();
  }
}
