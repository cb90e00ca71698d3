// Reads the one file of an import upload (multipart/form-data, field `file`) and hands its stream on; the form's
// problems are 400s that say what to send.
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError, badRequest } from '../../server/kernel/errors.js';

export const IMPORT_FIELD = 'file';

export async function readImportUpload<T>(
  req: FastifyRequest,
  maxBytes: number,
  use: (upload: { fileName: string; stream: Readable }) => Promise<T>,
): Promise<T> {
  const expected = `the request must be multipart/form-data with the CSV file in the field '${IMPORT_FIELD}'`;
  if (!req.isMultipart()) throw badRequest(expected);
  try {
    const part = await req.file();
    if (!part || part.fieldname !== IMPORT_FIELD) throw badRequest(expected);
    return await use({ fileName: part.filename || 'upload.csv', stream: part.file });
  } catch (err) {
    throw uploadError(err, maxBytes);
  }
}

/** @fastify/multipart's and busboy's errors as the 400s of this API (the plugin answers 406 or 413 for some). */
function uploadError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return badRequest(`file: the file is larger than the limit of ${Math.round(maxBytes / 1024 / 1024)} MB`);
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(`send one file, in the field '${IMPORT_FIELD}', and nothing else (format and dry_run are query parameters)`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_PROTO_VIOLATION':
      return badRequest('the request body is not valid multipart/form-data');
    default:
      // A broken upload (the client went away, malformed framing) is the client's problem; anything else is ours.
      return err instanceof Error && /multipart|boundary|Unexpected end of form/i.test(err.message)
        ? badRequest('the request body is not valid multipart/form-data')
        : err;
  }
}
