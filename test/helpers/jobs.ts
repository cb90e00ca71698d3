// Job queue test helpers: polls with a deadline (the tests' one `until`, re-exported) and a look at pg-boss's job table.
import type { Database } from '../../src/db/client.js';

export { until } from './until.js';

export interface JobRow {
  id: string;
  name: string;
  state: string;
  data: any;
  singleton_key: string | null;
  retry_count: number;
  output: any;
}

/** The jobs of one queue (pg-boss's table), oldest first. */
export async function jobRows(database: Database, name: string): Promise<JobRow[]> {
  const { rows } = await database.executor.executeSql(
    'SELECT id::text, name, state::text, data, singleton_key, retry_count, output FROM pgboss.job WHERE name = $1 ORDER BY created_on, id',
    [name],
  );
  return rows.map((r) => ({ ...r, retry_count: Number(r.retry_count) }));
}
