import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against the sources of the workspace packages, not their build output.
const alias = {
  '@till/protocol': here('./packages/protocol/src/index.ts'),
  '@till/client': here('./packages/client/src/index.ts'),
  '@till/server': here('./packages/server/src/index.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      { resolve: { alias }, test: { name: 'client', include: ['packages/client/src/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: { name: 'integration', include: ['tests/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        resolve: { alias: { ...alias, '@': here('./apps/web/src') } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // Whole flows in jsdom (checkout, dialogs, the poller) take seconds on a busy 2-core machine.
          testTimeout: 20_000,
        },
      },
      // The phone projects against the web app's dependencies (files only: no SDK, no Xcode).
      { test: { name: 'mobile', include: ['apps/web/native-projects.test.ts'] } },
      {
        // The web app in Chromium against the real server: one file at a time, each a long journey.
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
