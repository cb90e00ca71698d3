// Bulk changes of products (the workbench's bulk actions): one action over products named by id or matched by the
// list's filters, in one transaction, kept with the values it replaced so that it can be undone once, for UNDO_DAYS.
// Each product changed (or put back) is in its history.
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { Snapshot } from '../history/history-snapshot.js';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { PUBLISHING_CHANNELS } from '../pim.schemas.js';
import type { ProductFilters } from '../products/product.repository.js';
import { PRODUCT_STATUSES } from '../products/product.schemas.js';
import type { BulkRepository, PreviousValue } from './bulk.repository.js';
import { MAX_BULK_PRODUCTS, type BulkAction, type BulkBodyInput, type BulkResultView } from './bulk.schemas.js';

/** How long a bulk change can be undone: each new one forgets the organization's older ones. */
export const UNDO_DAYS = 30;

const COLUMN_ACTIONS = new Set<BulkAction>(['set_status', 'add_channel', 'remove_channel', 'set_brand', 'archive']);

export class BulkService {
  constructor(
    private readonly db: Db,
    private readonly bulk: BulkRepository,
    private readonly history: HistoryRepository,
  ) {}

  async apply(organizationId: number, body: BulkBodyInput, actor: Actor): Promise<BulkResultView> {
    const filters = targetFilters(body);
    const value = await this.checkedValue(organizationId, body.action, body.value);
    return this.db.transaction(async (tx) => {
      const repo = this.bulk.with(tx);
      const ids = await repo.lockTargets(organizationId, filters, MAX_BULK_PRODUCTS + 1);
      if (ids.length > MAX_BULK_PRODUCTS) {
        throw badRequest(`the filter matches more than ${MAX_BULK_PRODUCTS} products; narrow it to change them in one go`);
      }
      const history = this.history.with(tx);
      const before = await history.snapshots(organizationId, ids);
      let previous: PreviousValue[] = [];
      if (ids.length > 0 && COLUMN_ACTIONS.has(body.action)) previous = await repo.applyColumn(organizationId, ids, body.action, value);
      else if (ids.length > 0) previous = (await repo.changeCategory(ids, value as number, body.action === 'add_category')).map((id) => ({ id }));
      await recordIn(history, organizationId, before, previous, actor);
      const id = await repo.insertChange(organizationId, body.action, value, previous);
      await repo.forgetOlderThan(organizationId, UNDO_DAYS);
      return { id, action: body.action, matched: ids.length, changed: previous.length, product_ids: previous.map((p) => p.id), undone: false };
    });
  }

  /** Puts back what the bulk change replaced, once; a later edit of the same field is overwritten by the old value. */
  async undo(organizationId: number, id: number, actor: Actor): Promise<BulkResultView> {
    return this.db.transaction(async (tx) => {
      const repo = this.bulk.with(tx);
      const change = await repo.lockChange(organizationId, id);
      if (!change) throw notFound(`Bulk change ${id} not found (bulk changes can be undone for ${UNDO_DAYS} days)`);
      if (change.undone) throw badRequest(`bulk change ${id} was undone already`);
      const previous = change.previous;
      const history = this.history.with(tx);
      const before = await history.snapshots(
        organizationId,
        previous.map((p) => p.id),
      );
      if (COLUMN_ACTIONS.has(change.action)) await repo.restoreColumn(organizationId, change.action, previous);
      else
        await repo.restoreCategory(
          organizationId,
          previous.map((p) => p.id),
          change.value as number,
          change.action === 'add_category',
        );
      await recordIn(history, organizationId, before, previous, actor);
      await repo.markUndone(id);
      const ids = previous.map((p) => p.id);
      return { id, action: change.action, matched: ids.length, changed: ids.length, product_ids: ids, undone: true };
    });
  }

  /** The action's value, checked: a status, a channel, a category or brand of the organization (or no brand). */
  private async checkedValue(organizationId: number, action: BulkAction, value: unknown): Promise<unknown> {
    const need = (ok: boolean, what: string) => {
      if (!ok) throw badRequest(`field 'value' must be ${what} for action '${action}'`);
    };
    switch (action) {
      case 'archive':
        need(value === undefined || value === null, 'absent');
        return null;
      case 'set_status':
        need(typeof value === 'string' && (PRODUCT_STATUSES as readonly string[]).includes(value), `one of ${PRODUCT_STATUSES.join(', ')}`);
        return value;
      case 'add_channel':
      case 'remove_channel':
        need(typeof value === 'string' && (PUBLISHING_CHANNELS as readonly string[]).includes(value), `one of ${PUBLISHING_CHANNELS.join(', ')}`);
        return value;
      case 'add_category':
      case 'remove_category':
        need(typeof value === 'number', 'a category id');
        if (!(await this.bulk.categoryExists(organizationId, value as number))) throw badRequest(`Unknown references: category ${value}`);
        return value;
      case 'set_brand':
        need(value === null || typeof value === 'number', 'a brand id or null');
        if (value !== null && !(await this.bulk.brandExists(organizationId, value as number))) throw badRequest(`Unknown references: brand_id ${value}`);
        return value;
    }
  }
}

/** `ids` or `filter`, exactly one, as the list's filters. */
function targetFilters(body: BulkBodyInput): ProductFilters {
  if ((body.ids === undefined) === (body.filter === undefined)) throw badRequest(`the body must carry either 'ids' or 'filter'`);
  if (body.ids) return { ids: body.ids };
  const f = body.filter ?? {};
  return { search: f.search?.trim() || undefined, status: f.status, brandId: f.brand, channel: f.channel, categoryId: f.category };
}

/** The products a bulk change wrote, in their history: their fields now against `before`. */
async function recordIn(history: HistoryRepository, organizationId: number, before: Map<number, Snapshot>, changed: { id: number }[], actor: Actor) {
  await history.record(
    organizationId,
    changed.map((p) => ({ productId: p.id, before: before.get(p.id) ?? null })),
    actor,
  );
}
