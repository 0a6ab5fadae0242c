import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type { CdvStoreLike } from '../adapters/cdv-store.js';

// The real cordova-plugin-purchase (v13, the library capacitor-plugin-cdv-purchase ships) is a
// browser script that sets `window.CdvPurchase`. Each load gets its own global scope, so tests do
// not share a store; its TEST platform asks the buyer through `prompt`, which `answer` plays.
const require = createRequire(import.meta.url);
const source = readFileSync(
  join(dirname(require.resolve('cordova-plugin-purchase/package.json')), 'www', 'store.js'),
  'utf8',
);

/** The parts of the loaded plugin the tests look at. */
export interface LoadedPlugin {
  store: CdvStoreLike & { verbosity: number; products: { id: string; type: string }[] };
  ProductType: Record<string, string>;
}

/** Loads a fresh copy of the plugin; `answer` is what the buyer types into the TEST platform's prompt. */
export function loadCdvPurchase(answer: () => string | null): LoadedPlugin {
  const quiet = { log: () => {}, info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
  const sandbox: Record<string, unknown> = {
    console: quiet,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
    prompt: answer,
  };
  sandbox.window = sandbox;
  vm.createContext(sandbox);
  vm.runInContext(source, sandbox);
  const plugin = (sandbox.window as { CdvPurchase: LoadedPlugin }).CdvPurchase;
  plugin.store.verbosity = 0;
  return plugin;
}
