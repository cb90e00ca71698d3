// The sync.full and sync.bulk handlers: FullSyncService's fan-out and bulk batches. A throw lets the queue retry with
// back-off; on the last try the full sync (fan-out) or the batch (bulk) is failed first, where users see it.
import { WorkerStopping, type JobContext, type JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { FullSyncService } from './full-sync.service.js';

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** The last try failed for good — not a stop of this process, which hands the job back for a retry. */
const finalFailure = (job: JobContext<typeof JOB.syncFull | typeof JOB.syncBulk>) => job.finalAttempt && !(job.signal.reason instanceof WorkerStopping);

export function fullSyncHandler(fullSync: FullSyncService): JobHandler<typeof JOB.syncFull> {
  return async (job: JobContext<typeof JOB.syncFull>) => {
    try {
      await fullSync.fanOut(job.data, job.signal);
    } catch (err) {
      if (finalFailure(job)) await fullSync.fanOutFailed(job.data, reason(err));
      throw err;
    }
  };
}

export function syncBulkHandler(fullSync: FullSyncService): JobHandler<typeof JOB.syncBulk> {
  return async (job: JobContext<typeof JOB.syncBulk>) => {
    try {
      await fullSync.runBatch(job.data, job.signal);
    } catch (err) {
      if (finalFailure(job)) await fullSync.batchFailed(job.data, reason(err));
      throw err;
    }
  };
}
