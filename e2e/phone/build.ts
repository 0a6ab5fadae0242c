import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newest } from '../support/newest.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const web = join(root, 'apps/web');
/** The phone build, apart from the browser build the other tests use. */
export const phoneDist = join(root, 'test-output/phone-dist');

/**
 * The API host the phone build is made with. The test server's port is only known once it
 * listens, so pages and scripts are served with this host replaced by the server's address: one
 * build serves every test.
 */
export const API_PLACEHOLDER = 'https://api.till-phone.invalid';

const phoneMark = join(phoneDist, '.built');
const phoneLock = `${phoneDist}.lock`;

/** Whether the phone build is newer than its sources. */
function phoneBuildFresh(): boolean {
  const sources = newest([
    join(web, 'src'),
    join(web, 'index.html'),
    join(web, 'vite.config.ts'),
    join(web, 'vite-plugins.ts'),
    join(web, 'native-build.ts'),
    join(web, 'public'),
    join(root, 'packages/client/src'),
    join(root, 'packages/protocol/src'),
  ]);
  return existsSync(phoneMark) && statSync(phoneMark).mtimeMs >= sources;
}

/** `vite build` as `npm run mobile:sync` runs it, with an API host given, into the phone build's folder. */
const phoneBuildCommand = [
  'npm',
  ['exec', '--', 'vite', 'build', '--mode', 'native', '--outDir', phoneDist, '--emptyOutDir'],
  {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', VITE_API_HOST: API_PLACEHOLDER, VITE_STORE_HOST: API_PLACEHOLDER },
  },
] as const;

/**
 * Takes the lock folder for a build and clears the last one; false when another holds the lock. The
 * lock goes with `endBuild`, which marks the build done when it succeeded.
 */
function beginBuild(): boolean {
  mkdirSync(join(root, 'test-output'), { recursive: true });
  try {
    mkdirSync(phoneLock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  rmSync(phoneDist, { recursive: true, force: true });
  return true;
}

function endBuild(built: boolean): void {
  if (built) writeFileSync(phoneMark, '');
  rmSync(phoneLock, { recursive: true, force: true });
}

/**
 * Starts the phone build in the background when its sources are newer than the last one, holding its
 * lock folder until it ends; answers the build's process, or nothing when there is nothing to build. The
 * browser run's global setup starts it once the web app is built, so that it runs while the first files
 * do and the phone tests find it done. A lock left by a run that was stopped goes first.
 */
export function startPhoneBuild(): ChildProcess | undefined {
  rmSync(phoneLock, { recursive: true, force: true });
  if (phoneBuildFresh() || !beginBuild()) return undefined;
  const [command, args, options] = phoneBuildCommand;
  const child = spawn(command, args, options);
  child.on('exit', (code) => endBuild(code === 0));
  child.on('error', () => endBuild(false));
  return child;
}

/**
 * Waits for a phone build under way (its lock folder) and answers once the build is newer than its
 * sources; builds it here when none is, or when the one under way failed (whose output then shows).
 * Test files that run at once share one build: the first takes the lock, the others wait for it.
 */
export function ensurePhoneBuild(): void {
  for (;;) {
    // A build under way: wait on its lock without spinning (a child sleeps, not this loop).
    while (existsSync(phoneLock)) execFileSync('sleep', ['1']);
    if (phoneBuildFresh()) return;
    if (!beginBuild()) continue;
    let built = false;
    try {
      const [command, args, options] = phoneBuildCommand;
      execFileSync(command, args, options);
      built = true;
      return;
    } finally {
      endBuild(built);
    }
  }
}
