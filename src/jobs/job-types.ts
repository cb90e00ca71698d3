// The queue's contract: job names, their payloads, and what the rest of the code may ask of the queue. The pg-boss
// implementation lives beside this file (queue.ts); handlers live with the services they drive.
import type { SqlExecutor } from '../db/executor.js';

export const JOB = {
  /** One PIM product to one integration's storefront (delta sync, per-call full sync, retries). */
  syncProduct: 'sync.product',
  /** A full catalogue sync: pages the PIM account and fans out sync.product or sync.bulk jobs. */
  syncFull: 'sync.full',
  /** One chunk of a bulk-mode full sync: one storefront bulk operation. */
  syncBulk: 'sync.bulk',
  /** One delta-sync poll of one integration (at most one queued and one running per integration). */
  syncPoll: 'sync.poll',
  /** One uploaded catalogue file (PIM imports): resumes after its last committed line. */
  catalogueImport: 'catalogue.import',
  /** Adopting a connected shop's existing products (connector POST /api/adopt). */
  catalogueAdopt: 'catalogue.adopt',
  /** A drift report of a connected shop: the shop read once, compared with what the bridge last wrote (POST /api/drift). */
  catalogueDrift: 'catalogue.drift',
} as const;

export type JobName = (typeof JOB)[keyof typeof JOB];

export interface SyncProductJob {
  integrationId: number;
  pimProductId: number;
  /** Why it was queued; `full` jobs carry their full sync's id. */
  reason: 'delta' | 'full';
  fullSyncId?: string;
}

export interface SyncFullJob {
  integrationId: number;
  /** = the job's own id and full_syncs.id. */
  fullSyncId: string;
}

export interface SyncBulkJob {
  integrationId: number;
  fullSyncId: string;
  /** full_sync_batches.id */
  batchId: number;
}

export interface SyncPollJob {
  integrationId: number;
}

export interface CatalogueImportJob {
  /** = imports.id */
  importId: string;
}

export interface CatalogueAdoptJob {
  integrationId: number;
  /** = the adoption's id (= the job's id). */
  adoptionId: string;
}

export interface CatalogueDriftJob {
  integrationId: number;
  /** = the drift report's id (= the job's id). */
  reportId: string;
}

export interface JobData {
  'sync.product': SyncProductJob;
  'sync.full': SyncFullJob;
  'sync.bulk': SyncBulkJob;
  'sync.poll': SyncPollJob;
  'catalogue.import': CatalogueImportJob;
  'catalogue.adopt': CatalogueAdoptJob;
  'catalogue.drift': CatalogueDriftJob;
}

/**
 * Where a send runs: by default on its own; given a transaction's executor (see `executorOf` in queue.ts), the job
 * is inserted in that transaction and exists only if it commits (transactional enqueue with the data). The type is the
 * database layer's (db/client.ts), named here too because it is part of the queue's contract.
 */
export type { SqlExecutor };

export interface SendOptions {
  /** A chosen job id (uuid), e.g. a full sync's id. */
  id?: string;
  /** De-duplication key (per queue policy: sync.product and sync.poll are `stately`, one queued + one active per key). */
  singletonKey?: string;
  /** Throttle: at most one job per singletonKey per slot of this many seconds (slots aligned on the clock). */
  singletonSeconds?: number;
  startAfter?: Date | number;
  /** Run the insert inside this transaction. */
  db?: SqlExecutor;
}

export interface JobQueue {
  /** Queues one job; null when a job with the same singletonKey is already queued (de-duplicated). */
  send<N extends JobName>(name: N, data: JobData[N], options?: SendOptions): Promise<string | null>;
  /** Queues many jobs of one name in one statement (duplicates by singletonKey skipped). */
  sendMany<N extends JobName>(name: N, jobs: { data: JobData[N]; singletonKey?: string; id?: string }[], options?: { db?: SqlExecutor }): Promise<void>;
  /** After a transaction that sent jobs of `name` committed: this process's workers fetch them now, not at their next poll. */
  wake?(name: JobName): void;
}
