import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
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
  app.get('/*', (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const file = resolve(root, path);
    if (path && file.startsWith(root) && existsSync(file) && !file.endsWith('/')) {
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
