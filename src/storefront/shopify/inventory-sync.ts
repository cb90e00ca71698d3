// The inventory step of a push: after productSet, existing variants' available quantities move by the PIM's change since
// the last push, so units sold in the shop meanwhile stay sold (docs/shopify-fidelity.md, "Stock"). Variants that the
// productSet created got their quantities from it. Per location:
// - the PIM count is what we pushed last time → the shop's count is left alone (no call at all);
// - it changed by Δ → the shop's count c becomes c + Δ, written with compare-and-swap (`changeFromQuantity: c`) and read
//   again and retried when a sale lands in between (CHANGE_FROM_QUANTITY_STALE);
// - we never pushed to that location (a new mapping) or the variant is disabled → the PIM's count is set outright
//   (a disabled variant: 0), activating the item first where it is not stocked.
import { randomUUID } from 'node:crypto';
import {
  InventoryActivate,
  InventoryLevels,
  InventorySetQuantities,
  type InventoryActivateData,
  type InventoryLevelsData,
  type InventorySetQuantitiesData,
} from './operations.js';

/** One throttled call of the adapter (document, variables, expected cost). */
export type Call = <T>(document: string, variables: Record<string, unknown>, expectedCost: number) => Promise<T>;

export interface InventoryStepInput {
  /** The PIM product, for the inventory history's reference. */
  pimProductId: number;
  /** The PIM quantities to reach, by SKU and location id. */
  target: Record<string, Record<string, number>>;
  /** The PIM quantities the last push brought, by SKU and location id. */
  baseline: Record<string, Record<string, number>>;
  /** Variants created by this push's productSet (their quantities are in already). */
  created: Set<string>;
  /** Disabled variants: their count is set, not moved. */
  disabled: Set<string>;
  inventoryItemIds: Record<string, string>;
}

interface Change {
  sku: string;
  itemId: string;
  locationId: string;
  /** The PIM's quantity now, and the one last pushed (undefined: never pushed there). */
  quantity: number;
  previous: number | undefined;
  absolute: boolean;
}

/** Items per level read: inventoryLevels(first: 50) costs about 15 per item, well under the 1,000 of one query. */
const READ_CHUNK = 50;
/** Input arrays are capped at 250 items (shopify.dev, API limits). */
const WRITE_CHUNK = 250;
const CAS_ATTEMPTS = 4;
/** Shopify's reason for a count set by a system of record (shopify.dev, inventory quantities and states). */
const REASON = 'correction';

/**
 * Brings the shop's stock to the PIM's; returns the new baseline (what the PIM had, per SKU and location, for every
 * quantity now in step) and one problem line per quantity the shop refused.
 */
export async function syncInventory(call: Call, input: InventoryStepInput): Promise<{ stock: Record<string, Record<string, number>>; problems: string[] }> {
  const stock: Record<string, Record<string, number>> = {};
  const changes: Change[] = [];
  for (const [sku, levels] of Object.entries(input.target)) {
    stock[sku] = {};
    for (const [locationId, quantity] of Object.entries(levels)) {
      const previous = input.baseline[sku]?.[locationId];
      const itemId = input.inventoryItemIds[sku];
      if (input.created.has(sku) || previous === quantity || !itemId) {
        if (itemId || input.created.has(sku)) stock[sku][locationId] = quantity;
        continue;
      }
      changes.push({ sku, itemId, locationId, quantity, previous, absolute: previous === undefined || input.disabled.has(sku) });
    }
  }
  if (changes.length === 0) return { stock, problems: [] };

  const problems: string[] = [];
  for (let i = 0; i < changes.length; i += WRITE_CHUNK) {
    const chunk = changes.slice(i, i + WRITE_CHUNK);
    const failed = await applyChunk(call, input.pimProductId, chunk);
    for (const c of chunk) {
      const problem = failed.get(c);
      if (problem) problems.push(problem);
      else stock[c.sku][c.locationId] = c.quantity;
    }
  }
  return { stock, problems };
}

/** One chunk: read the levels, activate where not stocked, set with compare-and-swap; problems by change. */
async function applyChunk(call: Call, pimProductId: number, chunk: Change[]): Promise<Map<Change, string>> {
  const failed = new Map<Change, string>();
  let pending = chunk;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const levels = await readLevels(call, [...new Set(pending.map((c) => c.itemId))]);
    const quantities: { inventoryItemId: string; locationId: string; quantity: number; changeFromQuantity: number }[] = [];
    for (const c of pending) {
      const current = levels.get(c.itemId)?.get(c.locationId);
      if (current === undefined) {
        // Shopify takes a quantity only where the item is stocked: stock it there with the PIM's count.
        const data = await call<InventoryActivateData>(
          InventoryActivate,
          { inventoryItemId: c.itemId, locationId: c.locationId, available: Math.max(0, c.quantity), key: randomUUID() },
          12,
        );
        const errors = data.inventoryActivate?.userErrors ?? [];
        if (errors.length > 0) failed.set(c, `stock of ${c.sku}: the shop refused to stock it at ${c.locationId}: ${errors.map((e) => e.message).join('; ')}`);
        continue;
      }
      // A count below zero cannot be set (INVALID_QUANTITY_NEGATIVE): the shop sold more than the PIM now has.
      const next = Math.max(0, c.absolute ? c.quantity : current + (c.quantity - (c.previous ?? 0)));
      if (next !== current) quantities.push({ inventoryItemId: c.itemId, locationId: c.locationId, quantity: next, changeFromQuantity: current });
    }
    if (quantities.length === 0) break;
    const data = await call<InventorySetQuantitiesData>(
      InventorySetQuantities,
      { input: { name: 'available', reason: REASON, referenceDocumentUri: `gid://pimbridge/Product/${pimProductId}`, quantities }, key: randomUUID() },
      11,
    );
    const errors = data.inventorySetQuantities?.userErrors ?? [];
    if (errors.length === 0) break;
    const stale = errors.every((e) => e.code === 'CHANGE_FROM_QUANTITY_STALE');
    if (!stale || attempt >= CAS_ATTEMPTS) {
      const reason = errors.map((e) => `${e.message}${e.code ? ` (${e.code})` : ''}`).join('; ');
      for (const c of pending)
        if (quantities.some((q) => q.inventoryItemId === c.itemId && q.locationId === c.locationId))
          failed.set(c, `stock of ${c.sku}: the shop refused the quantity: ${reason}`);
      break;
    }
    // A sale landed between our read and the write (the whole call was refused): read again, move from the new count.
    pending = pending.filter((c) => quantities.some((q) => q.inventoryItemId === c.itemId && q.locationId === c.locationId));
  }
  return failed;
}

/** Available quantity by item and location, for the locations where each item is stocked. */
async function readLevels(call: Call, itemIds: string[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  for (let i = 0; i < itemIds.length; i += READ_CHUNK) {
    const ids = itemIds.slice(i, i + READ_CHUNK);
    const data = await call<InventoryLevelsData>(InventoryLevels, { ids }, 2 + ids.length * 16);
    for (const node of data.nodes) {
      if (!node) continue;
      const byLocation = new Map<string, number>();
      for (const level of node.inventoryLevels.nodes) byLocation.set(level.location.id, level.quantities.find((q) => q.name === 'available')?.quantity ?? 0);
      out.set(node.id, byLocation);
    }
  }
  return out;
}
