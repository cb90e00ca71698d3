// A PIM product's variants as productSet variant inputs (the product itself as the one variant when it has none): money,
// selling fields, stock per location, and what the bridge owns of each.
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { SyncPlacement } from '../port/placement.js';
import { createDefault } from './field-ownership.js';
import { merchantVariantOfSku } from './merchant-variants.js';
import { isUrl } from './product-media.js';
import { DEFAULT_OPTION, DEFAULT_VALUE, type productOptions, sortedVariants, variantOptionValues } from './product-options.js';
import type { FileInput, MappedProduct, ShopLocation, VariantInput, WeightUnit } from './product-set-input.js';

/**
 * Normalises a PIM decimal ("19.9900") to Shopify's Money ("19.99"). Returns null when it is not a non-negative decimal
 * with at most 2 significant places (pre-flight reports those; nothing is rounded silently).
 */
export function toMoney(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > 2) return null;
  return `${BigInt(m[1]).toString()}.${frac.padEnd(2, '0')}`;
}

/** Price and compare-at price: a lower sale price is the price and the regular price becomes the compare-at price. */
export function pricing(price: string | null | undefined, salePrice: string | null | undefined): { price?: string; compareAtPrice: string | null } {
  const regular = toMoney(price);
  const sale = toMoney(salePrice);
  if (regular === null) return { compareAtPrice: null };
  if (sale !== null && Number(sale) < Number(regular)) return { price: sale, compareAtPrice: regular };
  return { price: regular, compareAtPrice: null };
}

/** A non-negative PIM decimal ("1.2500") → "1.25"; null when absent or not a decimal. */
export function toDecimal(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(String(value).trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${BigInt(m[1])}.${frac}` : `${BigInt(m[1])}`;
}

/** The PIM's weight units (selling-fields.ts) → Shopify's WeightUnit; no unit is kilograms. */
const WEIGHT_UNITS: Record<string, WeightUnit> = { g: 'GRAMS', kg: 'KILOGRAMS', lb: 'POUNDS', oz: 'OUNCES' };

/**
 * Stock per location id, of a product without variants or of one variant. A warehouse level goes to the location the integration maps its code to; a warehouse without
 * a mapping goes to the active location whose name equals the warehouse's name or code (case-insensitive), else to the
 * default location (levels add up); a warehouse mapped to null is not synced. Without warehouse levels, `total` goes to
 * the default location. Nothing goes to an inactive location.
 */
export function stockAt(
  placement: Pick<SyncPlacement, 'warehouseLocations' | 'unsyncedWarehouses' | 'variantStockLocation'>,
  locations: ShopLocation[],
  total: number,
  warehouses: PimProductSnapshot['warehouse_stock'] | undefined,
): Record<string, number> {
  const active = new Set(locations.filter((l) => l.isActive).map((l) => l.id));
  const out: Record<string, number> = {};
  const add = (id: string | null | undefined, q: number) => {
    if (id && active.has(id)) out[id] = (out[id] ?? 0) + Math.trunc(q);
  };
  if (warehouses && warehouses.length > 0) {
    const key = (s: string) => s.trim().toLowerCase();
    for (const w of warehouses) {
      if (placement.unsyncedWarehouses.includes(w.code)) continue;
      if (w.code in placement.warehouseLocations) {
        add(placement.warehouseLocations[w.code], w.quantity);
        continue;
      }
      const byName = locations.find((l) => l.isActive && (key(l.name) === key(w.name) || key(l.name) === key(w.code)));
      add(byName?.id ?? placement.variantStockLocation, w.quantity);
    }
  } else {
    add(placement.variantStockLocation, total);
  }
  return out;
}

/** The PIM's selling fields of one Shopify variant (a PIM variant, or a product without variants), as productSet takes them. */
interface SellingValues {
  barcode?: string;
  compareAtPrice?: string;
  inventoryPolicy?: 'DENY' | 'CONTINUE';
  tracked?: boolean;
  taxable?: boolean;
  requiresShipping?: boolean;
  weight?: { value: number; unit: WeightUnit };
}

/** The selling fields of a PIM variant or product; a value the PIM does not set (null, or one it cannot mean) is absent. */
export function sellingValuesOf(
  from: Pick<PimProductSnapshot, 'barcode' | 'compare_at_price' | 'weight_unit' | 'inventory_policy' | 'inventory_tracked' | 'taxable' | 'requires_shipping'>,
  weight: string | null | undefined,
  barcodeFallback?: string | null,
): SellingValues {
  const out: SellingValues = {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const barcode = text(from.barcode) ?? text(barcodeFallback);
  if (barcode !== undefined) out.barcode = barcode;
  const compareAt = toMoney(typeof from.compare_at_price === 'string' ? from.compare_at_price : null);
  if (compareAt !== null) out.compareAtPrice = compareAt;
  if (from.inventory_policy === 'deny' || from.inventory_policy === 'continue') out.inventoryPolicy = from.inventory_policy === 'deny' ? 'DENY' : 'CONTINUE';
  if (typeof from.inventory_tracked === 'boolean') out.tracked = from.inventory_tracked;
  if (typeof from.taxable === 'boolean') out.taxable = from.taxable;
  if (typeof from.requires_shipping === 'boolean') out.requiresShipping = from.requires_shipping;
  const value = toDecimal(weight);
  const unit = from.weight_unit == null ? 'KILOGRAMS' : WEIGHT_UNITS[from.weight_unit];
  if (value !== null && unit) out.weight = { value: Number(value), unit };
  return out;
}

/** One PIM variant (or the product itself, without variants) as mapProduct sends it. */
interface VariantSource {
  sku: string;
  image?: string | null;
  price: string | null | undefined;
  salePrice: string | null | undefined;
  cost?: string | null;
  selling: SellingValues;
  /** The PIM made the SKU up: it stays our key but is never written to the shop. */
  generated: boolean;
  enabled: boolean;
  optionValues: VariantInput['optionValues'];
  levels: Record<string, number>;
}

/** What a product's variants share in mapProduct: what is known, and where their stock, disabled SKUs and owned compare-at prices go. */
export interface VariantContext {
  known: KnownStorefrontProduct;
  /** SKUs whose compare-at price the bridge wrote before. */
  previouslyOwned: Set<string>;
  /** The images are unchanged: no variant `file` is sent. */
  unchanged: boolean;
  fileOf(url: string): FileInput;
  stock: MappedProduct['stock'];
  disabled: string[];
  compareAtOwned: string[];
}

/** The PIM product's variants as productSet inputs (the product itself as the one variant when it has none). */
export function pimVariantInputs(
  product: PimProductSnapshot,
  context: { placement: SyncPlacement; locations: ShopLocation[] },
  options: ReturnType<typeof productOptions>,
  shared: VariantContext,
): VariantInput[] {
  return product.variants.length === 0
    ? [
        variantInput(
          {
            sku: product.sku,
            price: product.price,
            salePrice: product.sale_price,
            cost: product.cost_price,
            // The product's own selling fields; its barcode, else its `ean` (a GTIN is a barcode too).
            selling: sellingValuesOf(product, product.weight, product.ean),
            generated: product.sku_generated === true,
            enabled: true,
            optionValues: [{ optionName: DEFAULT_OPTION, name: DEFAULT_VALUE }],
            levels: stockAt(context.placement, context.locations, product.stock ?? 0, product.warehouse_stock),
          },
          shared,
        ),
      ]
    : sortedVariants(product).map((v) =>
        variantInput(
          {
            sku: v.sku,
            price: v.price ?? product.price,
            salePrice: v.price !== null ? v.sale_price : (v.sale_price ?? product.sale_price),
            cost: v.cost ?? product.cost_price,
            selling: sellingValuesOf(v, v.weight),
            generated: v.sku_generated === true,
            image: v.image,
            enabled: v.is_enabled !== false,
            optionValues: variantOptionValues(product, v, options),
            levels: stockAt(context.placement, context.locations, v.stock_quantity, v.warehouse_stock),
          },
          shared,
        ),
      );
}

function variantInput(v: VariantSource, shared: VariantContext): VariantInput {
  const { known, previouslyOwned, unchanged, fileOf, stock, disabled, compareAtOwned } = shared;
  // A merchant's variant of this SKU (kept since the adoption) is the PIM's from now on.
  const id = known.variantIds[v.sku] ?? merchantVariantOfSku(known, v.sku)?.id;
  const price = pricing(v.price, v.salePrice);
  // The compare-at price: the regular price while the PIM has a sale, else the PIM's compare_at_price as given; one we
  // wrote before and the PIM no longer gives is cleared; else it is the merchant's and left alone.
  const ownCompareAt = price.compareAtPrice ?? v.selling.compareAtPrice ?? null;
  const compareAt = ownCompareAt !== null ? ownCompareAt : previouslyOwned.has(v.sku) ? null : undefined;
  if (ownCompareAt !== null) compareAtOwned.push(v.sku);
  // A disabled PIM variant stays on the storefront (its id, its orders) but cannot be sold: nothing available, DENY,
  // tracked. Otherwise policy and tracking come from the PIM only; without a PIM value an existing variant keeps the
  // shop's, a new one gets FIELD_OWNERSHIP's create default (DENY, tracked), as before these fields were kept.
  const levels = v.enabled ? v.levels : Object.fromEntries(Object.keys(v.levels).map((l) => [l, 0]));
  if (!v.enabled) disabled.push(v.sku);
  stock[v.sku] = levels;
  const policy = !v.enabled ? 'DENY' : (v.selling.inventoryPolicy ?? (id ? undefined : createDefault<'DENY'>('inventoryPolicy')));
  const tracked = !v.enabled ? true : (v.selling.tracked ?? (id ? undefined : createDefault<boolean>('tracked')));
  const cost = toDecimal(v.cost);
  return {
    ...(id ? { id } : {}),
    // A SKU the PIM made up (sku_generated: a catalogue file gave none) is never written to the shop: left out here and
    // on the inventory item (an existing variant keeps the shop's); it stays our key (variantKeys).
    ...(v.generated ? {} : { sku: v.sku }),
    ...(price.price !== undefined ? { price: price.price } : {}),
    ...(compareAt !== undefined ? { compareAtPrice: compareAt } : {}),
    ...(v.selling.barcode !== undefined ? { barcode: v.selling.barcode } : {}),
    optionValues: v.optionValues,
    // Sent with `files` only (the file must also be in the product's `files`); when the images are unchanged neither
    // is sent, and the variant keeps its media ("Any omitted fields will remain unchanged", Mutation.productSet).
    ...(!unchanged && isUrl(v.image) ? { file: fileOf(v.image) } : {}),
    ...(policy !== undefined ? { inventoryPolicy: policy } : {}),
    ...(v.selling.taxable !== undefined ? { taxable: v.selling.taxable } : {}),
    inventoryItem: {
      ...(v.generated ? {} : { sku: v.sku }),
      ...(tracked !== undefined ? { tracked } : {}),
      ...(v.selling.requiresShipping !== undefined ? { requiresShipping: v.selling.requiresShipping } : {}),
      ...(cost !== null ? { cost } : {}),
      ...(v.selling.weight ? { measurement: { weight: v.selling.weight } } : {}),
    },
    ...(!id && Object.keys(levels).length > 0
      ? { inventoryQuantities: Object.entries(levels).map(([locationId, quantity]) => ({ locationId, name: 'available' as const, quantity })) }
      : {}),
  };
}
