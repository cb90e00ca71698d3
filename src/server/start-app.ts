// Start-up, in one visible order: the database prepared (migrations, the sandbox's tables where it runs, the job
// queue's schema), the queue started for sending, the modules composed, their listeners and backfills run, then the
// HTTP application built over them. Closing the app undoes it in reverse: workers, queue, listeners.
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { App } from '../http/app-type.js';
import { PgBossQueue, type QueueOptions } from '../jobs/queue.js';
import { createLogger, type LoggerOptions, loggerOptions } from '../lib/logging.js';
import { Metrics } from '../lib/metrics.js';
import { buildApp } from './app.js';
import { prepareDatabase } from './prepare-database.js';
import { createServices, type ServiceOverrides, type Services } from './services.js';

export interface AppDeps {
  config: Readonly<Config>;
  database: Database;
  redis?: Redis | null;
  /** Logger options; defaults to config.logFormat at config.logLevel with secrets redacted (lib/logging.ts); false: none. */
  logger?: LoggerOptions | false;
  /** Job queue settings beyond the config (tests: a short poll interval). */
  queue?: Partial<QueueOptions>;
  /** Collaborators put in place of the defaults when the services are built (tests: a storefront double, short polls). */
  services?: ServiceOverrides;
  /** Called on the new instance before anything is registered, so that its hooks cover every route (tests: the OpenAPI check). */
  instrument?: (app: App) => void;
}

export type StartedApp = App & { services: Services };

/** Running jobs get this long to finish when the app closes; then they go back to the queue. */
const WORKER_STOP_MS = 7_000;

export async function startApp(deps: AppDeps): Promise<StartedApp> {
  const { config, database } = deps;
  const redis = deps.redis ?? null;
  const log = deps.logger === false ? null : createLogger(deps.logger ?? loggerOptions(config));
  // 1. The database: migrations, the sandbox's tables where it runs, the queue's schema and queues (nodes take turns).
  await prepareDatabase(database, config, log ?? undefined);
  // 2. The queue, there for sending on every node; workers start separately (main.ts, for roles worker and all).
  const metrics = new Metrics();
  const queue = new PgBossQueue(
    database.executor,
    { retryLimit: config.syncRetryLimit, retryDelaySeconds: config.syncRetryDelaySeconds, expireInSeconds: config.syncJobExpireSeconds, ...deps.queue },
    log ?? undefined,
    metrics,
  );
  await queue.start();
  let services: Services | null = null;
  try {
    // 3. The modules, wired together.
    services = createServices({ config, database, redis, queue, metrics, log: log ?? undefined }, deps.services);
    const built = services;
    // Read at each scrape, not counted on the hot paths.
    metrics.sources.queueDepth = () => queue.depth();
    metrics.sources.shopBudgets = () =>
      [...built.storefront.budgets.domains()].map((shop) => ({ shop, available: built.storefront.budgets.available(shop) ?? 0 }));
    if (database.poolUse) metrics.watchPool(database.poolUse);
    // 4. Listeners and backfills: the credential cache hears other nodes' revocations; integrations made before their
    // PIM key was fingerprinted get it (API nodes only: a worker serves no console).
    await services.credentials.listen();
    if (config.role !== 'worker') await services.modules.connector.backfill();
    // 5. The HTTP application.
    const app = await buildApp({ config, database, services, log, instrument: deps.instrument });
    // Before the database closes: workers stop (running jobs finish or go back to the queue), then the queue.
    app.addHook('onClose', async () => {
      await built.jobs.workers.stop(WORKER_STOP_MS);
      await queue.stop(0);
      built.throttleReport?.close();
      await built.credentials.close();
    });
    return app;
  } catch (err) {
    // A failed start leaves nothing running: the queue's timers and the cache's subscriber would keep the process up.
    await queue.stop(0).catch(() => {});
    services?.throttleReport?.close();
    await services?.credentials.close().catch(() => {});
    throw err;
  }
}
