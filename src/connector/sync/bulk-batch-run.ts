// One sync.bulk job's batch of a full sync: its products read from the PIM, pre-flighted and claimed, sent as one
// storefront bulk upsert (or the operation a retried job recorded, resumed), waited on, and its outcomes written.
import type { Db } from '../../db/client.js';
import { JOB } from '../../jobs/job-types.js';
import { maxOf, minOf } from '../../lib/arrays.js';
import type { BulkItemOutcome, BulkUpsertItem, BulkUpsertState } from '../../storefront/port/bulk.js';
import type { KnownStorefrontProduct } from '../../storefront/port/known-product.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { SyncPlacement } from '../../storefront/port/placement.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import { IntegrationRepository } from '../integrations/integration.repository.js';
import type { MappingRow } from '../mappings/mapping.repository.js';
import { keptDeletedInShop, knownOf, pimVersion, recordMissingLocales, syncedMappingOf } from '../push/mapping-state.js';
import { clip } from '../push/push-results.js';
import { pollUntilDone, startWhenFree } from '../storefront-operations.js';
import type { FullSyncDeps, FullSyncOptions, PimConnection } from './full-sync.deps.js';
import type { BatchRow, FullSyncRow, ItemOutcome } from './full-sync.repository.js';

/** One sync.bulk job's work on one batch: read, pre-flight, start or resume the bulk upsert, wait, write the outcome. */
export class BatchRun {
  constructor(
    private readonly service: { readonly options: Readonly<FullSyncOptions>; readonly clock: () => Date },
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
    const { repo, mappings } = this.deps;
    const integrationId = this.sync.integrationId;
    const products = await this.readProducts();
    const mapped = new Map(
      (
        await mappings.findMany(
          integrationId,
          this.batch.productIds.filter((id) => products.has(id)),
        )
      ).map((m) => [m.pimProductId, m]),
    );
    const { failures, refused, sendable } = this.preflight(products, mapped);
    // A product deleted in the shop that the integration keeps deleted is not sent (as a push would not send it).
    const placement = await this.placement(sendable);
    for (const product of [...sendable]) {
      const kept = keptDeletedInShop(product.id, mapped.get(product.id), placement);
      if (!kept) continue;
      failures.push({ pimProductId: product.id, status: 'failed', error: kept });
      sendable.splice(sendable.indexOf(product), 1);
    }
    const claimed = await this.claim(failures, refused, sendable, mapped);
    if (claimed.size < sendable.length) this.deps.queue.wake?.(JOB.syncProduct);
    this.deps.metrics?.productsSynced(integrationId, 'bulk', 0, failures.length);
    const sent = sendable.filter((p) => claimed.has(p.id));
    if (sent.length === 0) return null;
    const items = await this.itemsToSend(sent, mapped, placement);
    const operationId = await this.startBulk(items);
    await repo.setBatch(this.batch.id, { operationId, status: 'running', error: null }, this.service.clock());
    this.batch = { ...this.batch, operationId, status: 'running' };
    return { operationId, items };
  }

  /** The batch's products the storefront's pre-flight refuses (and those the PIM lacks), and the rest, to send. */
  private preflight(products: Map<number, PimProductSnapshot>, mapped: Map<number, MappingRow>) {
    const failures: ItemOutcome[] = [];
    const refused: { id: number; message: string }[] = [];
    const sendable: PimProductSnapshot[] = [];
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
    return { failures, refused, sendable };
  }

  /**
   * In one transaction: the items' outcomes so far, pending mappings, and the claim on the products sent (those another
   * writer holds are queued for a sync.product instead). The claimed products' ids.
   */
  private async claim(
    failures: ItemOutcome[],
    refused: { id: number; message: string }[],
    sendable: PimProductSnapshot[],
    mapped: Map<number, MappingRow>,
  ): Promise<Set<number>> {
    const { db, repo, mappings } = this.deps;
    const integrationId = this.sync.integrationId;
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
    return claimed;
  }

  /** The bulk upsert's items: each product with what its mapping knows (as the claim found it) and the placement. */
  private async itemsToSend(sent: PimProductSnapshot[], mapped: Map<number, MappingRow>, placement: SyncPlacement): Promise<BulkUpsertItem[]> {
    const { mappings } = this.deps;
    const integrationId = this.sync.integrationId;
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
    return sent.map((product) => {
      const row = current.get(product.id);
      return { product, known: row && (mapped.has(product.id) || row.storefrontProductId !== null) ? knownOf(row) : known(undefined), placement };
    });
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
