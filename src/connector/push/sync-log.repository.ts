// The only place with SQL for sync logs written by the push, the full and the delta sync (and the integration's last_sync_at).
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';
import { syncLogs } from '../sync.tables.js';

/** A sync log's `status`: `running` while the operation runs, then how it ended. */
export const SYNC_LOG_STATUSES = ['running', 'success', 'partial', 'error'] as const;
export type SyncLogStatus = (typeof SYNC_LOG_STATUSES)[number];
export type SyncOutcome = Exclude<SyncLogStatus, 'running'>;

/** The sync log operation of the delta sync (its products written by sync.product jobs, gathered: recordDelta). */
export const DELTA_SYNC_OPERATION = 'products.delta_sync';
/** A delta log takes the writes that come less than this long after its last one… */
export const DELTA_LOG_GAP_MS = 60_000;
/** …while it is younger than this: then a new one starts. */
export const DELTA_LOG_SPAN_MS = 5 * 60_000;

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

  /**
   * Adds what the delta sync did to the integration's current `products.delta_sync` log: one written product (failed or
   * not), or a poll that failed (`processed` 0 and an error). A log gathers the writes that follow each other by less
   * than DELTA_LOG_GAP_MS, for at most DELTA_LOG_SPAN_MS; the next write after starts a new one. Its status is
   * `success` (nothing failed), `error` (everything did, or only a poll failure) or `partial`. A poll that found
   * nothing to write writes no log. Serialized per integration (a transaction-scoped advisory lock), so two workers
   * finishing together add to one row.
   */
  async recordDelta(integrationId: number, outcome: { processed: number; failed: number; error: string | null; startedAt: Date; at: Date }): Promise<number> {
    const { processed, failed, error, startedAt, at } = outcome;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${DELTA_SYNC_OPERATION}), ${integrationId}::int)`);
      const status = sql`case when ${syncLogs.recordsFailed} = 0 and ${syncLogs.error} is null then 'success' when ${syncLogs.recordsFailed} >= ${syncLogs.recordsProcessed} then 'error' else 'partial' end`;
      const [open] = await tx
        .select({ id: syncLogs.id })
        .from(syncLogs)
        .where(
          and(
            eq(syncLogs.integrationId, integrationId),
            eq(syncLogs.operation, DELTA_SYNC_OPERATION),
            sql`${syncLogs.completedAt} > ${new Date(at.getTime() - DELTA_LOG_GAP_MS).toISOString()}::timestamptz`,
            sql`${syncLogs.startedAt} > ${new Date(at.getTime() - DELTA_LOG_SPAN_MS).toISOString()}::timestamptz`,
          ),
        )
        .orderBy(sql`${syncLogs.id} desc`)
        .limit(1);
      const id =
        open?.id ??
        (
          await tx
            .insert(syncLogs)
            .values({ integrationId, operation: DELTA_SYNC_OPERATION, status: 'running', startedAt: new Date(Math.min(startedAt.getTime(), at.getTime())) })
            .returning({ id: syncLogs.id })
        )[0].id;
      await tx
        .update(syncLogs)
        .set({
          recordsProcessed: sql`${syncLogs.recordsProcessed} + ${processed}::int`,
          recordsFailed: sql`${syncLogs.recordsFailed} + ${failed}::int`,
          // The latest failure's reason stays (the mapping of each product keeps its own).
          error: error === null ? sql`${syncLogs.error}` : error,
          completedAt: at,
        })
        .where(eq(syncLogs.id, id));
      await tx.update(syncLogs).set({ status }).where(eq(syncLogs.id, id));
      return id;
    });
  }

  async touchLastSync(integrationId: number, at: Date): Promise<void> {
    await this.db.update(integrations).set({ lastSyncAt: at }).where(eq(integrations.id, integrationId));
  }
}
