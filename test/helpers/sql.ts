// Raw SQL in a test, for what no route, service or repository shows or does: how a secret is stored, a migration's
// tables, a row backdated or broken to set a case up. Everything else reads through the API (connector-reads.ts).
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../src/db/client.js';
import { rowsOf } from '../../src/db/rows.js';

/** The rows of `query`, typed as the caller says (no cast at the call site); for either driver. */
export async function sqlRows<T>(db: Pick<Db, 'execute'>, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}
