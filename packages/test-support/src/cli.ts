import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverDist = (path: string) => fileURLToPath(new URL(`../../server/dist/${path}`, import.meta.url));

/** The built server, as deployed (the image, `npm start`): `node packages/server/dist/main.js`. */
export const SERVER_MAIN = serverDist('main.js');

/**
 * The time limit of a test that runs the server or its commands in processes of their own: each loads
 * the built server (`server-build.ts` compiles it before the run), under a second on a quiet machine and
 * many more with both cores busy beside the rest of the suite. Like every limit in the suite, it catches a
 * process that hangs, not a slow machine.
 */
export const COMMAND_TEST_TIMEOUT = 240_000;

/**
 * Runs one of the server's built commands (`dist/cli/NAME.js`, as `npm run NAME` and a deployment run it) in
 * a process of its own; answers its exit code and output.
 */
export function runCli(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [serverDist(`cli/${name}.js`), ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
