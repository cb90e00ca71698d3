// The only place with SQL for full catalogue syncs: the full_syncs row (status, mode, fan-out cursor), its items (one
// per PIM product, the progress is counted from them) and its bulk batches. Every statement is scoped to one full sync,
// and the reads a caller can reach by id are scoped to the integration too.
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations } from '../connector.tables.js';
import { fullSyncBatches, fullSyncItems, fullSyncs, adoptions } from '../sync.tables.js';
import { rowsOf } from '../../db/rows.js';

export type FullSyncStatus = 'queued' | 'running' | 'completed' | 'failed';
export type FullSyncMode = 'per_call' | 'bulk';
export type ItemStatus = 'queued' | 'synced' | 'failed';
export type BatchStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface FullSyncRow {
  id: string;
  integrationId: number;
  status: FullSyncStatus;
  mode: FullSyncMode | null;
  totalProducts: number | null;
  cursorId: number;
  fannedOut: boolean;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface ItemCounts {
  queued: number;
  synced: number;
  failed: number;
}

export interface BatchRow {
  id: number;
  fullSyncId: string;
  integrationId: number;
  productIds: number[];
  operationId: string | null;
  status: BatchStatus;
}

export interface ItemOutcome {
  pimProductId: number;
  /** `queued` puts an item back (a batch sending it again). */
  status: ItemStatus;
  error: string | null;
}

const syncColumns = {
  id: fullSyncs.id,
  integrationId: fullSyncs.integrationId,
  status: fullSyncs.status,
  mode: fullSyncs.mode,
  totalProducts: fullSyncs.totalProducts,
  cursorId: fullSyncs.cursorId,
  fannedOut: fullSyncs.fannedOut,
  error: fullSyncs.error,
  createdAt: fullSyncs.createdAt,
  startedAt: fullSyncs.startedAt,
  finishedAt: fullSyncs.finishedAt,
};

const batchColumns = {
  id: fullSyncBatches.id,
  fullSyncId: fullSyncBatches.fullSyncId,
  integrationId: fullSyncs.integrationId,
  productIds: fullSyncBatches.productIds,
  operationId: fullSyncBatches.operationId,
  status: fullSyncBatches.status,
};

const OPEN = ['queued', 'running'];

export class FullSyncRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): FullSyncRepository {
    return new FullSyncRepository(tx);
  }

  /**
   * Locks the integration's row for the rest of the transaction (serialises starts of full syncs of one integration);
   * null when the integration does not exist, else whether it is active.
   */
  async lockIntegration(integrationId: number): Promise<{ active: boolean } | null> {
    const [row] = await this.db.select({ active: integrations.isActive }).from(integrations).where(eq(integrations.id, integrationId)).for('update');
    return row ?? null;
  }

  async integrationActive(integrationId: number): Promise<boolean> {
    const [row] = await this.db.select({ active: integrations.isActive }).from(integrations).where(eq(integrations.id, integrationId));
    return row?.active ?? false;
  }

  /** The id of the integration's adoption still queued or running, if any (a full sync waits for it). */
  async openAdoption(integrationId: number): Promise<string | null> {
    const [row] = await this.db
      .select({ id: adoptions.id })
      .from(adoptions)
      .where(and(eq(adoptions.integrationId, integrationId), inArray(adoptions.state, ['queued', 'running'])))
      .limit(1);
    return row?.id ?? null;
  }

  /** Ends an open adoption that no job is left to finish (as a stale full sync is ended). */
  async failAdoption(id: string, error: string): Promise<void> {
    await this.db
      .update(adoptions)
      .set({ state: 'failed', error, finishedAt: sql`now()` })
      .where(and(eq(adoptions.id, id), inArray(adoptions.state, ['queued', 'running'])));
  }

  /** The integration's full sync that is queued or running, if any. */
  async findOpen(integrationId: number): Promise<FullSyncRow | null> {
    const [row] = await this.db
      .select(syncColumns)
      .from(fullSyncs)
      .where(and(eq(fullSyncs.integrationId, integrationId), inArray(fullSyncs.status, OPEN)))
      .orderBy(asc(fullSyncs.createdAt))
      .limit(1);
    return (row as FullSyncRow | undefined) ?? null;
  }

  async create(id: string, integrationId: number, at: Date): Promise<FullSyncRow> {
    const [row] = await this.db.insert(fullSyncs).values({ id, integrationId, status: 'queued', createdAt: at }).returning(syncColumns);
    return row as FullSyncRow;
  }

  /** One full sync; with `integrationId`, only when it belongs to that integration. */
  async find(id: string, integrationId?: number): Promise<FullSyncRow | null> {
    const [row] = await this.db
      .select(syncColumns)
      .from(fullSyncs)
      .where(and(eq(fullSyncs.id, id), integrationId === undefined ? undefined : eq(fullSyncs.integrationId, integrationId)));
    return (row as FullSyncRow | undefined) ?? null;
  }

  /** The sync's row, locked for the rest of the transaction (one fan-out page at a time). */
  async lockForFanOut(id: string): Promise<FullSyncRow | null> {
    const [row] = await this.db.select(syncColumns).from(fullSyncs).where(eq(fullSyncs.id, id)).for('update');
    return (row as FullSyncRow | undefined) ?? null;
  }

  /** queued → running (started_at kept from an earlier start); null when the sync is not open any more. */
  async markRunning(id: string, at: Date): Promise<FullSyncRow | null> {
    const [row] = await this.db
      .update(fullSyncs)
      .set({ status: 'running', startedAt: sql`coalesce(${fullSyncs.startedAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(fullSyncs.id, id), inArray(fullSyncs.status, OPEN)))
      .returning(syncColumns);
    return (row as FullSyncRow | undefined) ?? null;
  }

  async setMode(id: string, mode: FullSyncMode, totalProducts: number): Promise<void> {
    await this.db
      .update(fullSyncs)
      .set({ mode, totalProducts })
      .where(and(eq(fullSyncs.id, id), isNull(fullSyncs.mode)));
  }

  /** Items for a page of products (already known ones are left as they are) and the cursor moved past the page. */
  async recordPage(id: string, pimProductIds: number[], cursorId: number): Promise<void> {
    if (pimProductIds.length > 0) {
      await this.db
        .insert(fullSyncItems)
        .values(pimProductIds.map((pimProductId) => ({ fullSyncId: id, pimProductId })))
        .onConflictDoNothing();
    }
    await this.db
      .update(fullSyncs)
      .set({ cursorId: sql`greatest(${fullSyncs.cursorId}, ${cursorId})` })
      .where(eq(fullSyncs.id, id));
  }

  async markFannedOut(id: string): Promise<void> {
    await this.db.update(fullSyncs).set({ fannedOut: true }).where(eq(fullSyncs.id, id));
  }

  /** Bulk mode: queued items not in a batch yet, by PIM id. */
  async unbatchedCount(id: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(fullSyncItems)
      .where(and(eq(fullSyncItems.fullSyncId, id), isNull(fullSyncItems.batchId), eq(fullSyncItems.status, 'queued')));
    return Number(row.n);
  }

  /** A batch of the first `size` unbatched items (by PIM id); null when there are none. */
  async createBatch(id: string, size: number): Promise<{ id: number; productIds: number[] } | null> {
    const items = await this.db
      .select({ pimProductId: fullSyncItems.pimProductId })
      .from(fullSyncItems)
      .where(and(eq(fullSyncItems.fullSyncId, id), isNull(fullSyncItems.batchId), eq(fullSyncItems.status, 'queued')))
      .orderBy(asc(fullSyncItems.pimProductId))
      .limit(size);
    if (items.length === 0) return null;
    const productIds = items.map((i) => i.pimProductId);
    const [batch] = await this.db.insert(fullSyncBatches).values({ fullSyncId: id, productIds }).returning({ id: fullSyncBatches.id });
    // The first `size` unbatched items by id are exactly the unbatched ones up to the last of them (no id list sent).
    await this.db
      .update(fullSyncItems)
      .set({ batchId: batch.id })
      .where(
        and(
          eq(fullSyncItems.fullSyncId, id),
          isNull(fullSyncItems.batchId),
          eq(fullSyncItems.status, 'queued'),
          lte(fullSyncItems.pimProductId, productIds[productIds.length - 1]),
        ),
      );
    return { id: batch.id, productIds };
  }

  async counts(id: string): Promise<ItemCounts> {
    const rows = await this.db
      .select({ status: fullSyncItems.status, n: sql<number>`count(*)::int` })
      .from(fullSyncItems)
      .where(eq(fullSyncItems.fullSyncId, id))
      .groupBy(fullSyncItems.status);
    const counts: ItemCounts = { queued: 0, synced: 0, failed: 0 };
    for (const r of rows) if (r.status in counts) counts[r.status as ItemStatus] = Number(r.n);
    return counts;
  }

  /**
   * Per-call items of this product in the integration's running full syncs → its outcome; returns the full syncs
   * touched. Items of a bulk batch are the batch's to finish (its result lines are matched to them by position).
   */
  async finishProduct(integrationId: number, pimProductId: number, outcome: Omit<ItemOutcome, 'pimProductId'>, at: Date): Promise<string[]> {
    const rows = rowsOf<{ full_sync_id: string }>(
      await this.db.execute(sql`
        UPDATE full_sync_items i SET status = ${outcome.status}, error = ${outcome.error}, updated_at = ${at.toISOString()}::timestamptz
        FROM full_syncs s
        WHERE s.id = i.full_sync_id AND s.integration_id = ${integrationId} AND s.status = 'running'
          AND i.pim_product_id = ${pimProductId} AND i.status = 'queued' AND i.batch_id IS NULL
        RETURNING i.full_sync_id`),
    );
    return [...new Set(rows.map((r) => r.full_sync_id))];
  }

  /** Outcomes (or a return to `queued`) of many items of one full sync, in one statement. */
  async finishItems(id: string, outcomes: ItemOutcome[], at: Date): Promise<void> {
    if (outcomes.length === 0) return;
    const payload = JSON.stringify(outcomes.map((o) => ({ id: o.pimProductId, status: o.status, error: o.error })));
    await this.db.execute(sql`
      UPDATE full_sync_items i SET status = u.status, error = u.error, updated_at = ${at.toISOString()}::timestamptz
      FROM jsonb_to_recordset(${payload}::jsonb) AS u(id int, status text, error text)
      WHERE i.full_sync_id = ${id} AND i.pim_product_id = u.id`);
  }

  /** The reason of the first failed item (by PIM id), for the sync log. */
  async firstFailure(id: string): Promise<string | null> {
    const [row] = await this.db
      .select({ error: fullSyncItems.error })
      .from(fullSyncItems)
      .where(and(eq(fullSyncItems.fullSyncId, id), eq(fullSyncItems.status, 'failed')))
      .orderBy(asc(fullSyncItems.pimProductId))
      .limit(1);
    return row?.error ?? null;
  }

  /** Items of a batch still queued (the products a started bulk operation carries), by PIM id. */
  async queuedItemsOfBatch(id: string, batchId: number): Promise<number[]> {
    const rows = await this.db
      .select({ pimProductId: fullSyncItems.pimProductId })
      .from(fullSyncItems)
      .where(and(eq(fullSyncItems.fullSyncId, id), eq(fullSyncItems.batchId, batchId), eq(fullSyncItems.status, 'queued')))
      .orderBy(asc(fullSyncItems.pimProductId));
    return rows.map((r) => r.pimProductId);
  }

  /**
   * running → completed once the fan-out is done and no item is queued; returns the row when this call closed it
   * (exactly one caller does, so the sync log is written once).
   */
  async completeIfDone(id: string, at: Date): Promise<FullSyncRow | null> {
    const [row] = await this.db
      .update(fullSyncs)
      .set({ status: 'completed', finishedAt: at })
      .where(
        and(
          eq(fullSyncs.id, id),
          eq(fullSyncs.status, 'running'),
          eq(fullSyncs.fannedOut, true),
          sql`NOT EXISTS (SELECT 1 FROM full_sync_items i WHERE i.full_sync_id = ${id} AND i.status = 'queued')`,
        ),
      )
      .returning(syncColumns);
    return (row as FullSyncRow | undefined) ?? null;
  }

  /** An open full sync → failed; returns the row when this call failed it. */
  async fail(id: string, error: string, at: Date): Promise<FullSyncRow | null> {
    const [row] = await this.db
      .update(fullSyncs)
      .set({ status: 'failed', error, finishedAt: at })
      .where(and(eq(fullSyncs.id, id), inArray(fullSyncs.status, OPEN)))
      .returning(syncColumns);
    return (row as FullSyncRow | undefined) ?? null;
  }

  async batch(batchId: number): Promise<BatchRow | null> {
    const [row] = await this.db
      .select(batchColumns)
      .from(fullSyncBatches)
      .innerJoin(fullSyncs, eq(fullSyncs.id, fullSyncBatches.fullSyncId))
      .where(eq(fullSyncBatches.id, batchId));
    return (row as BatchRow | undefined) ?? null;
  }

  /** The full sync's first batch not finished yet (queued, or running after a restart). */
  /** The sync's batch `batchId` while it is open (queued or running), else null. */
  async openBatch(id: string, batchId: number): Promise<BatchRow | null> {
    const [row] = await this.db
      .select(batchColumns)
      .from(fullSyncBatches)
      .innerJoin(fullSyncs, eq(fullSyncs.id, fullSyncBatches.fullSyncId))
      .where(and(eq(fullSyncBatches.fullSyncId, id), eq(fullSyncBatches.id, batchId), inArray(fullSyncBatches.status, OPEN)));
    return (row as BatchRow | undefined) ?? null;
  }

  async setBatch(batchId: number, set: { status?: BatchStatus; operationId?: string | null; error?: string | null }, at: Date): Promise<void> {
    await this.db
      .update(fullSyncBatches)
      .set({ ...set, updatedAt: at })
      .where(eq(fullSyncBatches.id, batchId));
  }

  /** Every item of the full sync still queued → failed with this reason (the sync was failed as a whole). */
  async failQueuedItems(id: string, error: string, at: Date, batchId?: number): Promise<void> {
    await this.db
      .update(fullSyncItems)
      .set({ status: 'failed', error, updatedAt: at })
      .where(and(eq(fullSyncItems.fullSyncId, id), eq(fullSyncItems.status, 'queued'), batchId === undefined ? undefined : eq(fullSyncItems.batchId, batchId)));
  }
}
