// Named prepared statements: on PostgreSQL each pooled connection parses and plans a statement text once instead of
// on every request (PGlite ignores the name). Only for texts from a bounded set: values go in as parameters, never
// into the text. (A PgBouncer in transaction mode older than 1.21 does not support them.) A hot read can go further:
// its statement built once (`compile`, values as `sql.placeholder`), so a call only fills in its values instead of
// walking Drizzle's SQL template again.
import { SQL, type Query } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

const dialect = new PgDialect();
const names = new Map<string, string>();

/** A statement's text and parameters (placeholders among them), and its name. */
export interface CompiledStatement {
  query: Query;
  name: string;
}

export function compile(statement: SQL): CompiledStatement {
  const query = dialect.sqlToQuery(statement);
  let name = names.get(query.sql);
  if (name === undefined) names.set(query.sql, (name = `pimbridge_${names.size + 1}`));
  return { query, name };
}

/** Runs the statement; `values` fill a compiled statement's placeholders. */
export function runPrepared(db: Db, statement: SQL | CompiledStatement, values?: Record<string, unknown>): Promise<unknown> {
  const { query, name } = statement instanceof SQL ? compile(statement) : statement;
  // Through the session: drizzle-orm 0.45 names no raw statement publicly (db.execute prepares it unnamed, and only the
  // query builders' prepare(name) takes a name). `db` may be a transaction, whose session runs it inside.
  return db._.session.prepareQuery(query, undefined, name, false).execute(values);
}
