// PostgreSQL's error codes as both drivers raise them (pg and PGlite; Drizzle may wrap them in `cause`).

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
