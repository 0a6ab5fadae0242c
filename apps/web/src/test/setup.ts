import '@testing-library/jest-dom/vitest';
// jsdom has no IndexedDB, where the web side keeps config files.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
  globalThis.indexedDB = new IDBFactory();
  // jsdom has no matchMedia; a test that sets the screen's size (`setScreen`) leaves none behind.
  Reflect.deleteProperty(window, 'matchMedia');
});
