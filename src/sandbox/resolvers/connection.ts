// Shopify-style cursor connections: over keyset pages with `first` and `after` (the maximum page size is enforced
// before execution, input-limits.ts; `last`/`before` are not emulated there), and over lists already in memory with
// both directions (listConnection).
import { GraphQLError } from 'graphql';

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export interface Page {
  /** The key the page starts after (0 for the start). */
  afterKey: number;
  /** Rows to fetch: the page size plus one, to know whether another page follows. */
  fetch: number;
  size: number;
}

export function encodeCursor(key: number): string {
  return Buffer.from(JSON.stringify({ last_id: key }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { last_id?: unknown };
    if (typeof parsed.last_id === 'number' && Number.isSafeInteger(parsed.last_id) && parsed.last_id >= 0) return parsed.last_id;
  } catch {
    // fall through
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, { extensions: { code: 'BAD_REQUEST' } });
}

export function page(args: PageArgs): Page {
  if (args.last != null || args.before != null) {
    throw new GraphQLError('The Pimbridge sandbox does not emulate backward pagination (last/before) yet', { extensions: { code: 'NOT_IMPLEMENTED' } });
  }
  if (args.first == null) throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  // The maximum (250, or more where Shopify documents it) is checked before execution: input-limits.ts.
  if (args.first < 0) throw new GraphQLError('The first argument must be between 0 and 250', { extensions: { code: 'BAD_REQUEST' } });
  const afterKey = args.after != null ? decodeCursor(args.after) : 0;
  return { afterKey, fetch: args.first + 1, size: args.first };
}

/** The connection object for one fetched page (`rows` as fetched: up to size + 1). */
export function connection<R>(p: Page, rows: R[], key: (row: R) => number, node: (row: R) => unknown, hasPrevious: boolean) {
  const shown = rows.slice(0, p.size);
  const nodes = shown.map(node);
  const cursors = shown.map((r) => encodeCursor(key(r)));
  return {
    nodes,
    edges: nodes.map((n, i) => ({ node: n, cursor: cursors[i] })),
    pageInfo: {
      hasNextPage: rows.length > p.size,
      hasPreviousPage: hasPrevious,
      startCursor: cursors[0] ?? null,
      endCursor: cursors.at(-1) ?? null,
    },
  };
}

/**
 * A connection over a list already in memory, with `first`/`after` and `last`/`before` (a store's collections, a
 * collection's product ids). Cursors carry the row's key, as connection.ts's do.
 */
export function listConnection<R>(all: R[], args: PageArgs, key: (r: R) => number, node: (r: R) => unknown) {
  if (args.first == null && args.last == null) throw new GraphQLError('you must provide one of first or last', { extensions: { code: 'BAD_REQUEST' } });
  if ((args.first ?? 0) < 0 || (args.last ?? 0) < 0)
    throw new GraphQLError('The first and last arguments must be between 0 and 250', { extensions: { code: 'BAD_REQUEST' } });
  const at = (cursor: string) => {
    const k = decodeCursor(cursor);
    const i = all.findIndex((r) => key(r) === k);
    if (i < 0) throw new GraphQLError('Invalid cursor for current pagination sort.', { extensions: { code: 'BAD_REQUEST' } });
    return i;
  };
  const start = args.after != null ? at(args.after) + 1 : 0;
  const end = args.before != null ? at(args.before) : all.length;
  let rows = all.slice(start, Math.max(start, end));
  let hasNext = end < all.length;
  let hasPrevious = start > 0;
  if (args.first != null) {
    hasNext ||= rows.length > args.first;
    rows = rows.slice(0, args.first);
  }
  if (args.last != null) {
    hasPrevious ||= rows.length > args.last;
    rows = args.last === 0 ? [] : rows.slice(-args.last);
  }
  const nodes = rows.map(node);
  const cursors = rows.map((r) => encodeCursor(key(r)));
  return {
    nodes,
    edges: nodes.map((n, i) => ({ node: n, cursor: cursors[i] })),
    pageInfo: { hasNextPage: hasNext, hasPreviousPage: hasPrevious, startCursor: cursors[0] ?? null, endCursor: cursors.at(-1) ?? null },
  };
}

/** Shopify's DateTime: ISO 8601 in UTC without milliseconds. */
export function dateTime(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
