// What an adoption is built with: its options and the services it reads and writes through (the service and its runs
// take the same).
import type { Db } from '../../db/client.js';
import type { JobQueue, SqlExecutor } from '../../jobs/job-types.js';
import type { StorefrontCatalogueReader } from '../../storefront/port/catalogue.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import type { MappingRepository } from '../mappings/mapping.repository.js';
import type { PimClient } from '../pim/pim-client.js';
import type { AdoptionRepository } from './adoption.repository.js';
import type { PimConnection, UnmatchedImporter } from './unmatched-import.js';

export interface AdoptionOptions {
  /** PIM products per page (the PIM core API allows at most 100). */
  pageSize: number;
  /** Mappings written per statement. */
  mappingBatch: number;
  /** First and longest wait between two polls of the storefront's read or the PIM's import. */
  pollMs: { first: number; max: number };
  /** A read that failed as a whole is started again this many times in all before the adoption fails. */
  readAttempts: number;
  /** How long a start refused because the shop runs as many bulk queries as it allows is retried within one job. */
  busyRetryMs: number;
  /** Unmatched products listed in the answer, per side (the counts are the totals). */
  listCap: number;
}

export const DEFAULT_ADOPTION_OPTIONS: AdoptionOptions = {
  pageSize: 100,
  mappingBatch: 500,
  pollMs: { first: 500, max: 5_000 },
  readAttempts: 3,
  busyRetryMs: 120_000,
  listCap: 1_000,
};

export interface AdoptionDeps {
  db: Db;
  repo: AdoptionRepository;
  queue: JobQueue;
  /** The queue's executor inside a drizzle transaction (jobs/queue.ts executorOf): the job commits with the row. */
  txExecutor: (tx: Db) => SqlExecutor;
  integrations: {
    pimConnectionOf(integrationId: number): Promise<(PimConnection & { isActive?: boolean }) | null>;
    storefrontShopOf(integrationId: number): Promise<StorefrontShop | null>;
  };
  pim: Pick<PimClient, 'productPage'>;
  mappings: Pick<MappingRepository, 'links' | 'insertAdopted'>;
  storefront: StorefrontCatalogueReader & Pick<StorefrontPort, 'shopHealth'>;
  /** The PIM import of unmatched products; null when this server cannot write the file yet (import_unmatched refused). */
  importer: UnmatchedImporter | null;
  /** The integration's jobs queued, waiting for a retry or running: none left means an open adoption can never end. */
  liveJobs?: (integrationId: number) => Promise<number>;
  now?: () => Date;
}
