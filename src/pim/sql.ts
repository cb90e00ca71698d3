// SQL fragments shared by the PIM repositories (rows of a raw query: db/rows.ts).
import { sql, type SQL } from 'drizzle-orm';

/** A timestamptz as ISO 8601 in UTC (drizzle hands raw timestamps back as driver-specific text). */
export const isoUtc = (column: SQL | string) =>
  sql`to_char(${typeof column === 'string' ? sql.raw(column) : column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** The same with milliseconds (`…:SS.mmmZ`, truncated): products' updated_at, a cursor for updated_since + after_id. */
export const isoUtcMs = (column: SQL | string) =>
  sql`to_char(${typeof column === 'string' ? sql.raw(column) : column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A LIKE pattern matching `term` anywhere, with LIKE's own wildcards escaped. */
export const containsPattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
