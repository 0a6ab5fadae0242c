import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  localStorage.clear();
  // jsdom has no matchMedia; a test that sets the screen's size (`setScreen`) leaves none behind.
  Reflect.deleteProperty(window, 'matchMedia');
});
