// A brand-new PGlite data directory costs about 3 s of initdb inside PGlite. The build dumps one initialised and
// migrated cluster into dist/, and new embedded data directories start from a copy of it (about 1 s). Migrations still
// run at every start, so a template older than the code only means more of them to apply. What other layers add to the
// cluster comes in from above, the database layer importing nothing above it: modules' own migrations as sets (the
// sandbox's, which embedded mode runs by default) and a step (the job queue's schema: jobs/queue-template.ts); the app
// puts them together (server/embedded-template.ts, which the build runs).
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder, projectRoot } from '../paths.js';
import type { MigrationSet } from './migration-set.js';
import { clientExecutor, type SqlExecutor } from './executor.js';

export const pgliteTemplateFile = path.join(projectRoot, 'dist', 'pglite-template.tar.gz');

/**
 * A migrated cluster into `file`: the production migrations, then `modules`' own; `prepare` runs on it after the
 * migrations (the job queue's schema).
 */
export async function writePgliteTemplate(
  file: string = pgliteTemplateFile,
  prepare?: (executor: SqlExecutor) => Promise<void>,
  modules: readonly MigrationSet[] = [],
): Promise<void> {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client) as never, { migrationsFolder });
    for (const set of modules) await migrate(drizzle(client) as never, set);
    if (prepare) await prepare(clientExecutor(client));
    const dump = await client.dumpDataDir('gzip');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** The template as PGlite's `loadDataDir` wants it, when the build made one. */
export function readPgliteTemplate(file: string): Blob | undefined {
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}
