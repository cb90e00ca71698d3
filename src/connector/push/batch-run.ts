// One push's products written one by one (a batch of POST /api/products/push, or the one product of a sync.product job):
// the PIM read, the product's lease, the storefront upsert and the mapping it leaves; each product's failure is its own.
import type { JobQueue } from '../../jobs/job-types.js';
import { JOB } from '../../jobs/job-types.js';
import { StorefrontDeferredError, StorefrontError, StorefrontValidationError, tokenRefused } from '../../storefront/port/errors.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { SyncPlacement } from '../../storefront/port/placement.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import type { CategoryCollectionService } from '../collections/category-collection.service.js';
import type { IntegrationRepository } from '../integrations/integration.repository.js';
import type { MappingRepository } from '../mappings/mapping.repository.js';
import type { PimClient } from '../pim/pim-client.js';
import { PimReadError } from '../pim/pim-http.js';
import { keptDeletedInShop, knownOf, pimVersion, recordMissingLocales, syncedMappingOf } from './mapping-state.js';
import { LeaseBusyError, takeLease, type ProductLease } from './product-lease.js';
import type { Item } from './push-items.js';
import { clip, failure, type PushResult } from './push-results.js';

export interface Logger {
  error(obj: object, msg: string): void;
}

/** sync.product could not finish for a reason that may pass (PIM or storefront unavailable): the queue retries it. */
export class TransientSyncError extends Error {
  override name = 'TransientSyncError';
}

export interface BatchRunDeps {
  mappings: MappingRepository;
  pim: Pick<PimClient, 'productSnapshot' | 'productSnapshots'>;
  storefront: StorefrontPort;
  now: () => Date;
  queue: Pick<JobQueue, 'send'> | null;
  collections: Pick<CategoryCollectionService, 'placementFor'> | null | undefined;
  /** Where the locales a push found the shop lacking are kept (GET /api/status). */
  locales: Pick<IntegrationRepository, 'noteMissingLocales'>;
}

/** The state of one push: who it is for, what the mappings knew, and whether the shop has refused us already. */
export class BatchRun {
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
