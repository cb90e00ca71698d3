// The sync.poll handler: one delta poll of an integration (PIM changes since its watermark become sync.product jobs),
// then its category collections compared with the PIM's categories: at once when the PIM changed (a category renamed or
// deleted touches its products), else at most every 10 minutes. A poll that throws (PIM unreachable) is retried by the
// queue, its watermark where it was (its last try is written to the delta sync log: a PIM that cannot be read shows
// there); a failed reconciliation is only logged (the next poll tries again).
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';
import type { DeltaSyncService } from './delta-sync.service.js';
import type { SyncLogRepository } from '../push/sync-log.repository.js';

export function syncPollHandler(deps: {
  delta: Pick<DeltaSyncService, 'poll'>;
  collections: Pick<CategoryCollectionService, 'reconcile'>;
  log?: { warn(obj: object, msg: string): void };
  syncLogs?: Pick<SyncLogRepository, 'recordDelta'> | null;
}): JobHandler<typeof JOB.syncPoll> {
  return async (job: JobContext<typeof JOB.syncPoll>) => {
    const { integrationId } = job.data;
    const startedAt = new Date();
    let polled: Awaited<ReturnType<DeltaSyncService['poll']>>;
    try {
      polled = await deps.delta.poll(integrationId);
    } catch (err) {
      if (job.finalAttempt && deps.syncLogs) {
        const error = `The delta sync could not read the PIM: ${err instanceof Error ? err.message : String(err)}`.slice(0, 1_000);
        await deps.syncLogs
          .recordDelta(integrationId, { processed: 0, failed: 0, error, startedAt, at: new Date() })
          .catch((e: unknown) => deps.log?.warn({ err: e, integrationId }, 'the delta sync log could not be written'));
      }
      throw err;
    }
    await deps.collections
      .reconcile(integrationId, { ifIdle: polled.seen === 0 })
      .catch((err: unknown) => deps.log?.warn({ err, integrationId }, 'category collections could not be reconciled'));
  };
}
