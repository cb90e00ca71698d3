// A brand-new PGlite data directory costs about 3 s of initdb inside PGlite. The build dumps one initialised and
// migrated cluster into dist/, and new embedded data directories start from a copy of it (about 1 s). Migrations still
// run at every start, so a template older than the code only means more of them to apply.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { migrationsFolder, projectRoot } from '../paths.js';
import { DEFAULT_QUEUE_TUNING } from '../jobs/queue-definitions.js';
import { PgBossQueue } from '../jobs/queue.js';
import { clientExecutor } from './client.js';

export const pgliteTemplateFile = path.join(projectRoot, 'dist', 'pglite-template.tar.gz');

export async function writePgliteTemplate(file: string = pgliteTemplateFile): Promise<void> {
  const client = await PGlite.create({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client) as never, { migrationsFolder });
    // The job queue's schema (pg-boss) and queues too, at the default settings: on PGlite it takes ~0.1-1 s to create.
    const queue = new PgBossQueue(clientExecutor(client), DEFAULT_QUEUE_TUNING);
    await queue.start();
    await queue.stop(0);
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
