// A full catalogue sync (POST /api/sync/full): every product of the integration's PIM account to its storefront.
// `start` records the full_syncs row and its sync.full job in one transaction. `fanOut` (the sync.full handler) pages
// the PIM by id and, per page and in one transaction, records the items, queues their work and moves the cursor, so a
// restarted fan-out goes on where it stopped and never queues a product twice. Below SYNC_BULK_THRESHOLD products the
// work is one sync.product job per product (`productFinished` closes its item); from it on, chunks of products go to
// sync.bulk jobs (`runBatch`, bulk-batch-run.ts), each one storefront bulk upsert whose operation id is recorded before it is waited on,
// so a restarted job resumes that operation instead of starting another; up to BULK_SLOTS of them run at once per
// shop. The last item to finish closes the sync and
// writes its one sync log. Long jobs are fine: the queue renews the lease of a running job (heartbeat), and a job of
// a dead worker is retried, finding its place again in the rows.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { JOB, type SyncBulkJob, type SyncFullJob } from '../../jobs/job-types.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import { ConnectorError } from '../connector.errors.js';
import { PimReadError } from '../pim/pim-http.js';
import { clip } from '../push/push-results.js';
import type { SyncOutcome } from '../push/sync-log.repository.js';
import { BatchRun } from './bulk-batch-run.js';
import { DEFAULT_FULL_SYNC_OPTIONS, type FullSyncDeps, type FullSyncOptions } from './full-sync.deps.js';
import type { FullSyncRow, ItemCounts } from './full-sync.repository.js';

// The composition root builds the service with these options and imports their type from here.
export type { FullSyncOptions };

export type ProductOutcome = { ok: true } | { ok: false; error: string };

/**
 * Bulk mutations one app may run at once per shop: five from API 2026-01
 * (https://shopify.dev/docs/api/usage/bulk-operations/imports). Each batch's sync.bulk job takes one of this many
 * singleton keys per integration, so at most this many run at once and the rest wait their turn in the queue.
 */
export const BULK_SLOTS = 5;

export function bulkSlotKey(integrationId: number, batchId: number): string {
  return `${integrationId}:bulk:${batchId % BULK_SLOTS}`;
}

/** What GET /api/sync/full/{id} answers. */
export interface FullSyncView {
  id: string;
  status: FullSyncRow['status'];
  mode: FullSyncRow['mode'];
  total: number;
  queued: number;
  synced: number;
  failed: number;
  /** (synced + failed) ÷ total, in percent with one decimal; 100 once completed. */
  progress: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
}

export type StartResult = { started: true; sync: FullSyncView } | { started: false; sync: FullSyncView };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class FullSyncService {
  readonly options: Readonly<FullSyncOptions>;
  private readonly now: () => Date;

  constructor(
    private readonly deps: FullSyncDeps,
    options: Partial<FullSyncOptions> = {},
  ) {
    this.options = { ...DEFAULT_FULL_SYNC_OPTIONS, ...options };
    this.now = deps.now ?? (() => new Date());
  }

  /** Starts a full sync unless one is queued or running for the integration (then that one is answered). */
  async start(integrationId: number): Promise<StartResult> {
    const { db, repo, queue, txExecutor, liveJobs } = this.deps;
    const stale = await repo.findOpen(integrationId);
    const staleAdoption = await repo.openAdoption(integrationId);
    if ((stale || staleAdoption) && liveJobs && (await liveJobs(integrationId)) === 0) {
      // Nothing can finish them: their last job failed before it could record it.
      if (stale) await this.failSync(stale.id, 'Interrupted: no job was left to finish it');
      if (staleAdoption) await repo.failAdoption(staleAdoption, 'Interrupted: no job was left to finish it');
    }
    return db.transaction(async (tx) => {
      const r = repo.with(tx);
      // The lock makes check-then-insert safe against a concurrent start on another node.
      const integration = await r.lockIntegration(integrationId);
      if (!integration?.active) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
      const open = await r.findOpen(integrationId);
      if (open) return { started: false as const, sync: view(open, await r.counts(open.id)) };
      // An adoption links the shop's products first; a sync now would create what it is about to link.
      const adoption = await r.openAdoption(integrationId);
      if (adoption)
        throw new ConnectorError('SYNC_IN_PROGRESS', `An adoption of this integration is open (${adoption}); start the full sync when it has ended`);
      const id = randomUUID();
      const row = await r.create(id, integrationId, this.now());
      await queue.send(JOB.syncFull, { integrationId, fullSyncId: id }, { id, db: txExecutor(tx) });
      return { started: true as const, sync: view(row, { queued: 0, synced: 0, failed: 0 }) };
    });
  }

  /** One full sync of the integration; anything else (another integration's, not an id) is NOT_FOUND. */
  async progress(integrationId: number, id: string): Promise<FullSyncView> {
    const row = UUID.test(id) ? await this.deps.repo.find(id.toLowerCase(), integrationId) : null;
    if (!row) throw new ConnectorError('NOT_FOUND', `Full sync ${id} not found`);
    return view(row, await this.deps.repo.counts(row.id));
  }

  /** The sync.full handler: pages the PIM from the cursor and fans the products out. */
  async fanOut(job: SyncFullJob, signal?: AbortSignal): Promise<void> {
    const { repo, db, queue, txExecutor } = this.deps;
    const { pageSize, bulkThreshold, chunkSize } = this.options;
    const sync = await repo.find(job.fullSyncId, job.integrationId);
    if (!sync || (sync.status !== 'queued' && sync.status !== 'running')) return;
    if (!(await repo.integrationActive(sync.integrationId))) return this.failSync(sync.id, 'The integration was disconnected');
    const conn = await this.deps.integrations.pimConnectionOf(sync.integrationId);
    if (!conn) return this.failSync(sync.id, 'The integration was disconnected');
    let state = await repo.markRunning(sync.id, this.now());
    if (!state) return;

    while (!state.fannedOut) {
      signal?.throwIfAborted();
      const afterId = state.cursorId;
      let page: { products: PimProductSnapshot[]; total: number };
      try {
        page = await this.deps.pim.productPage(conn, { afterId, limit: pageSize });
      } catch (err) {
        // Refused credentials will not mend by retrying; anything else is retried by the queue with back-off.
        if (err instanceof PimReadError && err.kind === 'unauthorized') return this.failSync(sync.id, `The PIM refused the integration's credentials`);
        throw err;
      }
      const ids = [...new Set(page.products.map((p) => p.id).filter((id) => Number.isInteger(id) && id > afterId))].sort((a, b) => a - b);
      const last = page.products.length < pageSize || ids.length === 0;
      const next = await db.transaction(async (tx) => {
        const r = repo.with(tx);
        const exec = txExecutor(tx);
        // Serialises fan-outs of this sync (should a retry overlap a run taken for dead): a page already recorded is skipped.
        const current = await r.lockForFanOut(sync.id);
        if (current?.status !== 'running' || current.cursorId !== afterId || current.fannedOut) return current;
        let mode = current.mode;
        if (!mode) {
          mode = page.total < bulkThreshold ? 'per_call' : 'bulk';
          await r.setMode(sync.id, mode, page.total);
        }
        await r.recordPage(sync.id, ids, ids.at(-1) ?? afterId);
        if (mode === 'per_call') {
          const jobs = ids.map((pimProductId) => ({
            data: { integrationId: sync.integrationId, pimProductId, reason: 'full' as const, fullSyncId: sync.id },
            singletonKey: `${sync.integrationId}:${pimProductId}`,
          }));
          if (jobs.length > 0) await queue.sendMany(JOB.syncProduct, jobs, { db: exec });
        } else {
          let open = await r.unbatchedCount(sync.id);
          while (open >= chunkSize || (last && open > 0)) {
            const batch = await r.createBatch(sync.id, chunkSize);
            if (!batch) break;
            open -= batch.productIds.length;
            // One job per batch, on one of the shop's BULK_SLOTS singleton keys: as many bulk operations at once as
            // Shopify runs for an app, the other batches queued behind them.
            await queue.send(
              JOB.syncBulk,
              { integrationId: sync.integrationId, fullSyncId: sync.id, batchId: batch.id },
              { singletonKey: bulkSlotKey(sync.integrationId, batch.id), db: exec },
            );
          }
        }
        if (last) await r.markFannedOut(sync.id);
        return r.find(sync.id);
      });
      if (next?.status !== 'running') return;
      state = next;
    }
    await this.closeIfDone(sync.id);
  }

  /** Called for each finished sync.product job: closes that product's open per-call items (and a sync they finish). */
  async productFinished(integrationId: number, pimProductId: number, outcome: ProductOutcome): Promise<void> {
    const ids = await this.deps.repo.finishProduct(
      integrationId,
      pimProductId,
      outcome.ok ? { status: 'synced', error: null } : { status: 'failed', error: clip(outcome.error) },
      this.now(),
    );
    for (const id of ids) await this.closeIfDone(id);
  }

  /** The sync.full job failed for good (its tries are spent): the full sync fails with the reason. */
  async fanOutFailed(job: SyncFullJob, error: string): Promise<void> {
    const sync = await this.deps.repo.find(job.fullSyncId, job.integrationId);
    if (sync) await this.failSync(sync.id, `The full sync stopped: ${error}`);
  }

  /** The sync.bulk handler: the job's batch, while it is open (a retried job resumes the operation it recorded). */
  async runBatch(job: SyncBulkJob, signal?: AbortSignal): Promise<void> {
    const { repo } = this.deps;
    const sync = await repo.find(job.fullSyncId, job.integrationId);
    if (sync?.status !== 'running') return;
    const batch = await repo.openBatch(sync.id, job.batchId);
    if (!batch) return this.closeIfDone(sync.id);
    if (!(await repo.integrationActive(sync.integrationId))) return this.failSync(sync.id, 'The integration was disconnected');
    const [conn, shop] = await Promise.all([
      this.deps.integrations.pimConnectionOf(sync.integrationId),
      this.deps.integrations.storefrontShopOf(sync.integrationId),
    ]);
    if (!conn || !shop) return this.failSync(sync.id, 'The integration was disconnected');

    await new BatchRun(this, this.deps, sync, batch, conn, shop, signal).run();
    await this.closeIfDone(sync.id);
  }

  /**
   * The sync.bulk job failed for good (its last try): its batch fails with the reason, items and mappings alike; the
   * sync's other batches have jobs of their own.
   */
  async batchFailed(job: SyncBulkJob, error: string): Promise<void> {
    const { repo, db, mappings } = this.deps;
    const sync = await repo.find(job.fullSyncId, job.integrationId);
    if (sync?.status !== 'running') return;
    const batch = await repo.openBatch(sync.id, job.batchId);
    if (batch) {
      const at = this.now();
      const reason = clip(`The storefront's bulk upsert failed: ${error}`);
      const failed = await db.transaction(async (tx) => {
        const r = repo.with(tx);
        const m = mappings.with(tx);
        const ids = await r.queuedItemsOfBatch(sync.id, batch.id);
        for (const id of ids) await m.saveError(sync.integrationId, id, clip(`The storefront could not take PIM product ${id}: ${error}`), at);
        await r.failQueuedItems(sync.id, reason, at, batch.id);
        await r.setBatch(batch.id, { status: 'failed', error: reason }, at);
        return ids.length;
      });
      this.deps.metrics?.productsSynced(sync.integrationId, 'bulk', 0, failed);
    }
    await this.closeIfDone(sync.id);
  }

  /** Completes the sync when its fan-out is done and no item is queued; the call that completes it writes the sync log. */
  async closeIfDone(id: string): Promise<void> {
    const { db, repo } = this.deps;
    await db.transaction(async (tx) => {
      const r = repo.with(tx);
      const done = await r.completeIfDone(id, this.now());
      if (done) await this.writeLog(tx, done, await r.counts(id), null);
    });
  }

  /** Fails an open sync as a whole (its queued items with it) and writes its sync log. */
  async failSync(id: string, error: string): Promise<void> {
    const { db, repo } = this.deps;
    const at = this.now();
    await db.transaction(async (tx) => {
      const r = repo.with(tx);
      const failed = await r.fail(id, clip(error), at);
      if (!failed) return;
      await r.failQueuedItems(id, clip(`Not synced: ${error}`), at);
      await this.writeLog(tx, failed, await r.counts(id), error);
    });
  }

  /** The one `products.full_sync` sync log of a finished sync, and the integration's last_sync_at. */
  private async writeLog(tx: Db, sync: FullSyncRow, counts: ItemCounts, failure: string | null): Promise<void> {
    const logs = this.deps.syncLogs.with(tx);
    const at = sync.finishedAt ?? this.now();
    const processed = counts.synced + counts.failed + counts.queued;
    const status: SyncOutcome = failure || (processed > 0 && counts.failed === processed) ? 'error' : counts.failed > 0 ? 'partial' : 'success';
    let error: string | null = failure ? clip(failure) : null;
    if (!error && counts.failed > 0) {
      const first = await this.deps.repo.with(tx).firstFailure(sync.id);
      error = clip(`${counts.failed} of ${processed} products failed; first: ${first ?? 'unknown'}`);
    }
    const logId = await logs.start(sync.integrationId, 'products.full_sync', sync.startedAt ?? sync.createdAt);
    await logs.complete(logId, { status, processed, failed: counts.failed + counts.queued, error, at });
    await logs.touchLastSync(sync.integrationId, at);
  }

  /** The service's clock (BatchRun writes with it). */
  get clock(): () => Date {
    return this.now;
  }
}

function view(row: FullSyncRow, counts: ItemCounts): FullSyncView {
  const items = counts.queued + counts.synced + counts.failed;
  // Until the fan-out is done, the PIM's count at the start is the better total (items are recorded page by page).
  const total = row.fannedOut ? items : Math.max(row.totalProducts ?? 0, items);
  const done = counts.synced + counts.failed;
  const progress = row.status === 'completed' ? 100 : total === 0 ? 0 : Math.floor((done / total) * 1000) / 10;
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    total,
    queued: total - done,
    synced: counts.synced,
    failed: counts.failed,
    progress,
    created_at: row.createdAt,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    error: row.error,
  };
}
