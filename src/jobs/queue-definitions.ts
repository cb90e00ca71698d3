// How each queue behaves: its pg-boss policy (de-duplication by singletonKey), retries and expiry. Created (or
// updated) at every start, so a change here reaches an existing database.
import { JOB, type JobName } from './job-types.js';

export interface QueueDefinition {
  /**
   * pg-boss policy. `stately`: per singletonKey at most one job queued, one waiting for a retry and one active (a send
   * while one is queued is dropped: the queued one will read the latest state anyway). `singleton`: per key at most one
   * active, any number queued (they run one after another). `standard`: no de-duplication.
   */
  policy: 'standard' | 'stately' | 'singleton';
  /** Tries after the first. */
  retryLimit: number;
  /** Seconds before the first retry; with back-off the delay doubles per try (and is jittered by pg-boss). 0: at once. */
  retryDelay: number;
  retryBackoff: boolean;
  /**
   * The lease: a job whose worker stopped renewing it (the worker beats every expireInSeconds / 4) for this long is
   * taken over by another worker (queue.ts reclaimExpired, every few seconds; pg-boss's own expiry in maintenance
   * catches it too); a live worker keeps even a long job (a bulk operation).
   */
  expireInSeconds: number;
  /** A handler running longer than this is given up (the job fails and is retried): a stuck call must not hold a slot for ever. */
  maxRunSeconds: number;
}

export interface QueueTuning {
  retryLimit: number;
  retryDelaySeconds: number;
  expireInSeconds: number;
}

/** The defaults of SYNC_RETRY_LIMIT, SYNC_RETRY_DELAY_SECONDS and SYNC_JOB_EXPIRE_SECONDS (config.ts). */
export const DEFAULT_QUEUE_TUNING: QueueTuning = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 15 };

export function queueDefinitions(t: QueueTuning): Record<JobName, QueueDefinition> {
  const retry = { retryDelay: t.retryDelaySeconds, retryBackoff: t.retryDelaySeconds > 0 };
  return {
    [JOB.syncProduct]: { policy: 'stately', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 15 * 60 },
    // A poll that fails is simply the next tick's job: one retry covers a blip.
    [JOB.syncPoll]: { policy: 'stately', retryLimit: 1, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 15 * 60 },
    [JOB.syncFull]: { policy: 'standard', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 6 * 3600 },
    // One job per singletonKey at a time: a full sync's batches take BULK_SLOTS keys per shop (full-sync.service.ts),
    // so no more bulk mutations run at once than Shopify allows an app, any number of batches queued behind them.
    // A long file or a large shop: a live worker keeps the job by its lease; a dead one's job resumes elsewhere.
    [JOB.catalogueImport]: { policy: 'standard', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 6 * 3600 },
    [JOB.catalogueAdopt]: { policy: 'standard', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 6 * 3600 },
    [JOB.catalogueDrift]: { policy: 'standard', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 6 * 3600 },
    [JOB.syncBulk]: { policy: 'singleton', retryLimit: t.retryLimit, ...retry, expireInSeconds: t.expireInSeconds, maxRunSeconds: 6 * 3600 },
  };
}
