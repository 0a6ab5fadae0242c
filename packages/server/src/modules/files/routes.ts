import {
  dataResponse,
  filesDeleteRequest,
  filesLimitsData,
  filesLimitsRequest,
  filesListData,
  filesListRequest,
  filesUploadData,
  Level,
  Paths,
  StorePaths,
} from '@till/protocol';
import { z } from 'zod';
import type { ModuleHost } from '../../http/module.js';
import { notFound, refused, sendObject } from './download.js';
import { AVATAR_ROUTE, DOWNLOAD_ROUTE } from './links.js';
import type { FilesService } from './service.js';
import { ALLOWED_EXTENSIONS, ALLOWED_TYPES, IMAGE_TYPES } from './sniff.js';
import { handleUpload } from './upload.js';

const tag = 'files';
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const AVATAR_ID = /^[A-Za-z0-9_-]{22}$/;

const uploadFields = z.object({
  token: z.string().describe('Session token; must come before the first file.'),
  public: z.enum(['true', 'false']).optional().describe('`true` for a lasting link anyone can open.'),
  file: z.string().describe('One or more files (any field name), streamed; type is sniffed from the content.'),
});
// Administrators may list another user's files (with links to them).
const listRequest = filesListRequest.extend({ userId: z.string().min(1).max(64).optional() });
const ok = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(900), data });

/** Upload, list and delete as generic service calls, and the download and avatar links. */
export function registerFileRoutes({ app, calls, services }: ModuleHost, files: FilesService): void {
  const storage = files.deps.storage;

  calls.define({
    path: `/${StorePaths.filesLimits}`,
    summary: 'What an upload may be (size per file, files per upload, quota, types), to show before a file is chosen.',
    tag,
    request: filesLimitsRequest,
    response: dataResponse(filesLimitsData),
    handler: async () => {
      const { maxFileBytes, maxFiles, quotaBytes } = files.deps.config.upload;
      return {
        data: { maxFileBytes, maxFiles, quotaBytes, types: [...ALLOWED_TYPES], extensions: [...ALLOWED_EXTENSIONS] },
      };
    },
  });
  services.defineStream({
    path: `/${Paths.filesUpload}`,
    summary: 'Upload files (multipart: `token` first, then one or more files); answers them with their links.',
    tag,
    request: uploadFields,
    response: ok(filesUploadData),
    handler: (request) => handleUpload(request, files, (token) => calls.authenticate(token)),
  });
  services.define({
    path: `/${Paths.filesList}`,
    summary: "The caller's files, newest first, a page at a time (administrators: any user's, by `userId`).",
    tag,
    auth: Level.Registered,
    request: listRequest,
    response: ok(filesListData),
    handler: (input, call) => files.list(call.caller, input),
  });
  services.define({
    path: `/${Paths.filesDelete}`,
    summary: 'Delete one of the caller’s files (administrators: any file).',
    tag,
    auth: Level.Registered,
    request: filesDeleteRequest,
    response: ok(z.object({})),
    handler: (input, call) => files.remove(call.caller, input.id),
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: DOWNLOAD_ROUTE,
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const query = request.query as { expires?: unknown; sig?: unknown };
      const row = ID.test(id) ? await files.repo.findById(id) : undefined;
      if (!row) return notFound(request, reply);
      if (!row.public) {
        const check = files.links.check(id, query.expires, query.sig);
        if (check !== 'ok') return refused(request, reply, check === 'expired' ? 'link_expired' : 'forbidden');
      }
      return sendObject(request, reply, storage, {
        key: row.storage_key,
        size: row.size,
        mime: row.mime,
        name: row.name,
        etag: `"${row.id}"`,
        disposition: IMAGE_TYPES.has(row.mime) ? 'inline' : 'attachment',
        // A signed link is someone's own file: shared caches must not keep it.
        cacheControl: row.public ? 'public, max-age=86400' : 'private, max-age=3600',
      });
    },
  });
  calls.describe({ method: 'GET', path: DOWNLOAD_ROUTE, summary: 'A file, by its `url` (ranges supported).', tag });

  app.route({
    method: ['GET', 'HEAD'],
    url: AVATAR_ROUTE,
    handler: async (request, reply) => {
      const { id } = request.params as { id: string };
      const key = `avatars/${id}`;
      if (!AVATAR_ID.test(id) || !(await files.deps.owners.hasAvatar(key))) return notFound(request, reply);
      return sendObject(request, reply, storage, {
        key,
        size: undefined,
        mime: 'image/webp',
        name: 'avatar.webp',
        etag: `"${id}"`,
        disposition: 'inline',
        // Each avatar has a key of its own, so its bytes never change.
        cacheControl: 'public, max-age=31536000, immutable',
      });
    },
  });
  calls.describe({ method: 'GET', path: AVATAR_ROUTE, summary: "A user's avatar (its `avatarUrl`).", tag });
}
