// The embedded database's build-time template as the build makes it (scripts/ensure-build.mjs): the migrated cluster
// of db/pglite-template.ts with the job queue's schema (pg-boss) and queues in it too, at the default settings, which
// on PGlite take ~0.1-1 s to create.
import type { MigrationSet } from '../db/migration-set.js';
import type { SqlExecutor } from '../db/executor.js';
import { pgliteTemplateFile, writePgliteTemplate } from '../db/pglite-template.js';
import { DEFAULT_QUEUE_TUNING, type QueueTuning } from './queue-definitions.js';
import { PgBossQueue } from './queue.js';

/** Creates (or updates) the queue's schema and queues on `executor` (what the first start of a queue does). */
export async function createQueueSchema(executor: SqlExecutor, tuning: QueueTuning = DEFAULT_QUEUE_TUNING): Promise<void> {
  const queue = new PgBossQueue(executor, tuning);
  await queue.start();
  await queue.stop(0);
}

/** The template with the queue's schema; `modules`: modules' own migrations to apply too (server/embedded-template.ts). */
export function writePgliteTemplateWithQueue(file: string = pgliteTemplateFile, modules: readonly MigrationSet[] = []): Promise<void> {
  return writePgliteTemplate(file, createQueueSchema, modules);
}
