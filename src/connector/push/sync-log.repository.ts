// The only place with SQL for sync logs written by the push (and the integration's last_sync_at).
import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';
import { syncLogs } from '../sync.tables.js';

/** A sync log's `status`: `running` while the operation runs, then how it ended. */
export const SYNC_LOG_STATUSES = ['running', 'success', 'partial', 'error'] as const;
export type SyncLogStatus = (typeof SYNC_LOG_STATUSES)[number];
export type SyncOutcome = Exclude<SyncLogStatus, 'running'>;

export class SyncLogRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SyncLogRepository {
    return new SyncLogRepository(tx);
  }

  /** A `running` row, visible to the status endpoints while the operation runs. */
  async start(integrationId: number, operation: string, at: Date): Promise<number> {
    const [row] = await this.db.insert(syncLogs).values({ integrationId, operation, status: 'running', startedAt: at }).returning({ id: syncLogs.id });
    return row.id;
  }

  async complete(id: number, outcome: { status: SyncOutcome; processed: number; failed: number; error: string | null; at: Date }): Promise<void> {
    await this.db
      .update(syncLogs)
      .set({ status: outcome.status, recordsProcessed: outcome.processed, recordsFailed: outcome.failed, error: outcome.error, completedAt: outcome.at })
      .where(eq(syncLogs.id, id));
  }

  /**
   * Ends as `error` the integration's logs still `running` that started before `before`: a push whose process died
   * (crash, SIGKILL, deploy) never completes its log, and it must not show as running for ever.
   */
  async closeAbandoned(integrationId: number, before: Date, at: Date): Promise<number> {
    const rows = await this.db
      .update(syncLogs)
      .set({ status: 'error', error: 'Interrupted: the push stopped before it completed (the process ended)', completedAt: at })
      .where(and(eq(syncLogs.integrationId, integrationId), eq(syncLogs.status, 'running'), lt(syncLogs.startedAt, before)))
      .returning({ id: syncLogs.id });
    return rows.length;
  }

  async touchLastSync(integrationId: number, at: Date): Promise<void> {
    await this.db.update(integrations).set({ lastSyncAt: at }).where(eq(integrations.id, integrationId));
  }
}
