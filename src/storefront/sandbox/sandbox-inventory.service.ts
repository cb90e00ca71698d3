// Inventory as Shopify's Admin API 2026-10 keeps it (the sandbox's one count per location is `available`; `on_hand`
// follows it). The rules, each from the schema's own text or shopify.dev:
// - an item has quantities only where it is stocked (an inventory level exists); `inventoryActivate` stocks it
//   ("Activates an inventory item at a Location by creating an InventoryLevel", schema Mutation.inventoryActivate);
//   setting or adjusting where it is not stocked is refused (INVALID_LOCATION);
// - `changeFromQuantity` is a compare-and-swap: "If the location's current quantity doesn't match the value you provide,
//   then the mutation fails with a CHANGE_FROM_QUANTITY_STALE error" (schema InventoryQuantityInput / InventoryChangeInput);
//   the whole call is refused, nothing of it applied;
// - quantities can't be negative when set (INVALID_QUANTITY_NEGATIVE) and stay within ±1,000,000,000;
// - `reason` is one of Shopify's documented reasons (shopify.dev, "Inventory quantities and states",
//   https://shopify.dev/docs/apps/build/orders-fulfillment/inventory-management-apps/manage-quantities-states);
// - from 2026-04 the three mutations need `@idempotent(key:)`: "calling these mutations without an idempotency directive
//   will result in an error at runtime" (https://shopify.dev/changelog/making-idempotency-mandatory-for-inventory-adjustments-and-refund-mutations);
//   a key seen again answers what it answered the first time, without applying anything again; the same key with other
//   parameters is IDEMPOTENCY_KEY_PARAMETER_MISMATCH (both user error enums).
import type { Db } from '../../db/client.js';
import type { SandboxInventoryRepository } from './sandbox-inventory.repository.js';
import { gidNumber } from './sandbox-product.service.js';

export interface InventoryUserError {
  field: string[] | null;
  message: string;
  code?: string;
}

/** Shopify's reasons for a quantity change (shopify.dev, manage quantities and states). */
export const INVENTORY_REASONS = new Set([
  'correction', 'cycle_count_available', 'damaged', 'movement_created', 'movement_updated', 'movement_received', 'movement_canceled',
  'other', 'promotion', 'quality_control', 'received', 'reservation_created', 'reservation_deleted', 'reservation_updated',
  'restock', 'safety_stock', 'shrinkage',
]);

const LIMIT = 1_000_000_000;

interface QuantityChange {
  itemId: number;
  locationId: number;
  /** The new count (set) or the delta (adjust). */
  value: number;
  changeFromQuantity: number | null | undefined;
  at: string[];
}

export class SandboxInventoryService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxInventoryRepository,
    private readonly hasLocation: (storeId: number, id: number) => Promise<boolean>,
  ) {}

  /**
   * Runs a mutation once per idempotency key, in one transaction with its writes (the stored answer for a key seen
   * before). `run` gets the transaction's repository and writes nothing when it refuses.
   */
  async once<T>(storeId: number, field: string, key: string, params: unknown, run: (repo: SandboxInventoryRepository) => Promise<T>, mismatch: (message: string) => T): Promise<T> {
    const fingerprint = JSON.stringify(params);
    return this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx as unknown as Db);
      await repo.lock(`sandbox-idempotency:${storeId}:${key}`);
      const seen = await repo.idempotent(storeId, key);
      if (seen) {
        if (seen.field !== field || seen.response.params !== fingerprint) return mismatch('The same idempotency key cannot be used with different operation parameters.');
        return seen.response.payload as T;
      }
      const payload = await run(repo);
      await repo.remember(storeId, key, field, fingerprint, payload);
      return payload;
    });
  }

  /** inventorySetQuantities: absolute counts, each with its compare-and-swap; all or nothing. */
  setQuantities(repo: SandboxInventoryRepository, storeId: number, input: { name: string; reason: string; quantities: { inventoryItemId: string; locationId: string; quantity: number; changeFromQuantity?: number | null }[] }, ignoreCompare: boolean) {
    return this.change(repo, storeId, 'set', input.name, input.reason, input.quantities.map((q, i) => ({ gidItem: q.inventoryItemId, gidLocation: q.locationId, value: q.quantity, changeFromQuantity: ignoreCompare ? null : q.changeFromQuantity, at: ['input', 'quantities', String(i)] })));
  }

  /** inventoryAdjustQuantities: deltas, each with an optional compare-and-swap; all or nothing. */
  adjustQuantities(repo: SandboxInventoryRepository, storeId: number, input: { name: string; reason: string; changes: { inventoryItemId: string; locationId: string; delta: number; changeFromQuantity?: number | null }[] }) {
    return this.change(repo, storeId, 'adjust', input.name, input.reason, input.changes.map((c, i) => ({ gidItem: c.inventoryItemId, gidLocation: c.locationId, value: c.delta, changeFromQuantity: c.changeFromQuantity, at: ['input', 'changes', String(i)] })));
  }

  /** inventoryActivate: stocks the item at the location (available and on hand default to 0); already stocked: kept. */
  async activate(repo: SandboxInventoryRepository, storeId: number, gidItem: string, gidLocation: string, available: number | null | undefined): Promise<{ itemId: number; locationId: number } | InventoryUserError[]> {
    const itemId = gidNumber(gidItem, 'InventoryItem');
    const locationId = gidNumber(gidLocation, 'Location');
    if (locationId === null || !(await this.hasLocation(storeId, locationId))) return [{ field: ['locationId'], message: 'The location could not be found.' }];
    const stock = itemId === null ? null : await repo.lockedStock(storeId, itemId);
    if (!stock || itemId === null) return [{ field: ['inventoryItemId'], message: 'The inventory item could not be found.' }];
    if (!(String(locationId) in stock)) await repo.setStock(itemId, { ...stock, [String(locationId)]: Math.max(0, available ?? 0) });
    return { itemId, locationId };
  }

  private async change(repo: SandboxInventoryRepository, storeId: number, kind: 'set' | 'adjust', name: string, reason: string, raw: { gidItem: string; gidLocation: string; value: number; changeFromQuantity: number | null | undefined; at: string[] }[]): Promise<InventoryUserError[]> {
    const errors: InventoryUserError[] = [];
    if (name !== 'available' && name !== 'on_hand') errors.push({ field: ['input', 'name'], message: "The quantity name must be either 'available' or 'on_hand'.", code: kind === 'set' ? 'INVALID_NAME' : 'INVALID_QUANTITY_NAME' });
    if (!INVENTORY_REASONS.has(reason)) errors.push({ field: ['input', 'reason'], message: `The specified reason '${reason}' is invalid.`, code: 'INVALID_REASON' });
    const changes: QuantityChange[] = [];
    for (const r of raw) {
      const itemId = gidNumber(r.gidItem, 'InventoryItem');
      const locationId = gidNumber(r.gidLocation, 'Location');
      if (itemId === null) errors.push({ field: [...r.at, 'inventoryItemId'], message: 'The specified inventory item could not be found.', code: 'INVALID_INVENTORY_ITEM' });
      else if (locationId === null || !(await this.hasLocation(storeId, locationId))) errors.push({ field: [...r.at, 'locationId'], message: 'The specified location could not be found.', code: 'INVALID_LOCATION' });
      else changes.push({ itemId, locationId, value: r.value, changeFromQuantity: r.changeFromQuantity, at: r.at });
    }
    if (errors.length) return errors;
    const stocks = new Map<number, Record<string, number>>();
    // Items locked in id order: two calls touching the same items never deadlock.
    for (const id of [...new Set(changes.map((c) => c.itemId))].sort((a, b) => a - b)) {
      const stock = await repo.lockedStock(storeId, id);
      if (stock) stocks.set(id, { ...stock });
    }
    const refused: InventoryUserError[] = [];
    for (const c of changes) {
      const stock = stocks.get(c.itemId);
      if (!stock) {
        refused.push({ field: [...c.at, 'inventoryItemId'], message: 'The specified inventory item could not be found.', code: 'INVALID_INVENTORY_ITEM' });
        continue;
      }
      const current = stock[String(c.locationId)];
      if (current === undefined) {
        refused.push({ field: [...c.at, 'locationId'], message: 'The inventory item is not stocked at the location: activate it there first (inventoryActivate).', code: 'INVALID_LOCATION' });
        continue;
      }
      if (c.changeFromQuantity !== null && c.changeFromQuantity !== undefined && c.changeFromQuantity !== current) {
        refused.push({ field: [...c.at, 'changeFromQuantity'], message: `The quantity at the location is ${current}, not ${c.changeFromQuantity}.`, code: 'CHANGE_FROM_QUANTITY_STALE' });
        continue;
      }
      const next = kind === 'set' ? c.value : current + c.value;
      if (kind === 'set' && next < 0) refused.push({ field: [...c.at, 'quantity'], message: "The quantity can't be negative.", code: 'INVALID_QUANTITY_NEGATIVE' });
      else if (next > LIMIT) refused.push({ field: c.at, message: "The total quantity can't be higher than 1,000,000,000.", code: 'INVALID_QUANTITY_TOO_HIGH' });
      else if (next < -LIMIT) refused.push({ field: c.at, message: "The total quantity can't be lower than -1,000,000,000.", code: 'INVALID_QUANTITY_TOO_LOW' });
      else stock[String(c.locationId)] = next;
    }
    // All or nothing: one refused change and none is written.
    if (refused.length) return refused;
    for (const [id, stock] of stocks) await repo.setStock(id, stock);
    return [];
  }
}
