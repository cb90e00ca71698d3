// POST /api/products/push: a product or a batch of ≤ 50 goes to the integration's storefront, one StorefrontPort upsert
// per product, with the product mapping kept in step and one sync log per push. Expected per-product outcomes (a PIM
// product not found, the storefront's validation errors) are result values, never exceptions; only a failure of the
// whole request (no product data, too many, our own database) is an error envelope. No transaction is held across an
// outbound call: the PIM read and the storefront upsert run between short writes.
import type { Db } from '../../db/client.js';
import { StorefrontError } from '../../storefront/port/errors.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { SyncPlacement } from '../../storefront/port/placement.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import { JOB, type JobQueue, type SyncProductJob } from '../../jobs/job-types.js';
import { AdoptionRepository } from '../adopt/adoption.repository.js';
import { ConnectorError } from '../connector.errors.js';
import type { IntegrationSettingsService } from '../integrations/integration-settings.service.js';
import type { IntegrationService } from '../integrations/integration.service.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import type { MappingRepository } from '../mappings/mapping.repository.js';
import type { PimClient } from '../pim/pim-client.js';
import { PimReadError } from '../pim/pim-http.js';
import type { SyncLogRepository, SyncOutcome } from './sync-log.repository.js';
import { mapLimit } from '../../lib/map-limit.js';
import { BatchRun, type BatchRunDeps, type Logger, TransientSyncError } from './batch-run.js';
import { knownOf } from './mapping-state.js';
import { type Item, parseBody } from './push-items.js';
import { type DryRunResult, dryFailure, type PushResult, summarise } from './push-results.js';
import type { SyncRecorder } from '../../lib/metrics.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';

/**
 * Products of one batch pushed at the same time; the adapter's per-shop throttle paces the storefront calls, so this
 * only bounds the round trips in flight (PIM reads and productSet calls; 8 keeps a 50-product push within ~7 rounds).
 */
export const PUSH_CONCURRENCY = 8;
/** A sync.product that finds an adoption of its integration open is put back this long (the adoption holds the sync). */
export const ADOPTION_WAIT_SECONDS = 5;

/** A `running` sync log older than this belongs to a push whose process ended; the next push closes it as `error`. */
const ABANDONED_AFTER_MS = 30 * 60_000;

/** The sync log operation of a dry run (POST /api/products/push?dry_run=true). */
export const DRY_RUN_OPERATION = 'products.push.dry_run';

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

/** How one sync.product ended (a transient failure throws TransientSyncError instead). */
export type SyncProductOutcome =
  | { status: 'synced'; method: 'create' | 'update'; storefrontProductId: number }
  | { status: 'failed'; error: string }
  /** The integration is gone or inactive: nothing was done. */
  | { status: 'skipped'; reason: string }
  /** An adoption of the integration is open: nothing was done, the job is queued again for later. */
  | { status: 'deferred'; reason: string };

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
    const ready = await this.readyToPreview(conn, items, snapshots, results);
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
   * The dry run's products with their snapshots, in request order; an item that cannot be previewed (invalid, a repeat,
   * not readable in the PIM) gets its result here instead.
   */
  private async readyToPreview(
    conn: { baseUrl: string; apiKey: string },
    items: (Item & { position: number })[],
    snapshots: Map<number, PimProductSnapshot>,
    results: (DryRunResult | null)[],
  ): Promise<{ index: number; id: number; snapshot: PimProductSnapshot }[]> {
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
    return ready;
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
