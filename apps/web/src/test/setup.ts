import '@testing-library/jest-dom/vitest';
// jsdom has no IndexedDB, where the web side keeps config files.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy and waitFor wait for what the app does next, never for a fixed time: a busy machine may need
// longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

// The files of a worker share one document (vitest.config.ts: `isolate: false`): each test starts from
// an empty one, as a fresh file would.
afterEach(() => {
  cleanup();
  document.title = '';
  document.body.replaceChildren();
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
  localStorage.clear();
  globalThis.indexedDB = new IDBFactory();
  // jsdom has no matchMedia; a test that sets the screen's size (`setScreen`) leaves none behind.
  Reflect.deleteProperty(window, 'matchMedia');
});
