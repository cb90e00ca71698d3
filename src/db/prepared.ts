// Named prepared statements: on PostgreSQL each pooled connection parses and plans a statement text once instead of
// on every request (PGlite ignores the name). Only for texts from a bounded set: values go in as parameters, never
// into the text. (A PgBouncer in transaction mode older than 1.21 does not support them.)
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

const dialect = new PgDialect();
const names = new Map<string, string>();

export function runPrepared(db: Db, statement: SQL): Promise<unknown> {
  const query = dialect.sqlToQuery(statement);
  let name = names.get(query.sql);
  if (name === undefined) names.set(query.sql, (name = `pimbridge_${names.size + 1}`));
  // Through the session: drizzle-orm 0.45 names no raw statement publicly (db.execute prepares it unnamed, and only the
  // query builders' prepare(name) takes a name). `db` may be a transaction, whose session runs it inside.
  return db._.session.prepareQuery(query, undefined, name, false).execute();
}
