import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPhoneBuild } from './phone/build.js';
import { newest } from './support/newest.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const web = join(root, 'apps/web');
const built = join(web, 'dist/index.html');

/**
 * Once per run: Chromium is there (installed from Debian when missing), and the web app is built
 * when its sources (or those of the SDK and protocol it bundles) are newer than the build. The phone
 * build then starts in the background (`startPhoneBuild`), while the first files run: the phone files
 * start minutes into the run, and their build blocked both workers when one made it and the other waited.
 */
export default function setup(): () => Promise<void> {
  execFileSync('sh', [join(root, 'scripts/ensure-chromium.sh')], { stdio: 'inherit' });
  const sources = newest([
    join(web, 'src'),
    join(web, 'index.html'),
    join(web, 'vite.config.ts'),
    join(web, 'vite-plugins.ts'),
    join(web, 'public'),
    join(root, 'packages/client/src'),
    join(root, 'packages/protocol/src'),
  ]);
  const build = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (sources > build) {
    console.log('e2e: building the web app');
    // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
    execFileSync('npm', ['run', 'build', '-w', '@till/web'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const phone = startPhoneBuild();
  // The run ends once a build still under way has: a stopped build would leave no mark and a half folder.
  return async () => {
    if (phone && phone.exitCode === null && phone.signalCode === null) await once(phone, 'exit');
  };
}
