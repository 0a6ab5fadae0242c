import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { Code, type FileInfo, type InputReasonValue } from '@till/protocol';
import { fail, Failure, type Outcome } from '../../errors.js';
import type { Authenticate, Caller } from '../../http/calls.js';
import { sanitizeFileName } from './names.js';
import { fileKey, type FilesService, type StagedFile } from './service.js';
import { ALLOWED_TYPES, peek, SNIFF_BYTES, sniffType } from './sniff.js';

/** An expected refusal raised inside a stream (too large, over quota, bad type). */
class UploadRefused extends Error {
  constructor(readonly failure: Failure) {
    super('upload refused');
  }
}

// Room for the multipart framing (boundaries, part headers, the token field) around the files.
const MULTIPART_SLACK = 64 * 1024;

const refuse = (reason: InputReasonValue) => new UploadRefused(fail.invalidInput('file', reason));

// Errors @fastify/multipart raises for its limits, by code, and the 907 each one means.
const LIMIT_ERRORS: Record<string, [string, InputReasonValue]> = {
  FST_FILES_LIMIT: ['file', 'too_many'],
  FST_REQ_FILE_TOO_LARGE: ['file', 'too_large'],
  FST_PARTS_LIMIT: ['file', 'too_many'],
  FST_FIELDS_LIMIT: ['fields', 'too_many'],
  FST_PROTO_VIOLATION: ['fields', 'invalid'],
  FST_INVALID_JSON_FIELD_ERROR: ['fields', 'invalid'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: ['file', 'invalid'],
};

/**
 * `api/files/upload`: reads a multipart body part by part as it arrives. The token must come before
 * the first file (the SDK sends plain fields first) so that nothing is written for an anonymous
 * client; each file is streamed to storage through its size and quota checks after its type is
 * sniffed; the rows are written in one transaction at the end. Any refusal or failure removes what
 * this request stored.
 */
export async function handleUpload(
  request: FastifyRequest,
  files: FilesService,
  authenticate: Authenticate,
): Promise<Outcome<{ data: { files: FileInfo[] } }>> {
  if (!request.isMultipart()) return fail.invalidInput('file', 'required');
  const limits = files.deps.config.upload;
  // A body announced larger than any upload may be is refused before a byte of it is read or stored.
  const announced = Number(request.headers['content-length']);
  if (announced > Math.min(limits.maxFiles * limits.maxFileBytes, limits.quotaBytes) + MULTIPART_SLACK) {
    discardRest(request);
    return fail.invalidInput('file', 'too_large');
  }
  const staged: StagedFile[] = [];
  let caller: Caller | undefined;
  let used = 0;
  let isPublic = false;
  let current: MultipartFile | undefined;
  let failure: Failure | undefined;
  try {
    const parts = request.parts({
      // One over each limit, so that our own checks see the excess and answer with its reason.
      limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles + 1, fields: 20, fieldSize: 4096 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'token') {
          // One upload, one owner: a second token could move the files already stored to someone else.
          if (caller) throw new UploadRefused(fail.invalidInput('token', 'invalid'));
          const who =
            typeof part.value === 'string' && part.value ? await authenticate(part.value) : fail.invalidToken();
          if (who instanceof Failure) throw new UploadRefused(who);
          caller = who;
          used = await files.repo.usedBytes(caller.userId);
        } else if (part.fieldname === 'public') {
          const value = String(part.value).toLowerCase();
          if (!['true', 'false', '1', '0', 'on', ''].includes(value)) {
            throw new UploadRefused(fail.invalidInput('public', 'invalid'));
          }
          isPublic = ['true', '1', 'on'].includes(value);
        }
        continue;
      }
      current = part;
      if (!caller) throw new UploadRefused(fail.invalidInput('token', 'required'));
      if (staged.length >= limits.maxFiles) throw refuse('too_many');
      const remaining = limits.quotaBytes - used - staged.reduce((sum, s) => sum + s.size, 0);
      staged.push(await stageFile(part, files, Math.min(limits.maxFileBytes, remaining), limits.maxFileBytes));
      current = undefined;
    }
  } catch (error) {
    failure = toFailure(error, request);
    if (!failure) {
      current?.file.destroy();
      discardRest(request);
      await files.discard(staged);
      throw error;
    }
  }
  if (!failure && !caller) failure = fail.invalidInput('token', 'required');
  if (!failure && !staged.length) failure = fail.invalidInput('file', 'required');
  if (failure || !caller) {
    if (failure?.body.code === Code.InvalidInput && failure.body.reason === 'incomplete') {
      request.log.info({ files: staged.length }, 'upload abandoned by the client; removed');
    }
    current?.file.destroy();
    discardRest(request);
    await files.discard(staged);
    return failure ?? fail.invalidToken();
  }
  const committed = await files.commit(caller.userId, staged, isPublic);
  return committed instanceof Failure ? committed : { data: { files: committed } };
}

/** Streams one file part to storage, refusing it as soon as its type or size is wrong. */
async function stageFile(
  part: MultipartFile,
  files: FilesService,
  allowed: number,
  maxFileBytes: number,
): Promise<StagedFile> {
  let refusal: UploadRefused | undefined;
  const check = (total: number) => {
    if (total > allowed) refusal = refuse(total > maxFileBytes ? 'too_large' : 'quota');
    return refusal;
  };
  const { head, body, total } = await peek(part.file, SNIFF_BYTES, check);
  const mime = await sniffType(head);
  if (!mime || !ALLOWED_TYPES.has(mime)) throw refuse('type');
  const id = randomUUID();
  const key = fileKey(id);
  try {
    // Byte mode with a one-chunk buffer: objects mode would queue 16 chunks per upload.
    await files.store(key, Readable.from(body, { objectMode: false, highWaterMark: 64 * 1024 }), mime);
  } catch (error) {
    // A driver may report its own cleanup error; the refusal is what the client needs to hear.
    throw refusal ?? error;
  }
  // Browsers and undici escape `"`, CR and LF in multipart file names as %22, %0D, %0A (HTML's
  // form-data encoding); busboy hands the escaped form on.
  const name = part.filename.replace(/%22/g, '"').replace(/%0[DA]/gi, ' ');
  return { id, key, name: sanitizeFileName(name), size: total(), mime };
}

/** The protocol answer for an error met while reading the body, or undefined for a fault. */
function toFailure(error: unknown, request: FastifyRequest): Failure | undefined {
  if (error instanceof UploadRefused) return error.failure;
  const code = (error as { code?: string }).code;
  const mapped = code ? LIMIT_ERRORS[code] : undefined;
  if (mapped) return fail.invalidInput(mapped[0], mapped[1]);
  // The client went away: nobody will read the answer, and what was stored is removed above.
  if (request.raw.destroyed || request.raw.readableAborted || code === 'FST_MP_PREMATURE_CLOSE') {
    return fail.invalidInput('file', 'incomplete');
  }
  // Busboy's parse errors (a malformed or truncated body) are the client's fault, not ours.
  if (error instanceof Error && /multipart|part|boundary|unexpected end/i.test(error.message)) {
    return fail.invalidInput('file', 'invalid');
  }
  return undefined;
}

/**
 * Stops parsing and throws away the rest of the body, so that the client, still sending, gets the
 * answer instead of a reset connection. Node's request timeout bounds how long that can last.
 */
function discardRest(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}
