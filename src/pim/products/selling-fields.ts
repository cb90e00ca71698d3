// What a Shopify product and its variants hold beyond the spec's fields, kept so a catalogue brought in from Shopify goes
// back out unchanged (docs/shopify-fidelity.md). Additive: every field is optional on writes, and null is "not set in the
// PIM", so the push leaves the shop's own value (or Shopify's default on create).
import { Type } from '@sinclair/typebox';
import { DecimalInput, Nullable, Text } from '../pim.schemas.js';

export const WEIGHT_UNITS = ['g', 'kg', 'lb', 'oz'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];
export const INVENTORY_POLICIES = ['deny', 'continue'] as const;

/** `V | null` from a fixed list (null must be in the enum too, or the enum refuses it). */
const NullableEnum = <const V extends readonly string[]>(values: V, description: string) =>
  Type.Unsafe<V[number] | null>({ type: ['string', 'null'], enum: [...values, null], description });

/** On a product without variants (its one Shopify variant) and on each variant: the write schemas. */
export const sellingInputFields = {
  barcode: Nullable(Text(255, { description: 'the storefront barcode, free text (UPC, ISBN, an internal code); the GTIN check is on `ean`' })),
  compare_at_price: Nullable(DecimalInput('compare-at price as given (a sale is `sale_price` below `price`)')),
  weight_unit: NullableEnum(WEIGHT_UNITS, 'the unit of `weight`; null is kilograms'),
  inventory_policy: NullableEnum(INVENTORY_POLICIES, 'deny: no sale when out of stock; continue: keep selling'),
  inventory_tracked: Nullable(Type.Boolean({ description: 'whether the storefront tracks the quantity' })),
  taxable: Nullable(Type.Boolean()),
  requires_shipping: Nullable(Type.Boolean()),
};

/** The same fields in answers (always present, null when not set). */
export const sellingViewFields = {
  barcode: Nullable(Type.String()),
  compare_at_price: Nullable(Type.String()),
  weight_unit: Nullable(Type.String()),
  inventory_policy: Nullable(Type.String()),
  inventory_tracked: Nullable(Type.Boolean()),
  taxable: Nullable(Type.Boolean()),
  requires_shipping: Nullable(Type.Boolean()),
  sku_generated: Type.Boolean({
    description: 'the PIM made the SKU up (a catalogue file gave none, or another product had it): never written to a shop; writing `sku` clears it',
  }),
};

/** Product-only fields: the write schemas. */
export const storefrontProductInputFields = {
  tags: Type.Array(Text(255, { minLength: 1 }), { maxItems: 250, uniqueItems: true, description: 'storefront tags (Shopify: up to 250)' }),
  seo_title: Nullable(Text(255)),
  seo_description: Nullable(Text(5_000)),
  gift_card: Type.Boolean(),
  taxonomy_category: Nullable(Text(255, { description: "a Shopify Standard Product Taxonomy category: its id (e.g. 'aa-1-13-8') or full name" })),
  weight: Nullable(DecimalInput('weight of a product without variants, in `weight_unit`')),
  storefront_type: Nullable(
    Text(255, { description: "the merchant's product type in the storefront (Shopify's `productType`); `product_type` is the PIM's structural type" }),
  ),
};

export const storefrontProductViewFields = {
  tags: Type.Array(Type.String()),
  seo_title: Nullable(Type.String()),
  seo_description: Nullable(Type.String()),
  gift_card: Type.Boolean(),
  taxonomy_category: Nullable(Type.String()),
  weight: Nullable(Type.String()),
  storefront_type: Nullable(Type.String()),
};

/** API field → column, for toColumns of products and variants. */
export const SELLING_COLUMNS = {
  barcode: 'barcode',
  compare_at_price: 'compareAtPrice',
  weight_unit: 'weightUnit',
  inventory_policy: 'inventoryPolicy',
  inventory_tracked: 'inventoryTracked',
  taxable: 'taxable',
  requires_shipping: 'requiresShipping',
} as const;

/** The projection of the selling fields over a table alias, for json_build_object / SELECT lists. */
export const SELLING_SQL_PAIRS = (alias: string) =>
  `'barcode', ${alias}.barcode, 'compare_at_price', ${alias}.compare_at_price::text, 'weight_unit', ${alias}.weight_unit, ` +
  `'inventory_policy', ${alias}.inventory_policy, 'inventory_tracked', ${alias}.inventory_tracked, 'taxable', ${alias}.taxable, ` +
  `'requires_shipping', ${alias}.requires_shipping, 'sku_generated', ${alias}.sku_generated`;
