import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Vitest's global setup of the projects whose tests start the built server or its commands
 * (`SERVER_MAIN`, `runCli`, the cluster suite): compiles the server and the protocol it imports into
 * `dist/`, as `npm run build` does, once per run and before any file, so that no two files compile at
 * once and none starts a half-written build. Up to date (`npm test` compiles first), it writes nothing.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  await promisify(execFile)(process.execPath, [tsc, '-b', 'packages/protocol', 'packages/server'], { cwd: root });
}
