import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import TestSequencer from './scripts/test-sequencer.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const root = here('.');

/**
 * The test files under `dir` that replace modules (`vi.mock`, `vi.doMock`), relative to the root. Test
 * files share their worker's modules (`isolate: false`, below), where a replaced module would reach the
 * files that run after it in the same worker; these run in projects of their own, each file with fresh
 * modules.
 */
function mockingFiles(dir: string): string[] {
  return readdirSync(here(dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.includes('node_modules'))
    .map((f) => join(here(dir), f))
    .filter((f) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f));
}
const webMocking = mockingFiles('apps/web/src');
const clientMocking = mockingFiles('packages/client/src');

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
// jsdom, may take seconds while both cores are busy. So does a wait for something to happen:
// `expect.poll` waits up to 30 s here (Vitest's own default is 1 s), and each `vi.waitFor`, which has
// no such setting, names a limit of 20 s or more.
const waitFor = { expect: { poll: { timeout: 30_000 } } };
const patient = { testTimeout: 60_000, hookTimeout: 60_000, ...waitFor };

// Projects with tests that start the built server or its commands in processes of their own (the server
// process and its commands, the cluster suite) compile it first, once per run.
const serverBuild = { globalSetup: ['packages/test-support/src/server-build.ts'] };

// A test file's modules are loaded once per worker, not once per file: loading the server, or React and
// MUI in jsdom, took most of the suite's time when every file loaded them afresh. Each test builds what
// it tests (its own database, app, server, QueryClient), so module state does not carry a test's
// outcome; what a file leaves in shared globals is reset after each test (apps/web/src/test/setup.ts).
// See docs/decisions/016-test-files-share-modules.md.
const shared = { isolate: false };

export default defineConfig({
  resolve: { alias },
  test: {
    // Modules transformed once are kept on disk (node_modules/.experimental-vitest-cache, keyed by content and
    // config) for the other runs of `npm test` and later runs: the three runs load the same server modules.
    experimental: { fsModuleCache: true },
    // Files whose duration no earlier run gave start by their size, counting the suite they run.
    sequence: { sequencer: TestSequencer },
    projects: [
      {
        resolve: { alias },
        test: { name: 'protocol', include: ['packages/protocol/src/**/*.test.ts'], ...patient, ...shared },
      },
      {
        resolve: { alias },
        test: { name: 'server', include: ['packages/server/src/**/*.test.ts'], ...serverBuild, ...patient, ...shared },
      },
      {
        // The fakes checked against the providers' official libraries and the server's own readers.
        resolve: { alias },
        test: { name: 'test-support', include: ['packages/test-support/src/**/*.test.ts'], ...patient, ...shared },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          include: ['packages/client/src/**/*.test.ts'],
          exclude: clientMocking,
          ...patient,
          ...shared,
        },
      },
      { resolve: { alias }, test: { name: 'client-mocking', include: clientMocking, ...patient } },
      {
        resolve: { alias },
        test: { name: 'integration', include: ['tests/**/*.test.ts'], ...serverBuild, ...patient, ...shared },
      },
      {
        resolve: { alias: { ...alias, '@': here('./apps/web/src') } },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          exclude: webMocking,
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          ...patient,
          ...shared,
        },
      },
      {
        resolve: { alias: { ...alias, '@': here('./apps/web/src') } },
        test: {
          name: 'web-mocking',
          include: webMocking,
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          ...patient,
        },
      },
      // The phone projects against the web app's dependencies (files only: no SDK, no Xcode).
      { test: { name: 'mobile', include: ['apps/web/native-projects.test.ts'], ...patient, ...shared } },
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
          ...waitFor,
          ...shared,
        },
      },
    ],
  },
});
