// Inventory as Shopify's Admin API 2026-10 keeps it (the sandbox's one count per location is `available`; `on_hand`
// follows it). The rules, each from the schema's own text or shopify.dev:
// - an item is stocked at a location when it has an active inventory level there; `inventoryActivate` makes one
//   ("Activates an inventory item at a Location by creating an InventoryLevel", schema Mutation.inventoryActivate);
// - setting or adjusting where the item is not stocked is no error in 2026-10: "The ITEM_NOT_STOCKED_AT_LOCATION error
//   will be removed [...] as of API version 2026-10 [...] inventory quantities can now be adjusted at any location"
//   (https://shopify.dev/changelog/removal-of-itemnotstockedatlocation-error); the quantity lands on an inactive level,
//   which "can be adjusted just like active ones" and is listed only with `includeInactive: true`
//   (https://shopify.dev/changelog/add-isactive-field-to-inventorylevel); it is not sellable until activated;
// - `changeFromQuantity` is a compare-and-swap: "If the location's current quantity doesn't match the value you provide,
//   then the mutation fails with a CHANGE_FROM_QUANTITY_STALE error" (schema InventoryQuantityInput /
//   InventoryChangeInput); the whole call is refused, nothing of it applied. `null` skips the check; leaving the field
//   out is an error ("This field is mandatory: you must explicitly pass in a value, even if that value is `null`",
//   schema InventoryQuantityInput.changeFromQuantity; for adjustments too from 2026-04: "calling these mutations
//   without passing in null or passing in the current actual quantity will result in an error at runtime",
//   https://shopify.dev/changelog/making-changefromquantity-field-required);
// - set quantities can't be negative (INVALID_QUANTITY_NEGATIVE) and stay within ±1,000,000,000; adjusted ones within
//   ±2,000,000,000 (the two user-error enums' texts); one item and location once per set call
//   (NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR);
// - `reason` is one of Shopify's documented reasons (shopify.dev, "Inventory quantities and states",
//   https://shopify.dev/docs/apps/build/orders-fulfillment/inventory-management-apps/manage-quantities-states);
// - from 2026-04 the three mutations need `@idempotent(key:)`: "calling these mutations without an idempotency directive
//   will result in an error at runtime" (https://shopify.dev/changelog/making-idempotency-mandatory-for-inventory-adjustments-and-refund-mutations);
//   a key seen again "will return the result of the original operation instead of creating a new one" (same page),
//   applying nothing again; the same key with other parameters is IDEMPOTENCY_KEY_PARAMETER_MISMATCH (both enums).
// Each call is one transaction holding the product's row lock (the key productSet and merchant edits take, so a sync
// never writes back a count read before a sale) and the item rows' locks, taken in id order.
import { randomInt } from 'node:crypto';
import type { Db } from '../db/client.js';
import type { SandboxInventoryRepository } from './sandbox-inventory.repository.js';
import { gidNumber } from './gid.js';

export interface InventoryUserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

/** Shopify's reasons for a quantity change (shopify.dev, manage quantities and states). */
export const INVENTORY_REASONS = new Set([
  'correction',
  'cycle_count_available',
  'damaged',
  'movement_created',
  'movement_updated',
  'movement_received',
  'movement_canceled',
  'other',
  'promotion',
  'quality_control',
  'received',
  'reservation_created',
  'reservation_deleted',
  'reservation_updated',
  'restock',
  'safety_stock',
  'shrinkage',
]);

/**
 * sandbox_variants.inventory keeps one count per level: the key of a location id is an active level (the item is
 * stocked there), `inactive:<location id>` a level that holds a quantity without being stocked.
 */
const INACTIVE = 'inactive:';

export interface LevelValue {
  locationId: number;
  quantity: number;
  active: boolean;
}

/** The item's inventory levels (active and inactive) from its stored counts. */
export function inventoryLevels(inventory: Record<string, number>): LevelValue[] {
  return Object.entries(inventory).map(([key, quantity]) =>
    key.startsWith(INACTIVE)
      ? { locationId: Number(key.slice(INACTIVE.length)), quantity, active: false }
      : { locationId: Number(key), quantity, active: true },
  );
}

/** What the item can sell: the sum over its active levels (ProductVariant.inventoryQuantity, "The total sellable quantity"). */
export function sellableQuantity(inventory: Record<string, number>): number {
  return inventoryLevels(inventory).reduce((sum, l) => (l.active ? sum + l.quantity : sum), 0);
}

/** One quantity change as InventoryAdjustmentGroup.changes answers it. */
export interface RecordedChange {
  itemId: number;
  locationId: number;
  name: string;
  delta: number;
  quantityAfterChange: number;
}

/** What a mutation answered, stored under its idempotency key and answered again for the same key. */
export interface InventoryOutcome {
  userErrors: InventoryUserError[];
  group: { id: string; createdAt: string; changes: RecordedChange[] } | null;
}

const SET_LIMIT = 1_000_000_000;
const ADJUST_LIMIT = 2_000_000_000;

interface RawChange {
  gidItem: string;
  gidLocation: string;
  /** The new count (set) or the delta (adjust). */
  value: number;
  /** `undefined`: the field was left out (an error); `null`: no compare-and-swap. */
  changeFromQuantity: number | null | undefined;
  at: string[];
}

interface QuantityChange extends RawChange {
  itemId: number;
  locationId: number;
}

export class SandboxInventoryService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxInventoryRepository,
  ) {}

  /**
   * Runs a mutation once per idempotency key, in one transaction with its writes (the stored answer for a key seen
   * before). `run` gets the transaction's repository and writes nothing when it refuses.
   */
  async once<T>(
    storeId: number,
    field: string,
    key: string,
    params: unknown,
    run: (repo: SandboxInventoryRepository) => Promise<T>,
    mismatch: (message: string) => T,
  ): Promise<T> {
    const fingerprint = JSON.stringify(params);
    return this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx);
      await repo.lock(`sandbox-idempotency:${storeId}:${key}`);
      const seen = await repo.idempotent(storeId, key);
      if (seen) {
        if (seen.field !== field || seen.response.params !== fingerprint)
          return mismatch('The same idempotency key cannot be used with different operation parameters.');
        return seen.response.payload as T;
      }
      const payload = await run(repo);
      await repo.remember(storeId, key, field, fingerprint, payload);
      return payload;
    });
  }

  /** inventorySetQuantities: absolute counts, each with its compare-and-swap; all or nothing. */
  setQuantities(
    repo: SandboxInventoryRepository,
    storeId: number,
    input: {
      name: string;
      reason: string;
      quantities: { inventoryItemId: string; locationId: string; quantity: number; changeFromQuantity?: number | null }[];
    },
  ): Promise<InventoryOutcome> {
    return this.change(
      repo,
      storeId,
      'set',
      input.name,
      input.reason,
      input.quantities.map((q, i) => ({
        gidItem: q.inventoryItemId,
        gidLocation: q.locationId,
        value: q.quantity,
        changeFromQuantity: q.changeFromQuantity,
        at: ['input', 'quantities', String(i)],
      })),
    );
  }

  /** inventoryAdjustQuantities: deltas, each with its compare-and-swap; all or nothing. */
  adjustQuantities(
    repo: SandboxInventoryRepository,
    storeId: number,
    input: { name: string; reason: string; changes: { inventoryItemId: string; locationId: string; delta: number; changeFromQuantity?: number | null }[] },
  ): Promise<InventoryOutcome> {
    return this.change(
      repo,
      storeId,
      'adjust',
      input.name,
      input.reason,
      input.changes.map((c, i) => ({
        gidItem: c.inventoryItemId,
        gidLocation: c.locationId,
        value: c.delta,
        changeFromQuantity: c.changeFromQuantity,
        at: ['input', 'changes', String(i)],
      })),
    );
  }

  /**
   * inventoryActivate: stocks the item at the location. The count is `available` (or `onHand`: the sandbox keeps one
   * count), else what an inactive level there held ("will preserve the pre-activation quantities",
   * https://shopify.dev/changelog/inventoryactivate-now-preserves-available-quantity), else 0 ("If you don't specify
   * quantities, then `available` and `onHand` default to zero", schema Mutation.inventoryActivate). Already stocked:
   * kept as it is (setting `available` on an active level is deprecated in favour of inventorySetQuantities,
   * https://shopify.dev/changelog/deprecating-the-ability-to-set-available-quantities-on-already-active-states-on-the-inventoryactivate-graphql-mutation).
   */
  async activate(
    repo: SandboxInventoryRepository,
    storeId: number,
    gidItem: string,
    gidLocation: string,
    available: number | null | undefined,
    onHand: number | null | undefined,
  ): Promise<{ itemId: number; locationId: number } | InventoryUserError[]> {
    const itemId = gidNumber(gidItem, 'InventoryItem');
    const locationId = gidNumber(gidLocation, 'Location');
    if (locationId === null || !(await repo.locationIds(storeId)).has(locationId))
      return [{ field: ['locationId'], message: 'The location could not be found.' }];
    const productId = itemId === null ? undefined : (await repo.productsOf(storeId, [itemId])).get(itemId);
    if (itemId === null || productId === undefined) return [{ field: ['inventoryItemId'], message: 'The inventory item could not be found.' }];
    await repo.lock(`sandbox-product:${storeId}:row:${productId}`);
    const stock = await repo.lockedStock(storeId, itemId);
    if (!stock) return [{ field: ['inventoryItemId'], message: 'The inventory item could not be found.' }];
    const key = String(locationId);
    if (!(key in stock)) {
      const { [INACTIVE + key]: held, ...rest } = stock;
      await repo.setStock(itemId, { ...rest, [key]: available ?? onHand ?? held ?? 0 });
    }
    return { itemId, locationId };
  }

  private async change(
    repo: SandboxInventoryRepository,
    storeId: number,
    kind: 'set' | 'adjust',
    name: string,
    reason: string,
    raw: RawChange[],
  ): Promise<InventoryOutcome> {
    const refuse = (userErrors: InventoryUserError[]): InventoryOutcome => ({ userErrors, group: null });
    const locations = await repo.locationIds(storeId);
    const { errors, changes } = checkChanges(kind, name, reason, raw, locations);
    if (errors.length) return refuse(errors);
    const stocks = await this.lockStocks(repo, storeId, changes);
    const { refused, recorded } = applyChanges(kind, name, changes, stocks);
    // All or nothing: one refused change and none is written.
    if (refused.length) return refuse(refused);
    for (const [id, stock] of stocks) await repo.setStock(id, stock);
    return {
      userErrors: [],
      group: { id: `gid://shopify/InventoryAdjustmentGroup/${randomInt(1, 2 ** 47)}`, createdAt: new Date().toISOString(), changes: recorded },
    };
  }

  /** The items' stock rows, locked: the products' row locks, then the items' rows, each in id order. */
  private async lockStocks(repo: SandboxInventoryRepository, storeId: number, changes: QuantityChange[]): Promise<Map<number, Record<string, number>>> {
    // In id order: two calls never wait on each other in a circle.
    const products = await repo.productsOf(storeId, [...new Set(changes.map((c) => c.itemId))]);
    for (const productId of [...new Set(products.values())].sort((a, b) => a - b)) await repo.lock(`sandbox-product:${storeId}:row:${productId}`);
    const stocks = new Map<number, Record<string, number>>();
    for (const id of [...products.keys()].sort((a, b) => a - b)) {
      const stock = await repo.lockedStock(storeId, id);
      if (stock) stocks.set(id, { ...stock });
    }
    return stocks;
  }
}

/** The changes checked before anything is locked: the quantity name, the reason, each item and location. */
function checkChanges(
  kind: 'set' | 'adjust',
  name: string,
  reason: string,
  raw: RawChange[],
  locations: Set<number>,
): { errors: InventoryUserError[]; changes: QuantityChange[] } {
  const errors: InventoryUserError[] = [];
  // InventorySetQuantitiesInput.name: "The only accepted values are: `available` or `on_hand`". Adjustments of other
  // names (damaged, reserved, …) are not emulated: the sandbox keeps one count.
  if (name !== 'available' && name !== 'on_hand')
    errors.push({
      field: ['input', 'name'],
      message: "The quantity name must be either 'available' or 'on_hand'.",
      code: kind === 'set' ? 'INVALID_NAME' : 'INVALID_QUANTITY_NAME',
    });
  if (!INVENTORY_REASONS.has(reason))
    errors.push({ field: ['input', 'reason'], message: `The specified reason '${reason}' is invalid.`, code: 'INVALID_REASON' });
  const changes: QuantityChange[] = [];
  const pairs = new Set<string>();
  for (const r of raw) {
    if (r.changeFromQuantity === undefined) {
      // COMPARE_QUANTITY_REQUIRED is the set enum's code for a compare value not given; the adjust enum has none.
      errors.push({
        field: [...r.at, 'changeFromQuantity'],
        message: 'changeFromQuantity must be given: the expected current quantity, or null to skip the check.',
        code: kind === 'set' ? 'COMPARE_QUANTITY_REQUIRED' : null,
      });
      continue;
    }
    const itemId = gidNumber(r.gidItem, 'InventoryItem');
    const locationId = gidNumber(r.gidLocation, 'Location');
    if (itemId === null)
      errors.push({ field: [...r.at, 'inventoryItemId'], message: 'The specified inventory item could not be found.', code: 'INVALID_INVENTORY_ITEM' });
    else if (locationId === null || !locations.has(locationId))
      errors.push({ field: [...r.at, 'locationId'], message: 'The specified location could not be found.', code: 'INVALID_LOCATION' });
    else if (kind === 'set' && pairs.has(`${itemId}:${locationId}`)) {
      errors.push({
        field: [...r.at, 'locationId'],
        message: 'The combination of inventoryItemId and locationId must be unique.',
        code: 'NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR',
      });
    } else {
      pairs.add(`${itemId}:${locationId}`);
      changes.push({ ...r, itemId, locationId });
    }
  }
  return { errors, changes };
}

/** The changes applied to the locked stocks: each checked against its compare value and the limits, and recorded. */
function applyChanges(
  kind: 'set' | 'adjust',
  name: string,
  changes: QuantityChange[],
  stocks: Map<number, Record<string, number>>,
): { refused: InventoryUserError[]; recorded: RecordedChange[] } {
  const refused: InventoryUserError[] = [];
  const recorded: RecordedChange[] = [];
  const limit = kind === 'set' ? SET_LIMIT : ADJUST_LIMIT;
  for (const c of changes) {
    const stock = stocks.get(c.itemId);
    if (!stock) {
      refused.push({ field: [...c.at, 'inventoryItemId'], message: 'The specified inventory item could not be found.', code: 'INVALID_INVENTORY_ITEM' });
      continue;
    }
    // Stocked: the active level; else the inactive level there (made by this change if there is none).
    const key = String(c.locationId) in stock ? String(c.locationId) : INACTIVE + c.locationId;
    const current = stock[key] ?? 0;
    if (c.changeFromQuantity !== null && c.changeFromQuantity !== current) {
      refused.push({
        field: [...c.at, 'changeFromQuantity'],
        message: `The quantity at the location is ${current}, not ${c.changeFromQuantity}.`,
        code: 'CHANGE_FROM_QUANTITY_STALE',
      });
      continue;
    }
    const next = kind === 'set' ? c.value : current + c.value;
    if (kind === 'set' && next < 0)
      refused.push({ field: [...c.at, 'quantity'], message: "The quantity can't be negative.", code: 'INVALID_QUANTITY_NEGATIVE' });
    else if (next > limit)
      refused.push({ field: c.at, message: `The quantity can't be higher than ${limit.toLocaleString('en-US')}.`, code: 'INVALID_QUANTITY_TOO_HIGH' });
    else if (next < -limit)
      refused.push({ field: c.at, message: `The quantity can't be lower than -${limit.toLocaleString('en-US')}.`, code: 'INVALID_QUANTITY_TOO_LOW' });
    else {
      stock[key] = next;
      // `available` and `on_hand` move together (one count): the group records both, as a sale moves both.
      if (next !== current)
        for (const n of [name, name === 'available' ? 'on_hand' : 'available'])
          recorded.push({ itemId: c.itemId, locationId: c.locationId, name: n, delta: next - current, quantityAfterChange: next });
    }
  }
  return { refused, recorded };
}
