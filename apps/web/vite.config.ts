import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { requireServerHosts } from './native-build.ts';
import { appRoutePattern } from './src/app/paths.ts';
import {
  axiosWithoutFetch,
  eagerCompileHint,
  entryAfterFirstPaint,
  muiThemeWithoutVars,
  precompress,
  reactRouterProduction,
  reactSentinelsWithoutStacks,
  startChunkList,
  startStageGroups,
  startStageModules,
} from './vite-plugins.ts';

// What runs at start, after the small entry (src/main.tsx): its stages, the app, and the page a
// visitor sees first. Their chunks compile as they stream in, and the entry preloads them all at once.
const AT_START = [
  'src/boot/scheduler.ts',
  'src/boot/react.ts',
  'src/boot/ui.ts',
  'src/start.tsx',
  'src/app/routes/catalog.tsx',
];
const startChunks = startChunkList(AT_START);

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The start's chunks follow its stages: a first build, kept in memory and without the groups below,
// tells which modules each stage is the first to run (`startStageModules`).
async function measureStages(mode: string): Promise<Map<string, string>> {
  process.env.TILL_START_STAGES = '1';
  try {
    return await startStageModules(AT_START, async () => {
      const out = await build({
        configFile: here('./vite.config.ts'),
        mode,
        logLevel: 'silent',
        build: { write: false },
      });
      return (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : []));
    });
  } finally {
    delete process.env.TILL_START_STAGES;
  }
}

export default defineConfig(async ({ command, mode }) => {
  const measuring = Boolean(process.env.TILL_START_STAGES);
  // The measuring build itself groups nothing.
  const stages = command === 'build' && !measuring ? await measureStages(mode) : undefined;
  return {
    resolve: {
      alias: {
        '@': here('./src'),
        // The workspace packages are compiled from source, like the tests do.
        '@till/protocol': here('../../packages/protocol/src/index.ts'),
        '@till/client': here('../../packages/client/src/index.ts'),
      },
    },
    plugins: [
      requireServerHosts(),
      react(),
      axiosWithoutFetch(),
      muiThemeWithoutVars(),
      reactRouterProduction(),
      reactSentinelsWithoutStacks(),
      eagerCompileHint(AT_START),
      startChunks.plugin,
      entryAfterFirstPaint(),
      // Neither is needed to measure the stages, and neither would find files to work on.
      ...(measuring ? [] : [precompress(), pwa()]),
    ],
    build: {
      target: 'es2022',
      // The page names its one small entry and nothing else: what the entry imports it fetches itself,
      // after the drawn page is painted (a preload hint in the page would compete with that paint).
      modulePreload: { resolveDependencies: startChunks.resolveDependencies },
      rolldownOptions: {
        output: {
          // What each start stage runs first, libraries and the app's own modules, in one chunk per
          // stage (a dozen start chunks instead of some 35); the rest as the bundler cuts it.
          codeSplitting: { groups: stages ? startStageGroups(stages, 0) : [] },
        },
      },
      sourcemap: false,
      chunkSizeWarningLimit: 400,
    },
    server: { proxy: { '/api': 'http://127.0.0.1:3000', '/dev': 'http://127.0.0.1:3000' } },
  };
});

function pwa() {
  return VitePWA({
    // start.tsx registers the worker itself, after checking that the script is really served.
    injectRegister: false,
    registerType: 'autoUpdate',
    includeAssets: ['favicon-48.png', 'icon-192.png'],
    manifest: {
      name: 'Till',
      short_name: 'Till',
      description: 'Your account, your files and a store with credits and coupons.',
      lang: 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#f6f8f7',
      theme_color: '#1e5b4f',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      navigateFallback: '/index.html',
      // Only the app's own pages fall back to the shell: the server renders others (the sandbox
      // checkout page, the API docs, the dev outbox) and those must reach the network.
      navigateFallbackAllowlist: [appRoutePattern],
      cleanupOutdatedCaches: true,
    },
  });
}
