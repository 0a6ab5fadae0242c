import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Tests run against the sources of the workspace packages, not their build output.
const alias = {
  '@till/protocol': here('./packages/protocol/src/index.ts'),
  '@till/client/testing': here('./packages/client/src/testing.ts'),
  '@till/client': here('./packages/client/src/index.ts'),
  '@till/server/testing': here('./packages/server/src/testing.ts'),
  '@till/server': here('./packages/server/src/index.ts'),
  '@till/test-support': here('./packages/test-support/src'),
};

// Time limits catch a test that hangs, never a slow machine: a module loaded afresh, or a whole flow in
// jsdom, may take seconds while both cores are busy.
const patient = { testTimeout: 60_000, hookTimeout: 60_000 };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      { resolve: { alias }, test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'], ...patient } },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The fakes checked against the providers' official libraries and the server's own readers.
        resolve: { alias },
        test: { name: 'test-support', include: ['packages/test-support/src/**/*.test.ts'], ...patient },
      },
      { resolve: { alias }, test: { name: 'client', include: ['packages/client/src/**/*.test.ts'], ...patient } },
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
          ...patient,
        },
      },
      // The phone projects against the web app's dependencies (files only: no SDK, no Xcode).
      { test: { name: 'mobile', include: ['apps/web/native-projects.test.ts'], ...patient } },
      {
        // The web app in Chromium against the real server: each file a long journey with its own
        // Chromium and server (scripts/test.mjs runs two at a time).
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
