// A full catalogue sync (POST /api/sync/full): every product of the integration's PIM account to its storefront.
// `start` records the full_syncs row and its sync.full job in one transaction. `fanOut` (the sync.full handler) pages
// the PIM by id and, per page and in one transaction, records the items, queues their work and moves the cursor, so a
// restarted fan-out goes on where it stopped and never queues a product twice. Below SYNC_BULK_THRESHOLD products the
// work is one sync.product job per product (`productFinished` closes its item); from it on, chunks of products go to
// sync.bulk jobs (`runBatch`), each one storefront bulk upsert whose operation id is recorded before it is waited on,
// so a restarted job resumes that operation instead of starting another; up to BULK_SLOTS of them run at once per
// shop. The last item to finish closes the sync and
// writes its one sync log. Long jobs are fine: the queue renews the lease of a running job (heartbeat), and a job of
// a dead worker is retried, finding its place again in the rows.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { JOB, type JobQueue, type SqlExecutor, type SyncBulkJob, type SyncFullJob } from '../../jobs/job-types.js';
import type {
  BulkItemOutcome,
  BulkUpsertItem,
  BulkUpsertState,
  KnownStorefrontProduct,
  PimProductSnapshot,
  StorefrontPort,
  StorefrontShop,
  SyncPlacement,
} from '../../storefront/storefront.port.js';
import { ConnectorError } from '../connector.errors.js';
import { pollUntilDone, startWhenFree } from '../storefront-operations.js';
import type { MappingRepository, MappingRow } from '../mappings/mapping.repository.js';
import { PimReadError } from '../pim/pim-client.js';
import type { IntegrationSettingsService } from '../integrations/integration-settings.service.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import { clip } from '../push/push-results.js';
import { keptDeletedInShop, knownOf, pimVersion, recordMissingLocales, syncedMappingOf } from '../push/mapping-state.js';
import type { SyncLogRepository, SyncOutcome } from '../push/sync-log.repository.js';
import type { BatchRow, FullSyncRepository, FullSyncRow, ItemCounts, ItemOutcome } from './full-sync.repository.js';
import { maxOf, minOf } from '../../lib/arrays.js';
import type { SyncRecorder } from '../../lib/metrics.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';

export interface PimConnection {
  baseUrl: string;
  apiKey: string;
}

/** The PIM reads a full sync needs: full products (variants and stock included), by id, after a keyset cursor. */
export interface PimPageReader {
  productPage(conn: PimConnection, page: { afterId: number; limit: number }): Promise<{ products: PimProductSnapshot[]; total: number }>;
}

export interface FullSyncOptions {
  /** A full sync of at least this many products uses bulk upserts (SYNC_BULK_THRESHOLD). */
  bulkThreshold: number;
  /** Products per bulk upsert (one sync.bulk job, one storefront bulk operation). */
  chunkSize: number;
  /** Products per PIM page (the PIM core API allows at most 100). */
  pageSize: number;
  /** First and longest wait between two polls of a bulk operation. */
  pollMs: { first: number; max: number };
  /** A bulk operation that failed as a whole is run again this many times in all before its items fail. */
  bulkAttempts: number;
  /** How long a start refused because another bulk operation runs on the shop is retried within one job. */
  busyRetryMs: number;
}

export const DEFAULT_FULL_SYNC_OPTIONS: FullSyncOptions = {
  bulkThreshold: 200,
  chunkSize: 1_000,
  pageSize: 100,
  pollMs: { first: 1_000, max: 5_000 },
  bulkAttempts: 3,
  busyRetryMs: 120_000,
};

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

interface Logger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface FullSyncDeps {
  db: Db;
  repo: FullSyncRepository;
  queue: JobQueue;
  /** The queue's executor inside a drizzle transaction (jobs/queue.ts executorOf): sends commit with the data. */
  txExecutor: (tx: Db) => SqlExecutor;
  integrations: {
    pimConnectionOf(integrationId: number): Promise<PimConnection | null>;
    storefrontShopOf(integrationId: number): Promise<StorefrontShop | null>;
  };
  pim: PimPageReader;
  mappings: MappingRepository;
  syncLogs: SyncLogRepository;
  storefront: StorefrontPort;
  /** The integration's placement of products on its shop (publications, locations, currency). */
  settings: Pick<IntegrationSettingsService, 'placement'>;
  /** The shop collections of the products' categories (connector/collections); without it membership is left alone. */
  collections?: Pick<CategoryCollectionService, 'placementFor'> | null;
  /**
   * The integration's jobs queued, waiting for a retry or running (the queue's counts). With none left, an open full
   * sync can never finish (its last job failed for good before it could say so): a new start fails it instead of
   * answering SYNC_IN_PROGRESS for ever. Read outside any transaction (the queue's own executor).
   */
  liveJobs?: (integrationId: number) => Promise<number>;
  now?: () => Date;
  log?: Logger;
  /** Counts the bulk path's product outcomes (sync.product jobs are counted by their handler). */
  metrics?: SyncRecorder | null;
}

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

/** One sync.bulk job's work on one batch: read, pre-flight, start or resume the bulk upsert, wait, write the outcome. */
class BatchRun {
  constructor(
    private readonly service: FullSyncService,
    private readonly deps: FullSyncDeps,
    private readonly sync: FullSyncRow,
    private batch: BatchRow,
    private readonly conn: PimConnection,
    private readonly shop: StorefrontShop,
    private readonly signal?: AbortSignal,
  ) {}

  private get storefront(): StorefrontPort {
    return this.deps.storefront;
  }

  /** The mark of this batch's claim on its products' mappings (MappingRepository.claimForBulk). */
  private get token(): string {
    return `${this.sync.id}:${this.batch.id}`;
  }

  /** Products another writer wrote (or writes) while this batch sends them: written again, last, by a sync.product each. */
  private async requeue(tx: Db, pimProductIds: number[]): Promise<void> {
    const integrationId = this.sync.integrationId;
    const jobs = pimProductIds.map((pimProductId) => ({
      data: { integrationId, pimProductId, reason: 'delta' as const },
      singletonKey: `${integrationId}:${pimProductId}`,
    }));
    await this.deps.queue.sendMany(JOB.syncProduct, jobs, { db: this.deps.txExecutor(tx) });
  }

  /** Runs the batch to its end: completed, or failed after `bulkAttempts` failed operations. */
  async run(): Promise<void> {
    const { bulkAttempts } = this.service.options;
    for (let attempt = 1; ; attempt++) {
      let started: { operationId: string; items: BulkUpsertItem[] } | null;
      if (this.batch.operationId) started = { operationId: this.batch.operationId, items: await this.resumedItems() };
      else started = await this.start();
      if (!started) return; // nothing left to send
      const state = await this.wait(started.operationId, started.items);
      if (state.state === 'completed') return this.finish(started.items, state.outcomes);
      // Failed or cancelled as a whole: some lines may have been applied; the upserts are idempotent, so run it again.
      const at = this.service.clock();
      if (attempt >= bulkAttempts) return this.failAll(started.items, `The storefront's bulk operation failed ${attempt} times; last: ${state.message}`);
      await this.deps.repo.setBatch(this.batch.id, { operationId: null, status: 'queued', error: clip(state.message) }, at);
      this.batch = { ...this.batch, operationId: null, status: 'queued' };
    }
  }

  /** The batch's products from the PIM, by id (keyset pages over the batch's id range). */
  private async readProducts(): Promise<Map<number, PimProductSnapshot>> {
    const wanted = new Set(this.batch.productIds);
    const max = maxOf(this.batch.productIds, -Infinity);
    const found = new Map<number, PimProductSnapshot>();
    let afterId = minOf(this.batch.productIds, Infinity) - 1;
    const { pageSize } = this.service.options;
    for (;;) {
      const page = await this.deps.pim.productPage(this.conn, { afterId, limit: pageSize });
      for (const p of page.products) if (wanted.has(p.id)) found.set(p.id, p);
      const ids = page.products.map((p) => p.id).filter((id) => id > afterId);
      if (page.products.length < pageSize || ids.length === 0 || maxOf(ids, -Infinity) >= max) return found;
      afterId = maxOf(ids, -Infinity);
    }
  }

  /** A fresh start: pre-flight, pending mappings, the bulk upsert started and its id recorded. null: nothing to send. */
  private async start(): Promise<{ operationId: string; items: BulkUpsertItem[] } | null> {
    const { db, repo, mappings } = this.deps;
    const integrationId = this.sync.integrationId;
    const products = await this.readProducts();
    const failures: ItemOutcome[] = [];
    const refused: { id: number; message: string }[] = [];
    const sendable: PimProductSnapshot[] = [];
    const mapped = new Map(
      (
        await mappings.findMany(
          integrationId,
          this.batch.productIds.filter((id) => products.has(id)),
        )
      ).map((m) => [m.pimProductId, m]),
    );
    for (const id of this.batch.productIds) {
      const product = products.get(id);
      if (!product) {
        failures.push({ pimProductId: id, status: 'failed', error: `PIM product ${id} not found` });
        continue;
      }
      // The storefront's rules, and what the mapped product forbids (the merchant's variants a line could not keep).
      const row = mapped.get(id);
      const problems = this.storefront.preflight(product, row ? knownOf(row) : undefined);
      if (problems.length > 0) {
        const message = clip(`The storefront refused PIM product ${id}: ${problems.join('; ')}`);
        failures.push({ pimProductId: id, status: 'failed', error: message });
        refused.push({ id, message });
      } else sendable.push(product);
    }
    // A product deleted in the shop that the integration keeps deleted is not sent (as a push would not send it).
    const placement = await this.placement(sendable);
    for (const product of [...sendable]) {
      const kept = keptDeletedInShop(product.id, mapped.get(product.id), placement);
      if (!kept) continue;
      failures.push({ pimProductId: product.id, status: 'failed', error: kept });
      sendable.splice(sendable.indexOf(product), 1);
    }
    const at = this.service.clock();
    let claimed = new Set<number>();
    await db.transaction(async (tx) => {
      const r = repo.with(tx);
      const m = mappings.with(tx);
      // The refused fail with their reasons; the sent are queued (again, should an earlier try have failed them): a
      // resumed operation's items are the batch's queued ones, so they must be exactly what is sent.
      await r.finishItems(this.sync.id, [...failures, ...sendable.map((p) => ({ pimProductId: p.id, status: 'queued' as const, error: null }))], at);
      for (const f of refused) await m.saveError(integrationId, f.id, f.message, at);
      // Pending rows before the storefront is called: a crash leaves a trace, and the adapter then looks for the product.
      for (const p of sendable) if (!mapped.has(p.id)) await m.insertPending(integrationId, p.id);
      // The products' claim (no lease is held through an operation of minutes: pushes would wait for it). One another
      // writer holds the lease of now, or whose storefront has a newer version, is left out of the file: that writer
      // (or the sync.product queued here, which takes the lease and reads the PIM again) writes it instead.
      claimed = await m.claimForBulk(
        integrationId,
        sendable.map((p) => ({ pimProductId: p.id, version: pimVersion((p as { updated_at?: unknown }).updated_at) })),
        this.token,
      );
      const busy = sendable.filter((p) => !claimed.has(p.id)).map((p) => p.id);
      if (busy.length > 0) {
        await r.finishItems(
          this.sync.id,
          busy.map((pimProductId) => ({ pimProductId, status: 'synced' as const, error: null })),
          at,
        );
        await this.requeue(tx, busy);
      }
      if (claimed.size === 0) await r.setBatch(this.batch.id, { status: 'completed' }, at);
    });
    if (claimed.size < sendable.length) this.deps.queue.wake?.(JOB.syncProduct);
    this.deps.metrics?.productsSynced(integrationId, 'bulk', 0, failures.length);
    const sent = sendable.filter((p) => claimed.has(p.id));
    if (sent.length === 0) return null;
    // The mappings as the claim found them (a writer may have written one since the first read). One without a row
    // before this batch, and still without a storefront product, was never pushed: the adapter need not look for it.
    const current = new Map(
      (
        await mappings.findMany(
          integrationId,
          sent.map((p) => p.id),
        )
      ).map((m) => [m.pimProductId, m]),
    );
    const items = sent.map((product) => {
      const row = current.get(product.id);
      return { product, known: row && (mapped.has(product.id) || row.storefrontProductId !== null) ? knownOf(row) : known(undefined), placement };
    });
    const operationId = await this.startBulk(items);
    await repo.setBatch(this.batch.id, { operationId, status: 'running', error: null }, this.service.clock());
    this.batch = { ...this.batch, operationId, status: 'running' };
    return { operationId, items };
  }

  /** The items a recorded operation carries: the batch's products still queued, in id order (as they were sent). */
  private async resumedItems(): Promise<BulkUpsertItem[]> {
    const ids = await this.deps.repo.queuedItemsOfBatch(this.sync.id, this.batch.id);
    const products = await this.readProducts();
    const mapped = new Map((await this.deps.mappings.findMany(this.sync.integrationId, ids)).map((m) => [m.pimProductId, m]));
    const placement = await this.placement([...products.values()]);
    // A product gone from the PIM since keeps its place, so the result lines still match the items by position.
    return ids.map((id) => ({ product: products.get(id) ?? { id, sku: '', name: '', variants: [] }, known: known(mapped.get(id)), placement }));
  }

  /** The batch's placement, with the collections of its products' categories (made where missing). */
  private async placement(products: PimProductSnapshot[]): Promise<SyncPlacement> {
    const placement = await this.deps.settings.placement(this.sync.integrationId, this.shop, this.storefront);
    return this.deps.collections ? this.deps.collections.placementFor(this.sync.integrationId, this.shop, products, placement) : placement;
  }

  /** startBulkUpsert, waiting while the shop runs another bulk operation (e.g. one a crashed job started). */
  private async startBulk(items: BulkUpsertItem[]): Promise<string> {
    const { busyRetryMs } = this.service.options;
    return (await startWhenFree(() => this.storefront.startBulkUpsert(this.shop, items), { busyRetryMs, signal: this.signal })).operationId;
  }

  /** Polls until the operation ends (or the job is aborted: it is then retried and resumes the operation). */
  private wait(operationId: string, items: BulkUpsertItem[]): Promise<Exclude<BulkUpsertState, { state: 'running' }>> {
    return pollUntilDone(() => this.storefront.bulkUpsertState(this.shop, operationId, items), { pollMs: this.service.options.pollMs, signal: this.signal });
  }

  /** The outcome of every item: mappings as a push writes them, the items, the batch, in one transaction. */
  private async finish(items: BulkUpsertItem[], outcomes: BulkItemOutcome[]): Promise<void> {
    const { db, repo, mappings } = this.deps;
    const integrationId = this.sync.integrationId;
    const at = this.service.clock();
    const results: ItemOutcome[] = [];
    const overtaken: number[] = [];
    await db.transaction(async (tx) => {
      const m = mappings.with(tx);
      // A bulk operation runs for minutes and cannot be stopped line by line: another writer (an inline push, a delta
      // job) may have written a product meanwhile, before or after this line — or be writing it now. Such a product's
      // mapping is no longer as the claim left it: its mapping is that writer's, and it is queued again (a sync.product
      // takes the lease and writes the PIM's newest version last), so the store never keeps an older version.
      const claims = await m.bulkClaims(
        integrationId,
        items.map((it) => it.product.id),
        this.token,
      );
      for (const [i, { product }] of items.entries()) {
        const outcome = outcomes[i] ?? { ok: false as const, errors: ['the bulk operation answered no result for this product'] };
        const ours = claims.has(product.id);
        if (outcome.ok) {
          if (!ours) {
            overtaken.push(product.id);
            results.push({ pimProductId: product.id, status: 'synced', error: null });
            continue;
          }
          const r = outcome.result;
          // The version this line was built from (recorded by the claim; a resumed job reads the PIM again).
          const record = syncedMappingOf(product.id, r, at, claims.get(product.id) ?? null);
          await m.saveSynced(integrationId, product.id, record);
          await recordMissingLocales(new IntegrationRepository(tx), integrationId, product, r);
          results.push({ pimProductId: product.id, status: record.error ? 'failed' : 'synced', error: record.error });
        } else {
          const message = clip(`The storefront refused PIM product ${product.id}: ${outcome.errors.join('; ')}`);
          if (ours) await m.saveError(integrationId, product.id, message, at);
          results.push({ pimProductId: product.id, status: 'failed', error: message });
        }
      }
      const r = repo.with(tx);
      await r.finishItems(this.sync.id, results, at);
      await r.setBatch(this.batch.id, { status: 'completed', error: null }, at);
      if (overtaken.length > 0) await this.requeue(tx, overtaken);
    });
    if (overtaken.length > 0) this.deps.queue.wake?.(JOB.syncProduct);
    const failed = results.filter((r) => r.status === 'failed').length;
    this.deps.metrics?.productsSynced(integrationId, 'bulk', results.length - failed, failed);
  }

  private async failAll(items: BulkUpsertItem[], reason: string): Promise<void> {
    const { db, repo, mappings } = this.deps;
    const at = this.service.clock();
    await db.transaction(async (tx) => {
      const m = mappings.with(tx);
      // A product another writer wrote meanwhile keeps that writer's mapping.
      const claims = await m.bulkClaims(
        this.sync.integrationId,
        items.map((it) => it.product.id),
        this.token,
      );
      for (const { product } of items) {
        if (!claims.has(product.id)) continue;
        await m.saveError(this.sync.integrationId, product.id, clip(`The storefront could not take PIM product ${product.id}: ${reason}`), at);
      }
      const r = repo.with(tx);
      await r.failQueuedItems(this.sync.id, clip(reason), at, this.batch.id);
      await r.setBatch(this.batch.id, { status: 'failed', error: clip(reason) }, at);
    });
    this.deps.metrics?.productsSynced(this.sync.integrationId, 'bulk', 0, items.length);
  }
}

/** The mapping's storefront ids; none yet: never pushed (the adapter need not look for a product of an earlier push). */
const known = (mapping: MappingRow | undefined): KnownStorefrontProduct => (mapping ? knownOf(mapping) : { ...knownOf(undefined), neverPushed: true });

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
