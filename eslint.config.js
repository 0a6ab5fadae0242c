import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The server's domain modules: every folder under src/modules is one, so a new module is held to
// the same rules without an edit here.
const server = './packages/server/src';
const serverModules = readdirSync(new URL('packages/server/src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const platform = ['db', 'http', 'mail', 'security', 'errors.ts', 'config.ts'].map((p) => `${server}/${p}`);
// Each module imports no other module; nothing below the flows imports the flows or the app.
const moduleZones = [
  ...serverModules.map((name) => ({
    target: `${server}/modules/${name}`,
    from: `${server}/modules`,
    except: [`./${name}`],
    message:
      'modules never import each other: take what you need as a constructor argument, or move the work into a flow',
  })),
  {
    target: `${server}/modules`,
    from: [`${server}/flows`, `${server}/app.ts`, `${server}/context.ts`, `${server}/main.ts`, `${server}/web.ts`],
    message: 'modules sit below the flows and the app: they are handed what they need',
  },
  {
    target: platform,
    from: [`${server}/modules`, `${server}/flows`, `${server}/app.ts`, `${server}/context.ts`],
    message: 'the platform (db, http, mail, security, errors, config) knows no module',
  },
];
// Outside a module, only its entry (index.ts) is imported.
const entryZone = {
  target: [`${server}/flows`, `${server}/app.ts`],
  from: `${server}/modules`,
  except: serverModules.map((name) => `./${name}/index.ts`),
  message: "use the module's entry (its index.ts)",
};

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
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  // No import circles anywhere: a circle is a layer that leaks, and it makes start-up order fragile.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Dependencies are parsed as TypeScript too, or a circle through them goes unseen.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/*/tsconfig.json', 'apps/web/tsconfig.json', 'tsconfig.check.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
  // The direction of imports between the parts (ARCHITECTURE.md).
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
  // The server's layers (docs/DEVELOPING.md): platform <- modules <- flows <- app.
  {
    files: ['packages/server/src/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...moduleZones, entryZone] }] },
  },
  {
    // Tests may reach into the module they test, and into a provider to sign its notifications.
    files: ['packages/server/src/**/*.test.ts', 'packages/server/src/test-support/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleZones }] },
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
  // Web app layers (STYLE.md): features never import each other or the app; shared code imports
  // neither. Only the route modules in src/app compose features.
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
