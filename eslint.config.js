import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import till from './eslint/till-plugin.js';

const restrict = (names, message) => ({
  'no-restricted-imports': ['error', { patterns: names.map((group) => ({ group: [group], message })) }],
});

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
    rules: restrict(
      ['@till/server', '@till/web', 'react', 'react-dom'],
      'the SDK is framework-agnostic and never imports the server',
    ),
  },
  {
    files: ['packages/server/**'],
    rules: restrict(['@till/client', '@till/web'], 'the server never imports the client or the web app'),
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
      ...restrict(['@till/server'], 'the web app talks to the server only through the SDK'),
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
    rules: restrict(['@till/server', '@/features/*', '@/app/*'], 'shared web code imports no feature and not the app'),
  },
  {
    files: ['bench/**', 'e2e/**', 'scripts/**', '.ci/**', '**/*.test.ts', '**/*.test.tsx', '**/test-support/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
