// The sync.poll handler: one delta poll of an integration (PIM changes since its watermark become sync.product jobs),
// then its category collections compared with the PIM's categories: at once when the PIM changed (a category renamed or
// deleted touches its products), else at most every 10 minutes. A poll that throws (PIM unreachable) is retried by the
// queue, its watermark where it was; a failed reconciliation is only logged (the next poll tries again).
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JOB } from '../../jobs/job-types.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';
import type { DeltaSyncService } from './delta-sync.service.js';

export function syncPollHandler(deps: {
  delta: Pick<DeltaSyncService, 'poll'>;
  collections: Pick<CategoryCollectionService, 'reconcile'>;
  log?: { warn(obj: object, msg: string): void };
}): JobHandler<typeof JOB.syncPoll> {
  return async (job: JobContext<typeof JOB.syncPoll>) => {
    const { integrationId } = job.data;
    const polled = await deps.delta.poll(integrationId);
    await deps.collections
      .reconcile(integrationId, { ifIdle: polled.seen === 0 })
      .catch((err: unknown) => deps.log?.warn({ err, integrationId }, 'category collections could not be reconciled'));
  };
}
