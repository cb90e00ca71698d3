// productSet's variants list, written in its transaction: the sent list replaces the product's (ids must be the product's
// own), each variant keeps what is not sent, quantities go only where a variant is stocked, and the store's variant
// throttle is enforced.
import { GraphQLError } from 'graphql';
import { gidNumber } from './gid.js';
import { err, type ProductSetInput, Rejected, type VariantInput } from './product-set-args.js';
import type { ProductRow, SandboxProductRepository, VariantRow, VariantValues } from './sandbox-product.repository.js';
import { formatMoney } from './shopify-values.js';

type VariantWrite = VariantValues & { id?: number };

/**
 * Variants: the sent list replaces the product's; ids must be the product's own. Within a kept variant, "for all other
 * field types: updates only the included fields. Any omitted fields will remain unchanged" (schema 2026-10,
 * Mutation.productSet): a price, compare-at price, barcode, policy or inventory-item field not sent stays.
 * `sentVariantIds`: the variant of each entry of `input.variants`, in order.
 */
export async function writeVariants(
  repo: SandboxProductRepository,
  storeId: number,
  locations: Set<number>,
  input: ProductSetInput,
  product: ProductRow,
  target: ProductRow | null,
  variantThrottleLimit: number | null,
): Promise<{ newVariants: VariantRow[]; sentVariantIds: number[] }> {
  const existing = new Map((target ? await repo.variants(target.id, 0, 100_000) : []).map((v) => [v.id, v]));
  const sent = input.variants ?? [];
  const rows: VariantWrite[] = [];
  for (const [i, v] of sent.entries()) {
    let id: number | undefined;
    if (v.id != null) {
      const n = gidNumber(v.id, 'ProductVariant');
      if (n === null || !existing.has(n)) throw new Rejected([err(['input', 'variants', String(i), 'id'], 'Variant does not exist', 'INVALID_VARIANT')]);
      id = n;
    }
    const before = id !== undefined ? existing.get(id) : undefined;
    const inventory = await stockedInventory(repo, storeId, locations, v, i, before);
    rows.push(variantValues(v, i, id, before, inventory, product));
  }
  if (rows.length === 0) rows.push(defaultVariant());
  await checkVariantThrottle(repo, storeId, rows, variantThrottleLimit);
  const newVariants = await repo.replaceVariants(product.id, rows, !target);
  const sentVariantIds = sent.map((_, i) => rows[i].id ?? newVariants.find((n) => n.position === i + 1)!.id);
  return { newVariants, sentVariantIds };
}

/** The variant's quantities per location after this call: its own, with the sent ones at locations of the store. */
async function stockedInventory(
  repo: SandboxProductRepository,
  storeId: number,
  locations: Set<number>,
  v: VariantInput,
  i: number,
  before: VariantRow | undefined,
): Promise<Record<string, number>> {
  const inventory: Record<string, number> = { ...(before?.inventory ?? {}) };
  for (const [k, q] of (v.inventoryQuantities ?? []).entries()) {
    const at = ['input', 'variants', String(i), 'inventoryQuantities', String(k), 'locationId'];
    const loc = gidNumber(q.locationId, 'Location');
    if (loc !== null && !locations.has(loc)) for (const l of await repo.locations(storeId, 0, 1000)) locations.add(l.id);
    if (loc === null || !locations.has(loc)) throw new Rejected([err(at, 'Location does not exist', 'NOT_FOUND')]);
    // schema 2026-10, ProductVariantSetInput.inventoryQuantities: "If you're updating an existing variant, then you
    // can only update the quantities at locations where the variant is already stocked" (inventoryActivate first;
    // an inactive level is not stocked). ProductSetUserErrorCode has no code of its own for it: INVALID_INPUT.
    if (before && !(String(loc) in before.inventory)) {
      throw new Rejected([err(at, `The variant is not stocked at location ${q.locationId}: activate its inventory item there first.`, 'INVALID_INPUT')]);
    }
    inventory[String(loc)] = q.quantity;
  }
  return inventory;
}

/** A sent variant's row: each field sent, else the variant's own (`before`), else Shopify's default for a new one. */
function variantValues(
  v: VariantInput,
  i: number,
  id: number | undefined,
  before: VariantRow | undefined,
  inventory: Record<string, number>,
  product: ProductRow,
): VariantWrite {
  const order = product.options.map((o) => o.name.toLowerCase());
  const optionValues = (v.optionValues ?? [])
    .map((o) => ({
      optionName: product.options.find((p) => p.name.toLowerCase() === (o.optionName ?? '').trim().toLowerCase())?.name ?? '',
      name: (o.name ?? '').trim(),
    }))
    .sort((a, b) => order.indexOf(a.optionName.toLowerCase()) - order.indexOf(b.optionName.toLowerCase()));
  const item = v.inventoryItem;
  return {
    id,
    // ProductVariantSetInput.sku, else InventoryItemInput.sku ("The SKU (stock keeping unit) of the inventory item").
    sku: v.sku !== undefined ? (v.sku ?? null) : item?.sku !== undefined ? (item.sku ?? null) : (before?.sku ?? null),
    price: v.price != null ? formatMoney(String(v.price)) : (before?.price ?? '0.00'),
    compareAtPrice:
      v.compareAtPrice !== undefined ? (v.compareAtPrice === null ? null : formatMoney(String(v.compareAtPrice))) : (before?.compareAtPrice ?? null),
    barcode: v.barcode !== undefined ? (v.barcode ?? null) : (before?.barcode ?? null),
    optionValues,
    inventory,
    position: i + 1,
    // ProductVariantSetInput.inventoryPolicy: "Defaults to `DENY`".
    inventoryPolicy: v.inventoryPolicy ?? before?.inventoryPolicy ?? 'DENY',
    // ProductVariant.taxable and InventoryItem.requiresShipping: true on a new variant (Shopify's defaults).
    taxable: v.taxable ?? before?.taxable ?? true,
    tracked: item?.tracked ?? before?.tracked ?? true,
    requiresShipping: item?.requiresShipping ?? before?.requiresShipping ?? true,
    // InventoryItemInput.cost: "Unit cost associated with the inventory item, the currency is the shop's default currency."
    unitCost: item && item.cost !== undefined ? (item.cost === null ? null : String(item.cost)) : (before?.unitCost ?? null),
    weight: item?.measurement?.weight !== undefined ? (item.measurement.weight ?? null) : (before?.weight ?? null),
  };
}

/** The one variant of a product created without variants, or sent an empty list. */
function defaultVariant(): VariantWrite {
  return {
    sku: null,
    price: '0.00',
    compareAtPrice: null,
    barcode: null,
    optionValues: [],
    inventory: {},
    position: 1,
    inventoryPolicy: 'DENY',
    taxable: true,
    tracked: true,
    requiresShipping: true,
    unitCost: null,
    weight: null,
  };
}

/**
 * "The following GraphQL Admin API types have an additional throttle that takes effect when a store has 50,000
 * product variants. After this threshold is reached, no more than 1,000 new variants can be created per day"
 * (https://shopify.dev/docs/api/usage/limits#resource-based-rate-limits): the sandbox refuses creating variants
 * past the store's configured count. VARIANT_THROTTLE_EXCEEDED is in no user-error enum of 2026-10
 * (ProductSetUserErrorCode lacks it): Shopify answers it as a top-level error on the field, with its message
 * below; nothing is written. The count is taken under a per-store lock, so that concurrent calls (bulk lines, five
 * bulk operations) cannot both pass it.
 */
async function checkVariantThrottle(repo: SandboxProductRepository, storeId: number, rows: VariantWrite[], variantThrottleLimit: number | null): Promise<void> {
  const created = rows.filter((r) => r.id === undefined).length;
  if (variantThrottleLimit !== null && created > 0) {
    await repo.lock(`sandbox-variant-count:${storeId}`);
    if ((await repo.countStoreVariants(storeId)) + created > variantThrottleLimit) {
      throw new GraphQLError(
        'Daily variant creation limit reached. Please try again later. See https://help.shopify.com/api/getting-started/api-call-limit for more information about rate limits and how to avoid them.',
        { extensions: { code: 'VARIANT_THROTTLE_EXCEEDED' } },
      );
    }
  }
}
