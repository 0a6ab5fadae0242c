import type { Readable } from 'node:stream';

/** An inclusive byte range of an object, as HTTP ranges count. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file contents live. Rows in the database say who owns what; a driver only keeps bytes
 * under opaque keys that the server makes up (never a client's file name). Every driver passes the
 * shared suite in `storage.test.ts`.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` into the object `key`. Resolves once the object is complete; if the body fails or
   * the write fails, nothing is left under the key and the promise rejects with the body's error.
   */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** Opens the object, or a byte range of it; `undefined` when there is no such object. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes the object; removing an absent object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Removes what writes cut short by a crash left behind, at start (the local driver's partial
   * files); answers how many were removed.
   */
  removeLeftovers(): Promise<number>;
  /** Every stored key under a prefix, partial writes included (for tests and maintenance). */
  list(prefix?: string): Promise<string[]>;
  /** Waits for the writes still running (their bodies fail once their requests are cut) to clean up. */
  close(): Promise<void>;
}

// Keys are made by the server from random ids; the check is a second line against a bug ever
// letting a path separator trick (`..`, absolute paths) reach a driver.
const KEY = /^[a-z]+(\/[A-Za-z0-9_-]{1,64}){1,3}$/;

/** Throws unless `key` is one the server could have made. */
export function assertKey(key: string): string {
  if (!KEY.test(key)) throw new Error('invalid storage key');
  return key;
}
