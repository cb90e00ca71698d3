// A product's history: reading it with the keys' names, and "restore this version" (the product's own fields put back
// as they were right after a change, through the product write, which records the restore itself).
import type { ApiKeyRepository } from '../../admin/api-key.repository.js';
import { AppError, notFound } from '../../http/errors.js';
import type { ProductView } from '../products/product.schemas.js';
import type { ProductService } from '../products/product.service.js';
import type { StockService } from '../stock/stock.service.js';
import type { Actor, HistoryRepository } from './history.repository.js';
import { SNAPSHOT_FIELDS, type Snapshot } from './history-snapshot.js';
import type { HistoryQueryInput, ProductHistoryView } from './history.schemas.js';

export interface HistoryServiceDeps {
  history: HistoryRepository;
  products: ProductService;
  stock: StockService;
  /** The admin API's keys: their names, which the history shows beside their ids. */
  keys: Pick<ApiKeyRepository, 'namesOf'>;
}

export class HistoryService {
  constructor(private readonly deps: HistoryServiceDeps) {}

  async list(organizationId: number, productId: number, q: HistoryQueryInput): Promise<ProductHistoryView> {
    await this.deps.products.getJson(organizationId, productId); // 404 for another organization's product
    const { changes, total } = await this.deps.history.list(organizationId, productId, { limit: q.limit, offset: (q.page - 1) * q.limit });
    const keyIds = [...new Set(changes.flatMap((c) => (c.actor_key_id === null ? [] : [c.actor_key_id])))];
    const names = await this.deps.keys.namesOf(organizationId, keyIds);
    return {
      changes: changes.map((c) => ({
        id: c.id,
        created_at: c.created_at,
        action: c.action,
        who: {
          kind: c.actor_kind,
          key_id: c.actor_key_id,
          key_name: c.actor_key_id === null ? null : (names.get(c.actor_key_id) ?? null),
          label: c.actor_label,
        },
        changes: c.changes,
        restored_from: c.restored_from,
      })),
      pagination: { current_page: q.page, total_pages: Math.ceil(total / q.limit), total_items: total, items_per_page: q.limit },
    };
  }

  /**
   * Puts the product's own fields back as they were right after change `changeId`: one product write of the fields
   * that differ now, recorded as `restored`. Stock is left as it is when the product has stock per warehouse (it is
   * their sum then). A reference that no longer exists (a deleted brand or category) is a 400, nothing written.
   */
  async restore(organizationId: number, productId: number, changeId: number, actor: Actor): Promise<ProductView> {
    const change = await this.deps.history.find(organizationId, productId, changeId);
    if (change === null) {
      await this.deps.products.getJson(organizationId, productId);
      throw notFound(`Change ${changeId} of product ${productId} not found`);
    }
    const current = (await this.deps.history.snapshots(organizationId, [productId])).get(productId);
    if (current === undefined) throw notFound(`Product ${productId} not found`);
    const patch = await this.patchTo(productId, current, change.snapshot);
    if (Object.keys(patch).length === 0) return this.deps.products.get(organizationId, productId);
    return this.deps.products.update(organizationId, productId, patch as never, { actor, restoredFrom: change.id });
  }

  /** The product write that turns `current` into `target`: the fields that differ (attributes key by key). */
  private async patchTo(productId: number, current: Snapshot, target: Snapshot): Promise<Record<string, unknown>> {
    const patch: Record<string, unknown> = {};
    // The product's own fields only: images, stock levels and variants are shown in the history, not put back.
    for (const field of SNAPSHOT_FIELDS) {
      if (field in target && JSON.stringify(target[field]) !== JSON.stringify(current[field])) patch[field] = target[field];
    }
    if (patch.attributes !== undefined) {
      const wanted = (target.attributes ?? {}) as Record<string, unknown>;
      const removed = Object.keys((current.attributes ?? {}) as Record<string, unknown>).filter((k) => !(k in wanted));
      const differing = Object.entries(wanted).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify((current.attributes as Record<string, unknown>)[k]));
      patch.attributes = { ...Object.fromEntries(differing), ...Object.fromEntries(removed.map((k) => [k, null])) };
      if (Object.keys(patch.attributes as object).length === 0) delete patch.attributes;
    }
    if (patch.stock !== undefined) {
      try {
        await this.deps.stock.checkDirectStockWrite(productId);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        delete patch.stock;
      }
    }
    return patch;
  }
}
