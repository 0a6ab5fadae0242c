import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from './names.js';
import type { ByteRange, ObjectStorage } from './storage/storage.js';

/** What a download response needs to know about the object it sends. */
export interface Served {
  key: string;
  /** Unknown for avatars, which are then sent whole, without ranges. */
  size: number | undefined;
  mime: string;
  name: string;
  etag: string;
  disposition: 'inline' | 'attachment';
  cacheControl: string;
}

/**
 * Parses a `Range` header against a size: a single range, or undefined to send the whole object
 * (no header, several ranges, or a malformed one, which HTTP says to ignore), or 'unsatisfiable'.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return undefined;
  const [, from = '', to = ''] = m;
  if (!from && !to) return undefined;
  if (!from) {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to ? Math.min(Number(to), size - 1) : size - 1;
  if (to && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Sends an object with its type, name, validators and range support. */
export async function sendObject(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: ObjectStorage,
  served: Served,
): Promise<FastifyReply> {
  const ifRange = request.headers['if-range'];
  // A range only applies to the version the client already has part of.
  const size = served.size;
  const range =
    size === undefined || (ifRange && ifRange !== served.etag) ? undefined : parseRange(request.headers.range, size);
  void reply
    .header('accept-ranges', size === undefined ? 'none' : 'bytes')
    .header('etag', served.etag)
    .header('cache-control', served.cacheControl)
    .header('content-disposition', contentDisposition(served.disposition, served.name))
    // A stored file is data, never a page of ours: even a browser that renders it runs nothing.
    .header('content-security-policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox")
    // The phone apps' pages come from their own origin (`https://localhost`, `capacitor://localhost`),
    // and their <img> tags load avatars and images from the API host. What is served here is already
    // guarded by its link (a signature, a public file, an avatar's unguessable id), not by the origin.
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${size}`).send();
  }
  if (request.headers['if-none-match'] === served.etag) return reply.status(304).send();
  // HEAD answers the headers without opening the object (Fastify's automatic HEAD would read it all).
  const body: Readable | undefined = request.method === 'HEAD' ? undefined : await storage.get(served.key, range);
  if (!body && request.method !== 'HEAD') return notFound(request, reply);
  void reply.type(served.mime === 'text/plain' ? 'text/plain; charset=utf-8' : served.mime);
  if (range) {
    void reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
  } else if (size !== undefined) {
    void reply.header('content-length', size);
  }
  return reply.send(body);
}

/** The transport-level answers of the download routes (they are links, not protocol calls). */
export function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.status(404).send({ code: 404, error: 'not_found', requestId: request.id });
}

export function refused(
  request: FastifyRequest,
  reply: FastifyReply,
  error: 'forbidden' | 'link_expired',
): FastifyReply {
  return reply.status(403).send({ code: 403, error, requestId: request.id });
}
