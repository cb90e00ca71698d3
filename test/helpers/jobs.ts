// Job queue test helpers: polls with a deadline (never a sleep as an assertion) and a look at pg-boss's job table.
import type { Database } from '../../src/db/client.js';

/** Polls `check` until it returns a truthy value (which is returned) or `timeoutMs` passes (then throws with `what`). */
export async function until<T>(what: string, check: () => Promise<T> | T, timeoutMs = 20_000, everyMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

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
