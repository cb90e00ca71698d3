// Typed errors thrown by services: the error base every API module shares (the HTTP kernel). Each API's error handler
// maps the kind to its own envelope and HTTP status; a module's own errors (the connector's ConnectorError) live in it.
import { isForeignKeyViolation } from '../db/errors.js';

export type ErrorKind = 'validation' | 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'payload_too_large';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Seconds until a rate-limited caller may retry. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError('validation', message);
export const notFound = (message: string) => new AppError('not_found', message);

export const HTTP_STATUS: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  rate_limited: 429,
};

/** Fastify's refusal of a body it has no parser for, unless the API says more (which other content types it takes). */
export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported Media Type: request bodies are application/json';

/**
 * Status and client-safe message of any error: typed errors and Fastify's own 4xx keep theirs, anything else is a 500.
 * `unsupportedMediaType`: the API's message for a body of a content type it does not take.
 */
export function classifyError(
  err: unknown,
  unsupportedMediaType: string = UNSUPPORTED_MEDIA_TYPE,
): { statusCode: number; message: string; retryAfterSeconds?: number } {
  if (err instanceof AppError) {
    return { statusCode: HTTP_STATUS[err.kind], message: err.message, retryAfterSeconds: err.retryAfterSeconds };
  }
  // Every reference is checked before a write; only a row deleted by a concurrent request between the check and the
  // write gets here. The transaction rolled back, so it is the client's to retry, not a server fault.
  if (isForeignKeyViolation(err)) {
    return { statusCode: 400, message: 'A referenced record was deleted by another request meanwhile; nothing was saved' };
  }
  const e = err as { statusCode?: number; message?: string; validation?: unknown; code?: string };
  if (e?.validation) return { statusCode: 400, message: e.message ?? 'Invalid request' };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const message =
      e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'Request body is larger than 1 MB'
        : e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? unsupportedMediaType
          : (e.message ?? 'Bad request');
    return { statusCode: e.statusCode, message };
  }
  return { statusCode: 500, message: 'Internal server error' };
}
