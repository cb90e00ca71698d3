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

/** PostgreSQL's unique_violation, as raised by pg and PGlite alike. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: unknown } | null;
  if (e && e.code === '23505') return constraint === undefined || e.constraint === constraint;
  return e?.cause !== undefined ? isUniqueViolation(e.cause, constraint) : false;
}

/** Status and client-safe message of any error: typed errors and Fastify's own 4xx keep theirs, anything else is a 500. */
export function classifyError(err: unknown): { statusCode: number; message: string; retryAfterSeconds?: number } {
  if (err instanceof AppError) {
    return { statusCode: HTTP_STATUS[err.kind], message: err.message, retryAfterSeconds: err.retryAfterSeconds };
  }
  const e = err as { statusCode?: number; message?: string; validation?: unknown; code?: string };
  if (e?.validation) return { statusCode: 400, message: e.message ?? 'Invalid request' };
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    const message = e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Request body is larger than 1 MB' : (e.message ?? 'Bad request');
    return { statusCode: e.statusCode, message };
  }
  return { statusCode: 500, message: 'Internal server error' };
}
