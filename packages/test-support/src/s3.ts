import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** A local S3-compatible server (s3rver) with one bucket, for the S3 storage driver's tests. */
export interface TestS3 {
  /** A `STORAGE_URL` for the bucket. */
  storageUrl: string;
  bucket: string;
  /**
   * Multipart uploads s3rver has begun in the bucket and not completed. s3rver does not implement
   * AbortMultipartUpload, so an aborted upload stays counted here (real S3 drops its parts).
   */
  unfinishedMultipartUploads(): number;
  close(): Promise<void>;
}

let started = 0;

export async function startS3(): Promise<TestS3> {
  // s3rver checks request signatures against these fixed credentials; the AWS SDK picks them up
  // from the environment exactly as it would real ones, so the driver is tested as deployed.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  started += 1;
  const bucket = `till-test-${started}`;
  const directory = mkdtempSync(join(tmpdir(), 'till-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    storageUrl: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1`,
    bucket,
    unfinishedMultipartUploads() {
      const uploads = join(directory, bucket, '._S3rver_uploads');
      return existsSync(uploads) ? readdirSync(uploads).length : 0;
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
