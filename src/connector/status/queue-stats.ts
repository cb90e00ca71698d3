// The queue_stats seam. The status endpoints ask a QueueStatsSource; until the job queue lands, the implementation
// below counts what exists for real (pushes run inline, so a `running` sync log is the only "message in flight").
// The job-queue issue replaces it with one that counts the queue's jobs for the integration.
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
