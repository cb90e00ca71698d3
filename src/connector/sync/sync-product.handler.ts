// The sync.product handler: one PIM product to one integration's storefront (delta sync, per-call full sync). The
// product's outcome goes to the mapping (PushService.syncProduct) and, when a full sync waits for it, to that sync; a
// delta job's to the integration's current delta sync log (SyncLogRepository.recordDelta).
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import { TransientSyncError } from '../push/batch-run.js';
import type { PushService, SyncProductOutcome } from '../push/push.service.js';
import type { SyncRecorder } from '../../lib/metrics.js';
import type { SyncLogRepository } from '../push/sync-log.repository.js';

type ProductOutcome = { ok: true } | { ok: false; error: string };

export interface SyncProductHandlerDeps {
  push: Pick<PushService, 'syncProduct'>;
  /** FullSyncService (optional): told of every finished product so a waiting full sync can count it. */
  fullSync?: { productFinished(integrationId: number, pimProductId: number, outcome: ProductOutcome): Promise<void> } | null;
  log?: { error(obj: object, msg: string): void };
  metrics?: SyncRecorder | null;
  /** Where a delta job's outcome is logged (the full sync logs its own). */
  syncLogs?: Pick<SyncLogRepository, 'recordDelta'> | null;
  now?: () => Date;
}

export function syncProductHandler(deps: SyncProductHandlerDeps): JobHandler<typeof JOB.syncProduct> {
  return async (job: JobContext<typeof JOB.syncProduct>) => {
    const { integrationId, pimProductId } = job.data;
    const now = deps.now ?? (() => new Date());
    const startedAt = now();
    const logDelta = async (failed: boolean, error: string | null) => {
      if (job.data.reason !== 'delta' || !deps.syncLogs) return;
      await deps.syncLogs
        .recordDelta(integrationId, { processed: 1, failed: failed ? 1 : 0, error, startedAt, at: now() })
        .catch((err: unknown) => deps.log?.error({ err, integrationId }, 'the delta sync log could not be written'));
    };
    let outcome: SyncProductOutcome;
    try {
      // The job's signal: past its run cap (or when the worker stops) no storefront write starts, beside a retry.
      outcome = await deps.push.syncProduct(integrationId, pimProductId, { finalAttempt: job.finalAttempt, log: deps.log, signal: job.signal, job: job.data });
    } catch (err) {
      // Transient (or our own database): retried by the queue; after the last try the product is finished as failed.
      if (job.finalAttempt) {
        deps.metrics?.productsSynced(integrationId, 'job', 0, 1);
        const error =
          err instanceof TransientSyncError
            ? err.message
            : `PIM product ${pimProductId} could not be synced: ${err instanceof Error ? err.message : String(err)}`;
        await deps.fullSync?.productFinished(integrationId, pimProductId, { ok: false, error });
        await logDelta(true, error);
      }
      throw err;
    }
    // Deferred (an adoption holds the integration): queued again, the product is not finished yet.
    if (outcome.status === 'deferred') return;
    // Skipped (integration inactive or gone): nothing was sent, but a full sync waiting for the product can still end.
    const finished: ProductOutcome =
      outcome.status === 'synced' ? { ok: true } : { ok: false, error: outcome.status === 'failed' ? outcome.error : outcome.reason };
    if (outcome.status !== 'skipped') {
      deps.metrics?.productsSynced(integrationId, 'job', outcome.status === 'synced' ? 1 : 0, outcome.status === 'failed' ? 1 : 0);
      await logDelta(outcome.status === 'failed', outcome.status === 'failed' ? outcome.error : null);
    }
    await deps.fullSync?.productFinished(integrationId, pimProductId, finished);
  };
}
