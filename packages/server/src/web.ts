import { existsSync, readdirSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

const defaultDist = fileURLToPath(new URL('../../../apps/web/dist', import.meta.url));

/**
 * Serves the built web app when there is one: its files, and `index.html` for any other GET that
 * asks for HTML, so that client-side routes (`/confirm/:token`, `/orders/:iden`) load the app.
 */
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const root = resolve(config.webDist ?? defaultDist);
  if (!existsSync(resolve(root, 'index.html'))) return;
  // The build writes .br and .gz beside its assets; they are sent to clients that accept them.
  await app.register(fastifyStatic, { root, wildcard: false, index: false, serve: false, preCompressed: true });
  // The build does not change while it is served (`npm start` builds first), so its files are listed
  // once: a request is then a set lookup, with no file-system call and no path to escape the folder.
  const files = new Set(
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, resolve(entry.parentPath, entry.name)).split(sep).join('/')),
  );
  app.get('/*', (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (files.has(path)) {
      // Hashed assets never change; the shell and the worker must be revalidated.
      const immutable = path.startsWith('assets/');
      return reply.sendFile(path, root, { maxAge: immutable ? 31_536_000_000 : 0, immutable });
    }
    if (path.startsWith('api/') || path === 'sw.js' || /\.[a-z0-9]+$/i.test(path)) {
      return reply.status(404).send({ code: 404, error: 'not_found' });
    }
    return reply.sendFile('index.html', root, { maxAge: 0 });
  });
}
