// Typed errors thrown by services. Each context's error handler maps the kind to its own envelope and HTTP status.
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

/** The PostgreSQL error behind `err` (drivers and Drizzle may wrap it in `cause`), as raised by pg and PGlite alike. */
function pgError(err: unknown): { code: string; constraint?: string } | null {
  const e = err as { code?: unknown; constraint?: string; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return { code: e.code, constraint: e.constraint };
  return e.cause !== undefined ? pgError(e.cause) : null;
}

/** PostgreSQL's unique_violation, optionally of one constraint. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** PostgreSQL's foreign_key_violation: a referenced row went away between the check and the write. */
export function isForeignKeyViolation(err: unknown): boolean {
  return pgError(err)?.code === '23503';
}

/** Status and client-safe message of any error: typed errors and Fastify's own 4xx keep theirs, anything else is a 500. */
export function classifyError(err: unknown): { statusCode: number; message: string; retryAfterSeconds?: number } {
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
          ? 'Unsupported Media Type: request bodies are application/json (multipart/form-data only for POST /api/products/image-search)'
          : (e.message ?? 'Bad request');
    return { statusCode: e.statusCode, message };
  }
  return { statusCode: 500, message: 'Internal server error' };
}
