// POST /api/products/push: a product or a batch of ≤ 50 goes to the integration's storefront, one StorefrontPort upsert
// per product, with the product mapping kept in step and one sync log per push. Expected per-product outcomes (a PIM
// product not found, the storefront's validation errors) are result values, never exceptions; only a failure of the
// whole request (no product data, too many, our own database) is an error envelope. No transaction is held across an
// outbound call: the PIM read and the storefront upsert run between short writes.
import type { Db } from '../../db/client.js';
import {
  StorefrontDeferredError,
  StorefrontError,
  StorefrontValidationError,
  type FieldChange,
  type KnownStorefrontProduct,
  type PimProductSnapshot,
  type ProductUpsertResult,
  type StorefrontPort,
  type StorefrontShop,
  type SyncPlacement,
  tokenRefused,
} from '../../storefront/storefront.port.js';
import { JOB, type JobQueue, type SyncProductJob } from '../../jobs/job-types.js';
import { AdoptionRepository } from '../adopt/adoption.repository.js';
import { ConnectorError } from '../connector.errors.js';
import type { IntegrationSettingsService } from '../integrations/integration-settings.service.js';
import type { IntegrationService } from '../integrations/integration.service.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import type { MappingRepository, MappingRow, SyncedMapping } from '../mappings/mapping.repository.js';
import { PimReadError, type PimClient } from '../pim/pim-client.js';
import type { SyncLogRepository, SyncOutcome } from './sync-log.repository.js';
import { mapLimit } from '../../lib/map-limit.js';
import { LeaseBusyError, takeLease, type ProductLease } from './product-lease.js';
import type { SyncRecorder } from '../../lib/metrics.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';

/** At most this many products per request (spec). */
export const MAX_PUSH_BATCH = 50;
/**
 * Products of one batch pushed at the same time; the adapter's per-shop throttle paces the storefront calls, so this
 * only bounds the round trips in flight (PIM reads and productSet calls; 8 keeps a 50-product push within ~7 rounds).
 */
export const PUSH_CONCURRENCY = 8;
/** A sync.product that finds an adoption of its integration open is put back this long (the adoption holds the sync). */
export const ADOPTION_WAIT_SECONDS = 5;
/** A `running` sync log older than this belongs to a push whose process ended; the next push closes it as `error`. */
const ABANDONED_AFTER_MS = 30 * 60_000;
/** The largest PIM product id (int4). */
const MAX_PIM_ID = 2_147_483_647;
const LOG_ERROR_MAX = 500;

export type PushResult =
  | { status: 'success'; message: string; pim_product_id: number; storefront_product_id: number; storefront_handle: string; method: 'create' | 'update' }
  | { status: 'error'; message: string; pim_product_id: number | null; storefront_product_id: null; validation_errors: string[] };

/** The sync log operation of a dry run (POST /api/products/push?dry_run=true). */
export const DRY_RUN_OPERATION = 'products.push.dry_run';

/** One product of a dry run: what the push would do, field by field, or the error a push would report. */
export type DryRunResult =
  | {
      status: 'success';
      message: string;
      pim_product_id: number;
      /** The mapped storefront product that would be updated; null when the push would create one. */
      storefront_product_id: number | null;
      storefront_handle: string | null;
      method: 'create' | 'update';
      changes: FieldChange[];
    }
  | Extract<PushResult, { status: 'error' }>;

export interface DryRunData {
  sync_log_id: number;
  dry_run: true;
  total_products: number;
  successful_count: number;
  failed_count: number;
  results: DryRunResult[];
}

export interface PushData {
  sync_log_id: number;
  total_products: number;
  successful_count: number;
  failed_count: number;
  results: PushResult[];
}

interface Logger {
  error(obj: object, msg: string): void;
}

/** sync.product could not finish for a reason that may pass (PIM or storefront unavailable): the queue retries it. */
export class TransientSyncError extends Error {
  override name = 'TransientSyncError';
}

/** How one sync.product ended (a transient failure throws TransientSyncError instead). */
export type SyncProductOutcome =
  | { status: 'synced'; method: 'create' | 'update'; storefrontProductId: number }
  | { status: 'failed'; error: string }
  /** The integration is gone or inactive: nothing was done. */
  | { status: 'skipped'; reason: string }
  /** An adoption of the integration is open: nothing was done, the job is queued again for later. */
  | { status: 'deferred'; reason: string };

/** One item of the request, checked: either a PIM id to read, a full snapshot, or the reason it cannot be pushed. */
type Item =
  | { kind: 'read'; id: number }
  | { kind: 'snapshot'; id: number; snapshot: PimProductSnapshot }
  | { kind: 'invalid'; id: number | null; errors: string[] };

export interface PushDeps {
  db: Db;
  integrations: Pick<IntegrationService, 'pimConnectionOf' | 'storefrontShopOf'>;
  settings: Pick<IntegrationSettingsService, 'placement'>;
  pim: Pick<PimClient, 'productSnapshot' | 'productSnapshots'>;
  mappings: MappingRepository;
  syncLogs: SyncLogRepository;
  /** Where the products go: the Shopify adapter (tests pass a counting double). */
  storefront: StorefrontPort;
  /** Where a product the storefront defers (VARIANT_THROTTLE_EXCEEDED) is queued again, later. */
  queue?: Pick<JobQueue, 'send'> | null;
  /** The shop collections of the products' categories (connector/collections); without it membership is left alone. */
  collections?: Pick<CategoryCollectionService, 'placementFor' | 'knownPlacement'> | null;
  now?: () => Date;
  metrics?: SyncRecorder | null;
}

export interface PushOptions {
  /** Products of one batch pushed at the same time (PUSH_CONCURRENCY). */
  concurrency: number;
}

export class PushService {
  private readonly db: Db;
  private readonly integrations: PushDeps['integrations'];
  private readonly settings: PushDeps['settings'];
  private readonly pim: PushDeps['pim'];
  private readonly mappings: MappingRepository;
  private readonly syncLogs: SyncLogRepository;
  private readonly storefront: StorefrontPort;
  private readonly queue: Pick<JobQueue, 'send'> | null;
  private readonly collections: PushDeps['collections'];
  /** Where the locales a push found the shop lacking are kept (GET /api/status). */
  private readonly locales: IntegrationRepository;
  private readonly now: () => Date;
  private readonly concurrency: number;
  private readonly metrics: SyncRecorder | null;

  constructor(deps: PushDeps, options: Partial<PushOptions> = {}) {
    ({
      db: this.db,
      integrations: this.integrations,
      settings: this.settings,
      pim: this.pim,
      mappings: this.mappings,
      syncLogs: this.syncLogs,
      storefront: this.storefront,
    } = deps);
    this.queue = deps.queue ?? null;
    this.collections = deps.collections ?? null;
    this.locales = new IntegrationRepository(this.db);
    this.now = deps.now ?? (() => new Date());
    this.metrics = deps.metrics ?? null;
    this.concurrency = options.concurrency ?? PUSH_CONCURRENCY;
  }

  /** The shop's placement of this integration's products; a shop that cannot be read fails like its upserts would. */
  private async placementOf(integrationId: number, shop: StorefrontShop): Promise<SyncPlacement | StorefrontError> {
    try {
      return await this.settings.placement(integrationId, shop, this.storefront);
    } catch (err) {
      if (err instanceof StorefrontError) return err;
      throw err;
    }
  }

  /** `body` is the parsed JSON body (undefined when there was none). `partial` is true when at least one product failed. */
  async push(integrationId: number, body: unknown, log?: Logger): Promise<{ data: PushData; partial: boolean }> {
    const items = parseBody(body);
    const [conn, shop] = await Promise.all([this.integrations.pimConnectionOf(integrationId), this.integrations.storefrontShopOf(integrationId)]);
    if (!conn || !shop) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');

    const startedAt = this.now();
    await this.syncLogs.closeAbandoned(integrationId, new Date(startedAt.getTime() - ABANDONED_AFTER_MS), startedAt);
    const syncLogId = await this.syncLogs.start(integrationId, 'products.push', startedAt);
    let results: PushResult[];
    try {
      const [placement, snapshots] = await Promise.all([this.placementOf(integrationId, shop), this.readBatch(conn, items)]);
      const run = new BatchRun(this.runDeps(), integrationId, conn, shop, placement, log, undefined, snapshots);
      results = await mapLimit(items, this.concurrency, (item) => run.pushOne(item));
    } catch (err) {
      // Our own failure (the database): the log still ends, in `error`, and the request is an INTERNAL_ERROR.
      await this.finish(integrationId, syncLogId, items.length, items.length, 'The push failed with an internal error').catch(() => undefined);
      this.metrics?.pushFinished(integrationId, 'error');
      throw err;
    }
    const failed = results.filter((r) => r.status === 'error');
    this.metrics?.productsSynced(integrationId, 'push', items.length - failed.length, failed.length);
    this.metrics?.pushFinished(integrationId, failed.length === 0 ? 'success' : failed.length === items.length ? 'error' : 'partial');
    await this.finish(integrationId, syncLogId, items.length, failed.length, summarise(failed, items.length));
    return {
      data: { sync_log_id: syncLogId, total_products: items.length, successful_count: items.length - failed.length, failed_count: failed.length, results },
      partial: failed.length > 0,
    };
  }

  /**
   * POST /api/products/push?dry_run=true: the same body, pre-flight and mapping as a push, then the storefront's current
   * products read (StorefrontPort.previewUpserts: read calls only) and the fields that would change listed per product.
   * Nothing is written to the shop, no mapping is made or changed; one sync log `products.push.dry_run`.
   */
  async dryRun(integrationId: number, body: unknown): Promise<{ data: DryRunData; partial: boolean }> {
    const items = parseBody(body);
    const [conn, shop] = await Promise.all([this.integrations.pimConnectionOf(integrationId), this.integrations.storefrontShopOf(integrationId)]);
    if (!conn || !shop) throw new ConnectorError('AUTHENTICATION_FAILED', 'Invalid or revoked API token');
    const startedAt = this.now();
    const syncLogId = await this.syncLogs.start(integrationId, DRY_RUN_OPERATION, startedAt);
    let results: DryRunResult[];
    try {
      results = await this.preview(integrationId, conn, shop, items);
    } catch (err) {
      await this.syncLogs
        .complete(syncLogId, {
          status: 'error',
          processed: items.length,
          failed: items.length,
          error: 'The dry run failed with an internal error',
          at: this.now(),
        })
        .catch(() => undefined);
      throw err;
    }
    const failed = results.filter((r): r is Extract<DryRunResult, { status: 'error' }> => r.status === 'error');
    const status: SyncOutcome = failed.length === 0 ? 'success' : failed.length === items.length ? 'error' : 'partial';
    await this.syncLogs.complete(syncLogId, {
      status,
      processed: items.length,
      failed: failed.length,
      error: summarise(failed as PushResult[], items.length),
      at: this.now(),
    });
    return {
      data: {
        sync_log_id: syncLogId,
        dry_run: true,
        total_products: items.length,
        successful_count: items.length - failed.length,
        failed_count: failed.length,
        results,
      },
      partial: failed.length > 0,
    };
  }

  private async preview(
    integrationId: number,
    conn: { baseUrl: string; apiKey: string },
    shop: StorefrontShop,
    items: (Item & { position: number })[],
  ): Promise<DryRunResult[]> {
    const [settled, snapshots] = await Promise.all([this.placementOf(integrationId, shop), this.readBatch(conn, items)]);
    // The collections made so far: a category without one shows in the preview by name, and is made by the push.
    const placement = this.collections && !(settled instanceof StorefrontError) ? await this.collections.knownPlacement(integrationId, settled) : settled;
    const results: (DryRunResult | null)[] = items.map(() => null);
    const seen = new Map<number, number>();
    const ready: { index: number; id: number; snapshot: PimProductSnapshot }[] = [];
    await mapLimit(items, this.concurrency, async (item) => {
      const i = item.position;
      if (item.kind === 'invalid') return void (results[i] = dryFailure(item.id, item.errors.join('; '), item.errors));
      const first = seen.get(item.id);
      if (first !== undefined) {
        const message = `PIM product ${item.id} appears more than once in this batch: it is previewed once, as item ${first + 1}`;
        return void (results[i] = dryFailure(item.id, message, [message]));
      }
      seen.set(item.id, i);
      let snapshot = item.kind === 'snapshot' ? item.snapshot : snapshots.get(item.id);
      if (!snapshot) {
        try {
          snapshot = await this.pim.productSnapshot(conn, item.id);
        } catch (err) {
          if (err instanceof PimReadError) return void (results[i] = dryFailure(item.id, err.message, []));
          throw err;
        }
      }
      ready.push({ index: i, id: item.id, snapshot });
    });
    ready.sort((a, b) => a.index - b.index);
    const fail = (message: string) => {
      for (const r of ready) results[r.index] = dryFailure(r.id, message, []);
    };
    if (placement instanceof StorefrontError) {
      fail(
        placement.tokenRefused
          ? `The storefront refused the shop's access token: ${placement.message}`
          : `The storefront could not be read: ${placement.message}`,
      );
    } else if (!this.storefront.previewUpserts) {
      fail('This storefront cannot preview a push');
    } else if (ready.length > 0) {
      const mappings = new Map(
        (
          await this.mappings.findMany(
            integrationId,
            ready.map((r) => r.id),
          )
        ).map((m) => [m.pimProductId, m]),
      );
      try {
        const previews = await this.storefront.previewUpserts(
          shop,
          ready.map((r) => ({ product: r.snapshot, known: knownOf(mappings.get(r.id)), placement })),
        );
        ready.forEach((r, k) => {
          const p = previews[k];
          if (!p.ok) {
            const message = `The storefront would refuse PIM product ${r.id}: ${p.errors.join('; ')}`;
            results[r.index] = dryFailure(r.id, message, p.errors);
            return;
          }
          results[r.index] = {
            status: 'success',
            message: p.changes.length === 0 ? 'Nothing would change' : `${p.changes.length} field(s) would change (${p.method})`,
            pim_product_id: r.id,
            storefront_product_id: p.productNumericId,
            storefront_handle: p.handle,
            method: p.method,
            changes: p.changes,
          };
        });
      } catch (err) {
        if (!(err instanceof StorefrontError)) throw err;
        fail(`The storefront could not be read: ${err.message}`);
      }
    }
    return results as DryRunResult[];
  }

  /**
   * sync.product: one product read from the PIM (its current state, whatever the job was queued for) and upserted,
   * the mapping written as a push writes it; no sync log (a job is not a push), last_sync_at touched on success.
   * Permanent outcomes (PIM 404, the storefront's validation, a refused token) are written on the mapping and
   * returned; transient ones throw TransientSyncError for the queue to retry, recorded on the mapping on the last try.
   */
  async syncProduct(
    integrationId: number,
    pimProductId: number,
    options: { finalAttempt?: boolean; log?: Logger; signal?: AbortSignal; job?: SyncProductJob } = {},
  ): Promise<SyncProductOutcome> {
    const [conn, shop] = await Promise.all([this.integrations.pimConnectionOf(integrationId), this.integrations.storefrontShopOf(integrationId)]);
    if (!conn || !shop) return { status: 'skipped', reason: `integration ${integrationId} no longer exists` };
    if (conn.isActive === false) return { status: 'skipped', reason: `integration ${integrationId} is inactive` };
    // An open adoption holds the integration's sync until its links are written: pushed before that, a product it is
    // about to link (or has just imported into the PIM) would be created in the shop a second time. Later, then.
    if (await new AdoptionRepository(this.db).hasOpen(integrationId)) {
      const data = options.job ?? { integrationId, pimProductId, reason: 'delta' as const };
      await this.queue?.send(JOB.syncProduct, data, { startAfter: ADOPTION_WAIT_SECONDS, singletonKey: `${integrationId}:${pimProductId}` });
      return { status: 'deferred', reason: `an adoption of integration ${integrationId} is open: tried again in ${ADOPTION_WAIT_SECONDS} s` };
    }
    const placement = await this.placementOf(integrationId, shop);
    if (placement instanceof StorefrontError && !placement.tokenRefused) throw new TransientSyncError(`The storefront could not be read: ${placement.message}`);
    const run = new BatchRun(
      this.runDeps(),
      integrationId,
      conn,
      shop,
      placement,
      options.log,
      { finalAttempt: options.finalAttempt ?? true },
      new Map(),
      options.signal,
    );
    const result = await run.pushOne({ kind: 'read', id: pimProductId });
    if (result.status === 'error') return { status: 'failed', error: result.message };
    await this.syncLogs.touchLastSync(integrationId, this.now());
    return { status: 'synced', method: result.method, storefrontProductId: result.storefront_product_id };
  }

  /**
   * The batch's products to read, in one PIM call instead of one each; empty when the read fails (each product is then
   * read on its own and fails, or not, with its own reason).
   */
  private async readBatch(conn: { baseUrl: string; apiKey: string }, items: Item[]): Promise<Map<number, PimProductSnapshot>> {
    const ids = items.flatMap((i) => (i.kind === 'read' ? [i.id] : []));
    if (ids.length < 2) return new Map();
    try {
      return await this.pim.productSnapshots(conn, ids);
    } catch (err) {
      if (err instanceof PimReadError) return new Map();
      throw err;
    }
  }

  private runDeps(): BatchRunDeps {
    return {
      mappings: this.mappings,
      pim: this.pim,
      storefront: this.storefront,
      now: this.now,
      queue: this.queue,
      collections: this.collections,
      locales: this.locales,
    };
  }

  private async finish(integrationId: number, syncLogId: number, processed: number, failed: number, error: string | null) {
    const status: SyncOutcome = failed === 0 ? 'success' : failed === processed ? 'error' : 'partial';
    const at = this.now();
    await this.db.transaction(async (tx) => {
      await this.syncLogs.with(tx).complete(syncLogId, { status, processed, failed, error, at });
      await this.syncLogs.with(tx).touchLastSync(integrationId, at);
    });
  }
}

interface BatchRunDeps {
  mappings: MappingRepository;
  pim: Pick<PimClient, 'productSnapshot' | 'productSnapshots'>;
  storefront: StorefrontPort;
  now: () => Date;
  queue: Pick<JobQueue, 'send'> | null;
  collections: PushDeps['collections'];
  /** Where the locales a push found the shop lacking are kept (GET /api/status). */
  locales: Pick<IntegrationRepository, 'noteMissingLocales'>;
}

/** The state of one push: who it is for, what the mappings knew, and whether the shop has refused us already. */
class BatchRun {
  private readonly seen = new Map<number, number>();
  /** Set when the storefront refused the shop's token: the remaining products fail at once with the same message. */
  private refused: string | null = null;

  constructor(
    private readonly deps: BatchRunDeps,
    private readonly integrationId: number,
    private readonly conn: { baseUrl: string; apiKey: string },
    private readonly shop: StorefrontShop,
    /** The shop's placement, or why the shop could not be read (every product then fails with it). */
    private readonly placement: SyncPlacement | StorefrontError,
    private readonly log?: Logger,
    /** Set when a sync.product job runs this: transient failures are thrown for the queue to retry (see syncProduct). */
    private readonly job?: { finalAttempt: boolean },
    /** Products already read for this batch (readBatch); the others are read one by one. */
    private readonly snapshots: Map<number, PimProductSnapshot> = new Map(),
    /** A job's abort signal (its run cap, a worker stopping): no storefront write starts after it fired. */
    private readonly signal?: AbortSignal,
  ) {}

  async pushOne(item: Item & { position?: number }): Promise<PushResult> {
    if (item.kind === 'invalid') return failure(item.id, item.errors.join('; '), item.errors);
    const first = this.seen.get(item.id);
    if (first !== undefined) {
      const message = `PIM product ${item.id} appears more than once in this batch: it is pushed once, as item ${first + 1}`;
      return failure(item.id, message, [message]);
    }
    this.seen.set(item.id, item.position ?? 0);
    try {
      return await this.pushProduct(item);
    } catch (err) {
      // A job lets the queue retry whatever was not a product's own outcome (the database, a transient failure).
      if (this.job) throw err;
      this.log?.error({ err, pimProductId: item.id }, 'push of one product failed unexpectedly');
      return failure(item.id, `PIM product ${item.id} could not be pushed: an unexpected error occurred`, []);
    }
  }

  private async pushProduct(item: Extract<Item, { kind: 'read' | 'snapshot' }>): Promise<PushResult> {
    const { mappings, now } = this.deps;
    let snapshot: PimProductSnapshot;
    const read = this.snapshots.get(item.id);
    if (item.kind === 'snapshot') snapshot = item.snapshot;
    else if (read) snapshot = read;
    else {
      try {
        snapshot = await this.deps.pim.productSnapshot(this.conn, item.id);
      } catch (err) {
        // Nothing reached the storefront: the mapping (if any) is left as it was.
        if (err instanceof PimReadError) {
          if (this.job) return this.jobFailure(item.id, err.message, err.kind === 'unavailable');
          return failure(item.id, err.message, []);
        }
        throw err;
      }
    }
    if (tokenRefused(this.placement)) {
      this.refused ??= `The storefront refused the shop's access token: ${this.placement.message}`;
    }
    if (this.refused) {
      await mappings.saveError(this.integrationId, item.id, this.refused, now());
      return failure(item.id, this.refused, []);
    }
    if (this.placement instanceof StorefrontError) {
      const message = `The storefront could not take PIM product ${item.id}: ${this.placement.message}`;
      await mappings.saveError(this.integrationId, item.id, clip(message), now());
      return failure(item.id, message, []);
    }

    const placement = this.deps.collections
      ? await this.deps.collections.placementFor(this.integrationId, this.shop, [snapshot], this.placement)
      : this.placement;

    // One writer of this product at a time (product-lease.ts). Taking the lease makes the pending row before the
    // storefront call: should we crash after the storefront made the product, the next push finds the row and lets the
    // adapter look for that product instead of assuming there is none.
    let lease: ProductLease;
    try {
      lease = await takeLease(mappings, this.integrationId, item.id, { signal: this.signal });
    } catch (err) {
      if (!(err instanceof LeaseBusyError)) throw err;
      if (this.job) return this.jobFailure(item.id, err.message, true);
      return failure(item.id, err.message, []);
    }
    try {
      return await this.write(item, snapshot, placement, lease);
    } finally {
      await lease.release();
    }
  }

  /** The storefront write under the product's lease, and the mapping it leaves. */
  private async write(
    item: Extract<Item, { kind: 'read' | 'snapshot' }>,
    snapshot: PimProductSnapshot,
    placement: SyncPlacement,
    lease: ProductLease,
  ): Promise<PushResult> {
    const { mappings, now } = this.deps;
    const mapping = lease.mapping;
    // The PIM version of this snapshot (unknown for a snapshot the caller sent): one older than what the storefront
    // holds already (another writer was quicker with a newer one) is not sent.
    const version = item.kind === 'read' ? pimVersion(snapshot.updated_at) : null;
    if (version && mapping.storefrontVersion && version < mapping.storefrontVersion && mapping.storefrontProductId !== null) {
      const handle = (mapping.metadata as { storefront_handle?: unknown } | null)?.storefront_handle;
      return {
        status: 'success',
        message: 'The storefront already has a newer version of this product (written by another sync meanwhile)',
        pim_product_id: item.id,
        storefront_product_id: mapping.storefrontProductId,
        storefront_handle: typeof handle === 'string' ? handle : '',
        method: 'update',
      };
    }
    const kept = keptDeletedInShop(item.id, mapping, placement);
    if (kept) return failure(item.id, kept, [kept]);
    const known = mapping.inserted ? { ...knownOf(undefined), neverPushed: true } : knownOf(mapping);
    try {
      this.signal?.throwIfAborted();
      const r = await this.deps.storefront.upsertProduct(this.shop, snapshot, known, placement, { signal: this.signal });
      // The PIM version now in the store, for the delta sync and for the writers that come after.
      const record = { ...syncedMappingOf(item.id, r, now(), version), storefrontVersion: version, leaseOwner: lease.owner };
      await mappings.saveSynced(this.integrationId, item.id, record);
      await recordMissingLocales(this.deps.locales, this.integrationId, snapshot, r);
      lease.ended();
      if (record.error) return failure(item.id, record.error, r.problems);
      // The shop's own variants the push kept (an adopted product's): said in the answer too, not only on the mapping.
      const kept = r.merchantVariants?.length ? r.warnings.find((w) => w.startsWith("variants: the shop's")) : undefined;
      return {
        status: 'success',
        message: `${r.method === 'create' ? 'Product created on the storefront' : 'Product updated on the storefront'}${kept ? `; ${kept}` : ''}`,
        pim_product_id: item.id,
        storefront_product_id: r.productNumericId,
        storefront_handle: r.handle,
        method: r.method,
      };
    } catch (err) {
      if (err instanceof StorefrontDeferredError) {
        // Not now, later: the product fails with the storefront's reason and is queued again after its delay.
        const message = `The storefront deferred PIM product ${item.id}: ${err.message}`;
        await mappings.saveError(this.integrationId, item.id, clip(message), now());
        await this.deps.queue?.send(
          JOB.syncProduct,
          { integrationId: this.integrationId, pimProductId: item.id, reason: 'delta' },
          { startAfter: err.retryAfterSeconds, singletonKey: `${this.integrationId}:${item.id}` },
        );
        return failure(item.id, message, err.errors);
      }
      if (err instanceof StorefrontValidationError) {
        const message = `The storefront refused PIM product ${item.id}: ${err.message}`;
        await mappings.saveError(this.integrationId, item.id, clip(message), now());
        return failure(item.id, message, err.errors);
      }
      if (err instanceof StorefrontError) {
        const message = `The storefront could not take PIM product ${item.id}: ${err.message}`;
        // The adapter has retried already; for a job the queue tries again later (a refused token is not retried).
        if (this.job && !err.tokenRefused) return this.jobFailure(item.id, message, true);
        if (err.tokenRefused) this.refused ??= `The storefront refused the shop's access token: ${err.message}`;
        await mappings.saveError(this.integrationId, item.id, clip(message), now());
        return failure(item.id, message, []);
      }
      throw err;
    }
  }

  /**
   * A job's failure: permanent ones (not retried) and the last try's transient one are written on the mapping; a
   * transient one throws TransientSyncError so the queue retries it (after the last try the job ends `failed`).
   */
  private async jobFailure(id: number, message: string, transient: boolean): Promise<PushResult> {
    if (!transient || this.job!.finalAttempt) await this.deps.mappings.saveError(this.integrationId, id, clip(message), this.deps.now());
    if (transient) throw new TransientSyncError(message);
    return failure(id, message, []);
  }
}

/** What the upsert found of the shop's locales for the product's translations, kept for GET /api/status (when it looked). */
export async function recordMissingLocales(
  repo: Pick<IntegrationRepository, 'noteMissingLocales'>,
  integrationId: number,
  product: PimProductSnapshot,
  r: ProductUpsertResult,
): Promise<void> {
  if (r.missingLocales) await repo.noteMissingLocales(integrationId, Object.keys(product.translations ?? {}), r.missingLocales);
}

/**
 * The mapping an upsert leaves. The product is on the storefront: its ids are kept whatever else happened. A step the
 * shop refused after the upsert (a publish, an image it could not process, a quantity) leaves the mapping in `error`
 * with the reason, and the PIM version is not recorded, so the next sync tries again.
 */
export function syncedMappingOf(pimProductId: number, r: ProductUpsertResult, at: Date, pimUpdatedAt: Date | null): SyncedMapping & { error: string | null } {
  const error = r.problems.length > 0 ? clip(`PIM product ${pimProductId} is on the storefront, but: ${r.problems.join('; ')}`) : null;
  return {
    storefrontProductId: r.productNumericId,
    storefrontVariantId: r.firstVariantNumericId,
    metadata: {
      storefront_handle: r.handle,
      storefront_title: r.title,
      variant_count: r.variantCount,
      image_count: r.imageCount,
      last_push_method: r.method,
      ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    },
    state: storefrontStateOf(r),
    at,
    pimUpdatedAt: error ? null : pimUpdatedAt,
    error,
  };
}

/** A snapshot's `updated_at` as the mapping's PIM version (null when it has none). */
export function pimVersion(updatedAt: unknown): Date | null {
  const ms = typeof updatedAt === 'string' ? Date.parse(updatedAt) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** What the mapping keeps of an upsert's result (KnownStorefrontProduct, read back by knownOf). */
export function storefrontStateOf(r: ProductUpsertResult): KnownStorefrontProduct {
  return {
    productId: r.productId,
    variantIds: r.variantIds,
    mediaIds: r.mediaIds,
    ...(r.imagesUnconfirmed.length > 0 ? { imagesUnconfirmed: r.imagesUnconfirmed } : {}),
    owned: r.owned,
    inventoryItemIds: r.inventoryItemIds,
    stock: r.stock,
    publications: r.publications,
    ...(r.written ? { written: r.written } : {}),
    ...(r.merchantVariants?.length ? { merchantVariants: r.merchantVariants } : {}),
  };
}

/** What a mapping knows of the storefront side (sent back to the adapter). */
export function knownOf(mapping: MappingRow | undefined): KnownStorefrontProduct {
  const s = (mapping?.storefrontState ?? {}) as Partial<KnownStorefrontProduct>;
  const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const record = (v: unknown) => (isRecord(v) ? (v as Record<string, string>) : {});
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((t) => typeof t === 'string');
  return {
    productId: typeof s.productId === 'string' ? s.productId : null,
    variantIds: record(s.variantIds),
    mediaIds: record(s.mediaIds),
    ...(strings(s.imagesUnconfirmed) ? { imagesUnconfirmed: s.imagesUnconfirmed } : {}),
    ...(isRecord(s.owned) ? { owned: s.owned as KnownStorefrontProduct['owned'] } : {}),
    ...(isRecord(s.inventoryItemIds) ? { inventoryItemIds: record(s.inventoryItemIds) } : {}),
    ...(isRecord(s.stock) ? { stock: s.stock as KnownStorefrontProduct['stock'] } : {}),
    ...(strings(s.publications) ? { publications: s.publications } : {}),
    ...(Array.isArray(s.merchantVariants) && s.merchantVariants.length > 0
      ? { merchantVariants: s.merchantVariants.filter((m) => isRecord(m) && typeof m.id === 'string' && Array.isArray(m.options)) }
      : {}),
  };
}

/** A dry run's error result: the same as a push's. */
const dryFailure = (id: number | null, message: string, validationErrors: string[]) =>
  failure(id, message, validationErrors) as Extract<PushResult, { status: 'error' }>;

const failure = (id: number | null, message: string, validationErrors: string[]): PushResult => ({
  status: 'error',
  message,
  pim_product_id: id,
  storefront_product_id: null,
  validation_errors: validationErrors,
});

/** An error message cut to what a mapping or sync log keeps. */
export const clip = (s: string) => (s.length > LOG_ERROR_MAX ? `${s.slice(0, LOG_ERROR_MAX - 1)}…` : s);

/** The sync log's error: the one reason when every failure shares it, else a count and the first reason. */
function summarise(failed: PushResult[], total: number): string | null {
  if (failed.length === 0) return null;
  const reasons = [...new Set(failed.map((f) => f.message))];
  if (reasons.length === 1 && failed.length === total) return clip(reasons[0]);
  return clip(`${failed.length} of ${total} products failed; first: ${failed[0].message}`);
}

/**
 * The body → items, in request order. No product data at all is NO_PRODUCTS, more than 50 BATCH_SIZE_EXCEEDED; an
 * item that is not a pushable product (no integer id, a malformed snapshot) is that item's error, the others still go.
 */
export function parseBody(body: unknown): (Item & { position: number })[] {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ConnectorError('NO_PRODUCTS', 'No product data provided: send a product object with an integer id, or {products: [...]}');
  }
  const obj = body as Record<string, unknown>;
  let list: unknown[];
  if ('products' in obj) {
    if (!Array.isArray(obj.products) || obj.products.length === 0) {
      throw new ConnectorError('NO_PRODUCTS', 'No product data provided: products must be a non-empty array of product objects');
    }
    list = obj.products;
  } else if (Object.keys(obj).length === 0) {
    throw new ConnectorError('NO_PRODUCTS', 'No product data provided: send a product object with an integer id, or {products: [...]}');
  } else list = [obj];
  if (list.length > MAX_PUSH_BATCH) {
    throw new ConnectorError('BATCH_SIZE_EXCEEDED', `At most ${MAX_PUSH_BATCH} products per push, got ${list.length}`);
  }
  return list.map((raw, position) => ({ ...parseItem(raw, position), position }));
}

function parseItem(raw: unknown, position: number): Item {
  const where = `product ${position + 1}`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { kind: 'invalid', id: null, errors: [`${where} must be an object with an integer id`] };
  const p = raw as Record<string, unknown>;
  if (!Number.isInteger(p.id) || (p.id as number) < 1 || (p.id as number) > MAX_PIM_ID) {
    const id = Number.isSafeInteger(p.id) ? (p.id as number) : null;
    return { kind: 'invalid', id, errors: [`${where}: id is required and must be a positive integer (the PIM product id)`] };
  }
  const id = p.id as number;
  if (Object.keys(p).length === 1) return { kind: 'read', id };
  const errors: string[] = [];
  if (typeof p.name !== 'string') errors.push(`${where}: name must be a string (a product with more fields than id is taken as the full PIM product)`);
  if (p.sku !== undefined && typeof p.sku !== 'string') errors.push(`${where}: sku must be a string`);
  if (p.variants !== undefined && !Array.isArray(p.variants)) errors.push(`${where}: variants must be an array`);
  else if (Array.isArray(p.variants)) {
    p.variants.forEach((v, i) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || typeof (v as { sku?: unknown }).sku !== 'string') {
        errors.push(`${where}: variants[${i}] must be a variant object with a string sku`);
      }
    });
  }
  for (const list of ['images', 'categories', 'warehouse_stock'] as const) {
    if (p[list] !== undefined && p[list] !== null && !Array.isArray(p[list])) errors.push(`${where}: ${list} must be an array`);
  }
  if (errors.length > 0) return { kind: 'invalid', id, errors };
  const snapshot = { ...p, id, sku: typeof p.sku === 'string' ? p.sku : '', variants: (p.variants as unknown[] | undefined) ?? [] } as PimProductSnapshot;
  if (p.warehouse_stock === null) delete snapshot.warehouse_stock;
  return { kind: 'snapshot', id, snapshot };
}

/**
 * Deleted in the shop (a products/delete webhook marked the mapping) while the integration says not to create it again
 * (recreate_deleted_products false): the reason it is not sent, for a push and for a full sync alike; else null.
 */
export function keptDeletedInShop(
  pimProductId: number,
  mapping: { storefrontProductId: number | null; metadata: unknown } | undefined,
  placement: { recreateDeletedProducts?: boolean },
): string | null {
  if (!mapping || mapping.storefrontProductId !== null || placement.recreateDeletedProducts !== false) return null;
  if (!(mapping.metadata as { deleted_in_shop?: unknown } | null)?.deleted_in_shop) return null;
  return `PIM product ${pimProductId} was deleted in the shop and recreate_deleted_products is off: not created again`;
}
