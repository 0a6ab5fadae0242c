import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under the given paths (files or folders): whether a build is stale. */
export function newest(paths: string[]): number {
  let latest = 0;
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(join(p, name));
    else latest = Math.max(latest, st.mtimeMs);
  };
  paths.forEach(visit);
  return latest;
}
