// Raw SQL beside Drizzle, on either driver: what the job queue (pg-boss) runs its statements through, and the steps
// added to the PGlite template (pglite-template.ts).

/** Raw SQL on a connection or in a transaction. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/** What both drivers' clients (and their transactions) offer: a pg Pool/PoolClient, a PGlite or a PGlite Transaction. */
interface QueryClient {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  exec?(text: string): Promise<{ rows: any[] }[]>;
}

/**
 * A SqlExecutor on a driver client. PGlite's `query` takes one statement (extended protocol): parameterless SQL, which
 * may be several statements (pg-boss's migrations), goes through `exec` and answers the last statement's rows.
 */
export function clientExecutor(client: QueryClient): SqlExecutor {
  const exec = client.exec?.bind(client);
  return {
    async executeSql(text, values) {
      if (exec && (values === undefined || values.length === 0)) {
        const results = await exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = (await client.query(text, values)) as { rows: any[] } | { rows: any[] }[];
      // pg answers several statements sent at once with one result each.
      return { rows: (Array.isArray(result) ? result.at(-1)?.rows : result.rows) ?? [] };
    },
  };
}
