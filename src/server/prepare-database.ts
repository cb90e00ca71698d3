// What a database needs before any node serves from it, in one visible order: the migrations, the Shopify sandbox's
// own tables where it runs, the job queue's schema and queues (pg-boss). `pimbridge migrate` runs it, and so does
// every node at start. Nodes started together on one PostgreSQL take turns (Database.exclusively): creating schemas
// and queues at the same moment deadlocks or collides in PostgreSQL's catalogue, so the first node prepares and the
// others, finding the work done, only read.
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { createQueueSchema } from '../jobs/queue-template.js';
import { sandboxMigrations } from '../sandbox/sandbox.module.js';

export async function prepareDatabase(
  database: Database,
  config: Pick<Config, 'shopifySandbox' | 'syncRetryLimit' | 'syncRetryDelaySeconds' | 'syncJobExpireSeconds'>,
  log?: { info(msg: string): void },
): Promise<void> {
  await database.exclusively(
    async () => {
      await database.migrate();
      if (config.shopifySandbox) await database.migrate(sandboxMigrations);
      await createQueueSchema(database.executor, {
        retryLimit: config.syncRetryLimit,
        retryDelaySeconds: config.syncRetryDelaySeconds,
        expireInSeconds: config.syncJobExpireSeconds,
      });
    },
    () => log?.info('another node is preparing the database (migrations, job queue): waiting for it'),
  );
}
