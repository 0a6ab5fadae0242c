import { loadEnv, type Plugin } from 'vite';

/** The Vite mode the phone apps are built in (`npm run mobile:sync`). */
export const NATIVE_MODE = 'native';

/**
 * Stops a phone build that does not know its server. The shell serves the app from its own origin
 * (`https://localhost`, `capacitor://localhost`), so without the hosts every call would go there
 * and the app would install fine and then fail on its first screen.
 */
export function requireServerHosts(): Plugin {
  return {
    name: 'till-require-server-hosts',
    config(_config, { mode }) {
      if (mode !== NATIVE_MODE) return;
      const env = loadEnv(mode, process.cwd(), 'VITE_');
      const missing = ['VITE_API_HOST', 'VITE_STORE_HOST'].filter((name) => {
        const value = env[name]?.trim();
        return !value || !/^https?:\/\/[^/]/.test(value);
      });
      if (missing.length)
        throw new Error(
          `The phone apps' build needs the server's address in ${missing.join(' and ')} ` +
            `(an http(s) URL, e.g. VITE_API_HOST=https://till.example VITE_STORE_HOST=https://till.example ` +
            `npm run mobile:sync -w @till/web): the app is served from the phone's own origin and ` +
            `cannot reach the server without it.`,
        );
    },
  };
}
