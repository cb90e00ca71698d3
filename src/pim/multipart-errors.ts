// @fastify/multipart's and busboy's errors as the 400s of the PIM API (the plugin answers 406 or 413 for some),
// worded by each multipart route.
import { AppError, badRequest } from '../http/errors.js';

export const NOT_MULTIPART = 'the request body is not valid multipart/form-data';

export interface MultipartMessages {
  tooLarge: string;
  tooManyFiles: string;
  tooManyFields: string;
}

/** The 400 for a limit or framing error of the upload; null for any other error (the route decides). */
export function multipartError(err: unknown, messages: MultipartMessages): AppError | null {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return badRequest(messages.tooLarge);
    case 'FST_FILES_LIMIT':
      return badRequest(messages.tooManyFiles);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return badRequest(messages.tooManyFields);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_PROTO_VIOLATION':
      return badRequest(NOT_MULTIPART);
    default:
      return null;
  }
}
