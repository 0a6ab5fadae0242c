import type { ConfigBackend } from '../config';

const DB_NAME = 'till-config';
const STORE = 'files';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

// Opened per call and closed after: config files are read a few times per session, and a
// connection left open would block a later version's upgrade in another tab.
function open(): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB cannot be opened'));
  });
}

/**
 * Config files in the origin's IndexedDB (database `till-config`, one text per file name): kept
 * across reloads and restarts, and out of the way of localStorage's small, synchronous quota.
 */
export const idbConfig: ConfigBackend = {
  async read(file) {
    const db = await open();
    try {
      const text: unknown = await request(db.transaction(STORE, 'readonly').objectStore(STORE).get(file));
      return typeof text === 'string' ? text : null;
    } finally {
      db.close();
    }
  },
  async write(file, text) {
    const db = await open();
    try {
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(text, file);
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
      });
    } finally {
      db.close();
    }
  },
};
