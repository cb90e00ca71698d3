// What a full sync is built with: its options, the PIM reader it pages, and the services it writes through (the
// service and its bulk batches take the same).
import type { Db } from '../../db/client.js';
import type { JobQueue, SqlExecutor } from '../../jobs/job-types.js';
import type { SyncRecorder } from '../../lib/metrics.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';
import type { IntegrationSettingsService } from '../integrations/integration-settings.service.js';
import type { MappingRepository } from '../mappings/mapping.repository.js';
import type { SyncLogRepository } from '../push/sync-log.repository.js';
import type { FullSyncRepository } from './full-sync.repository.js';

export interface PimConnection {
  baseUrl: string;
  apiKey: string;
}

/** The PIM reads a full sync needs: full products (variants and stock included), by id, after a keyset cursor. */
export interface PimPageReader {
  productPage(conn: PimConnection, page: { afterId: number; limit: number }): Promise<{ products: PimProductSnapshot[]; total: number }>;
}

export interface FullSyncOptions {
  /** A full sync of at least this many products uses bulk upserts (SYNC_BULK_THRESHOLD). */
  bulkThreshold: number;
  /** Products per bulk upsert (one sync.bulk job, one storefront bulk operation). */
  chunkSize: number;
  /** Products per PIM page (the PIM core API allows at most 100). */
  pageSize: number;
  /** First and longest wait between two polls of a bulk operation. */
  pollMs: { first: number; max: number };
  /** A bulk operation that failed as a whole is run again this many times in all before its items fail. */
  bulkAttempts: number;
  /** How long a start refused because another bulk operation runs on the shop is retried within one job. */
  busyRetryMs: number;
}

export const DEFAULT_FULL_SYNC_OPTIONS: FullSyncOptions = {
  bulkThreshold: 200,
  chunkSize: 1_000,
  pageSize: 100,
  pollMs: { first: 1_000, max: 5_000 },
  bulkAttempts: 3,
  busyRetryMs: 120_000,
};

export interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FullSyncDeps {
  db: Db;
  repo: FullSyncRepository;
  queue: JobQueue;
  /** The queue's executor inside a drizzle transaction (jobs/queue.ts executorOf): sends commit with the data. */
  txExecutor: (tx: Db) => SqlExecutor;
  integrations: {
    pimConnectionOf(integrationId: number): Promise<PimConnection | null>;
    storefrontShopOf(integrationId: number): Promise<StorefrontShop | null>;
  };
  pim: PimPageReader;
  mappings: MappingRepository;
  syncLogs: SyncLogRepository;
  storefront: StorefrontPort;
  /** The integration's placement of products on its shop (publications, locations, currency). */
  settings: Pick<IntegrationSettingsService, 'placement'>;
  /** The shop collections of the products' categories (connector/collections); without it membership is left alone. */
  collections?: Pick<CategoryCollectionService, 'placementFor'> | null;
  /**
   * The integration's jobs queued, waiting for a retry or running (the queue's counts). With none left, an open full
   * sync can never finish (its last job failed for good before it could say so): a new start fails it instead of
   * answering SYNC_IN_PROGRESS for ever. Read outside any transaction (the queue's own executor).
   */
  liveJobs?: (integrationId: number) => Promise<number>;
  now?: () => Date;
  log?: Logger;
  /** Counts the bulk path's product outcomes (sync.product jobs are counted by their handler). */
  metrics?: SyncRecorder | null;
}
