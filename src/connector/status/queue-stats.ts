// The queue_stats seam. The status endpoints ask a QueueStatsSource: JobQueueStats counts the job queue's jobs of the
// integration (the app's default); InlineQueueStats, from before the queue, counts running sync logs (kept for tests
// of the status service without a queue).
import type { StatusRepository } from './status.repository.js';

export interface QueueStats {
  pending_messages: number;
  processing_messages: number;
  failed_messages: number;
  note: string;
}

export interface QueueStatsSource {
  /** Counts for one integration, or (null) for the whole system. */
  stats(integrationId: number | null): Promise<QueueStats>;
}

export const INLINE_QUEUE_NOTE = 'no job queue yet: pushes run inline; processing counts running syncs';

/** No queue yet: nothing waits and nothing fails in a queue; running syncs are what is being processed. */
export class InlineQueueStats implements QueueStatsSource {
  constructor(private readonly repository: Pick<StatusRepository, 'runningSyncCount'>) {}

  async stats(integrationId: number | null): Promise<QueueStats> {
    return {
      pending_messages: 0,
      processing_messages: await this.repository.runningSyncCount(integrationId),
      failed_messages: 0,
      note: INLINE_QUEUE_NOTE,
    };
  }
}

export const JOB_QUEUE_NOTE =
  'pg-boss jobs (sync.product, sync.full, sync.bulk, sync.poll): pending = queued or waiting for a retry; failed = failed for good in the last 24 h';

/** The job queue's counts for the integration's jobs (or all jobs). */
export class JobQueueStats implements QueueStatsSource {
  constructor(private readonly queue: { counts(integrationId: number | null): Promise<{ pending: number; processing: number; failed24h: number }> }) {}

  async stats(integrationId: number | null): Promise<QueueStats> {
    const c = await this.queue.counts(integrationId);
    return { pending_messages: c.pending, processing_messages: c.processing, failed_messages: c.failed24h, note: JOB_QUEUE_NOTE };
  }
}
