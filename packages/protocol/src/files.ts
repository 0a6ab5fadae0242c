import { z } from 'zod';
import { fileSchema } from './objects.js';

const token = z.string().min(1).max(512);

/** `api/files/list`. @example filesListRequest.parse({ token, page: 1, pageSize: 20 }) */
export const filesListRequest = z.object({
  token: z.string().min(1).max(512),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type FilesListRequest = z.infer<typeof filesListRequest>;
export const filesListData = z.object({ files: z.array(fileSchema), total: z.number().int() });

/** `api/files/delete`. @example filesDeleteRequest.parse({ token, id }) */
export const filesDeleteRequest = z.object({ token: z.string().min(1).max(512), id: z.string().min(1).max(64) });
export type FilesDeleteRequest = z.infer<typeof filesDeleteRequest>;

/** `api/files/upload` answer. */
export const filesUploadData = z.object({ files: z.array(fileSchema) });

/** POST /api/files/limits (no token): what an upload may be, to show before a file is chosen. */
export const filesLimitsRequest = z.object({ token: token.optional() });
export const filesLimitsData = z.object({
  maxFileBytes: z.number().int(),
  maxFiles: z.number().int(),
  quotaBytes: z.number().int(),
  /** The content types accepted (sniffed from the content, not taken from the name). */
  types: z.array(z.string()),
  /** File name endings for a file chooser's `accept`, matching `types`. */
  extensions: z.array(z.string()),
});
export type FilesLimitsData = z.infer<typeof filesLimitsData>;
