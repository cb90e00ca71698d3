// Reads the one file of an import upload (multipart/form-data, field `file`) and hands its stream on; the form's
// problems are 400s that say what to send.
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { badRequest } from '../../http/errors.js';
import { multipartError, NOT_MULTIPART } from '../multipart-errors.js';

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
    // The client went away before the end of its file, or was cut off for sending it too slowly (server/slow-clients.ts):
    // the client's problem, not a server error to log.
    if (req.raw.destroyed && !req.raw.complete) throw badRequest('the upload was cut off before its end');
    throw uploadError(err, maxBytes);
  }
}

function uploadError(err: unknown, maxBytes: number): unknown {
  const oneFile = `send one file, in the field '${IMPORT_FIELD}', and nothing else (format and dry_run are query parameters)`;
  const known = multipartError(err, {
    tooLarge: `file: the file is larger than the limit of ${Math.round(maxBytes / 1024 / 1024)} MB`,
    tooManyFiles: oneFile,
    tooManyFields: oneFile,
  });
  if (known) return known;
  // A broken upload (the client went away, malformed framing) is the client's problem; anything else (the import's
  // own work runs inside the same call) is ours.
  return err instanceof Error && /multipart|boundary|Unexpected end of form/i.test(err.message) ? badRequest(NOT_MULTIPART) : err;
}
