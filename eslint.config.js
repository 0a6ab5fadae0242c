import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import till from './eslint/till-plugin.js';

const restrictAll = (...rules) => ({
  'no-restricted-imports': [
    'error',
    { patterns: rules.flatMap(([names, message]) => names.map((group) => ({ group: [group], message }))) },
  ],
});
const restrict = (names, message) => restrictAll([names, message]);
// The test support (packages/test-support, and the server's testing.ts it reaches in through) is for
// tests only: the server, the SDK and the web app never import it.
const TEST_SUPPORT = [['@till/test-support', '@till/server/testing'], 'only tests import the test support'];
const SERVER_ALONE = [['@till/client', '@till/web'], 'the server never imports the client or the web app'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'test-output/**',
      'data/**',
      'apps/web/android/**',
      'apps/web/ios/**',
      'apps/web/dev-dist/**',
      'bench/peers/.install/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  // No import circles anywhere (type-only imports included): a circle is a layer that leaks, and it
  // makes start-up order fragile. eslint/till-plugin.js.
  {
    files: ['packages/*/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    plugins: { till },
    rules: { 'till/no-import-cycle': 'error' },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  // The direction of imports between the parts (docs/DEVELOPING.md, Layout).
  { files: ['packages/protocol/**'], rules: restrict(['@till/*'], 'protocol imports nothing of ours') },
  {
    files: ['packages/client/**'],
    rules: restrictAll(
      [
        ['@till/server', '@till/web', 'react', 'react-dom'],
        'the SDK is framework-agnostic and never imports the server',
      ],
      TEST_SUPPORT,
    ),
  },
  { files: ['packages/server/**'], rules: restrictAll(SERVER_ALONE) },
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/server/src/testing.ts'],
    rules: restrictAll(SERVER_ALONE, TEST_SUPPORT),
  },
  // The server's layers (docs/DEVELOPING.md, Server): platform <- modules <- flows <- app; modules never
  // import each other, and outside a module only its index.ts is imported.
  {
    files: ['packages/server/src/**/*.ts'],
    plugins: { till },
    rules: { 'till/server-layers': 'error' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrictAll([['@till/server'], 'the web app talks to the server only through the SDK'], TEST_SUPPORT),
    },
  },
  // Web app layers (docs/DEVELOPING.md, Web app): features never import each other or the app; shared
  // code imports neither. Only the route modules in src/app compose features.
  ...['auth', 'profile', 'files', 'store', 'cart', 'orders', 'credits', 'admin'].map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@till/server'], message: 'the web app talks to the server only through the SDK' },
            { group: ['@till/test-support'], message: TEST_SUPPORT[1] },
            {
              group: ['@/features/*', `!@/features/${feature}`, '../../*'],
              message: 'features never import each other',
            },
            { group: ['@/app/*'], message: 'features never import the app; routes pass them what they need' },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/src/{components,lib,platform,i18n}/**/*.{ts,tsx}'],
    rules: restrictAll(
      [['@till/server', '@/features/*', '@/app/*'], 'shared web code imports no feature and not the app'],
      TEST_SUPPORT,
    ),
  },
  {
    files: ['bench/**', 'e2e/**', 'scripts/**', '.ci/**', '**/*.test.ts', '**/*.test.tsx', '**/test-support/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
