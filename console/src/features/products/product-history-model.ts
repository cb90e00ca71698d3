// A product's history in a merchant's words: who made a change, what each field was and became. Pure: unit-tested in
// console/test/product-history-model.test.ts.
import type { operations } from '../../api/schema';
import { decimalShown, PRODUCT_KINDS, STATUS_LABEL } from './product-model';

/** One change of a product's history as the API answers it (generated from the OpenAPI document, so it cannot drift). */
type ProductChange = operations['listProductHistory']['responses'][200]['content']['application/json']['data']['changes'][number];
export type Who = ProductChange['who'];
/** One field change: a variant's names its variant, a stock level its warehouse. */
export type FieldChange = ProductChange['changes'][number];

/** The names the history's ids stand for (brands, suppliers, VAT rates, categories), as far as they are known. */
export interface HistoryNames {
  brands: Map<number, string>;
  suppliers: Map<number, string>;
  vatRates: Map<number, string>;
  categories: Map<number, string>;
}

const FIELD_LABEL: Record<string, string> = {
  name: 'Name',
  sku: 'SKU',
  slug: 'URL handle',
  description: 'Description',
  short_description: 'Short description',
  images: 'Images',
  product_type: 'Kind of product',
  price: 'Price',
  sale_price: 'Sale price',
  cost_price: 'Cost price',
  currency: 'Currency',
  status: 'Status',
  stock: 'Stock',
  ean: 'EAN',
  brand_id: 'Brand',
  supplier_id: 'Supplier',
  vat_rate_id: 'VAT rate',
  category_ids: 'Categories',
  publishing_channels: 'Channels',
  product_condition: 'Condition',
  attributes: 'Attributes',
  tags: 'Tags',
  seo_title: 'SEO title',
  seo_description: 'SEO description',
  gift_card: 'Gift card',
  taxonomy_category: 'Shopify category',
  weight: 'Weight',
  storefront_type: 'Type in the store',
  barcode: 'Barcode',
  compare_at_price: 'Compare-at price',
  weight_unit: 'Weight unit',
  inventory_policy: 'When out of stock',
  inventory_tracked: 'Track quantity',
  taxable: 'Charge tax',
  requires_shipping: 'Needs shipping',
};

/** A variant's fields that are named otherwise than the product's. */
const VARIANT_FIELD_LABEL: Record<string, string> = {
  cost: 'Cost price',
  stock_quantity: 'Stock',
  stock_status: 'Stock status',
  is_enabled: 'On sale',
  position: 'Place in the list',
  image: 'Image',
  attributes: 'Options',
};

const DECIMALS = new Set(['price', 'sale_price', 'cost_price', 'cost', 'weight', 'compare_at_price']);
const STOCK_STATUS_LABEL: Record<string, string> = { in_stock: 'In stock', out_of_stock: 'Out of stock', on_backorder: 'On backorder' };

/** A change's fields in the order the editor shows them (unknown ones after), then its variants' in their order. */
export function inFieldOrder<T extends { field: string; variant_sku?: string }>(changes: readonly T[]): T[] {
  const order = Object.keys(FIELD_LABEL);
  const rank = (f: T) => {
    if (f.variant_sku !== undefined) return order.length + 1;
    // A stock level right after the stock it adds up to.
    if (f.field === 'stock_level') return order.indexOf('stock') + 0.5;
    const base = f.field.split('@')[0];
    return order.includes(base) ? order.indexOf(base) : order.length;
  };
  return [...changes].sort((a, b) => rank(a) - rank(b));
}

/** A change's label: its field's, its warehouse's (a stock level) and its variant's. */
export function changeLabel(f: FieldChange): string {
  if (f.field === 'variant') return `Variant ${f.variant_sku}`;
  const label =
    f.field === 'stock_level'
      ? `Stock in ${f.warehouse}`
      : f.variant_sku !== undefined
        ? (VARIANT_FIELD_LABEL[f.field] ?? fieldLabel(f.field))
        : fieldLabel(f.field);
  return f.variant_sku === undefined ? label : `Variant ${f.variant_sku} · ${label}`;
}

/**
 * A change's old and new value in words; `before` null when there is no "before" worth showing: a variant added or
 * removed, images (what changed among them, in words) and any field of a new product.
 */
export function changeText(f: FieldChange, names: HistoryNames, created: boolean): { before: string | null; after: string } {
  if (f.field === 'variant') return { before: null, after: f.old === null ? 'added' : 'removed' };
  if (f.field === 'images') return { before: null, after: imagesText(f.old, f.new, created) };
  return { before: created ? null : valueText(f.field, f.old, names), after: valueText(f.field, f.new, names) };
}

type Image = { id: number; alt_text: string | null };

/** What changed among a product's images: added, removed, moved, described. */
export function imagesText(old: unknown, now: unknown, created = false): string {
  const before = (Array.isArray(old) ? old : []) as Image[];
  const after = (Array.isArray(now) ? now : []) as Image[];
  if (created) return after.length === 1 ? '1 image' : `${after.length} images`;
  const kept = after.filter((i) => before.some((b) => b.id === i.id));
  const added = after.length - kept.length;
  const removed = before.length - kept.length;
  const stayed = before.filter((b) => kept.some((i) => i.id === b.id));
  const parts = [
    added > 0 && `${added} added`,
    removed > 0 && `${removed} removed`,
    kept.some((i, n) => i.id !== stayed[n].id) && 'order changed',
    kept.some((i) => i.alt_text !== stayed.find((b) => b.id === i.id)?.alt_text) && 'alt text changed',
  ].filter(Boolean);
  return parts.length === 0 ? 'unchanged' : parts.join(', ');
}

/** A field's label; a translation's text (`name@de`) is its field's label and its language. */
export function fieldLabel(field: string): string {
  const [base, locale] = field.split('@');
  const label = FIELD_LABEL[base] ?? base.replace(/_/g, ' ');
  return locale ? `${label} (${locale})` : label;
}

/** Who made a change, as the merchant knows them. */
export function whoText(who: Who): string {
  const key = who.key_name ? `“${who.key_name}”` : who.key_id === null ? null : `#${who.key_id}`;
  switch (who.kind) {
    case 'console':
      return key ? `The console (signed in with key ${key})` : 'The console';
    case 'import':
      return who.label ? `Import of ${who.label}` : 'An import';
    case 'adoption':
      return 'Bringing in the Shopify store';
    default:
      return key ? `API key ${key}` : 'An API key';
  }
}

export const ACTION_LABEL: Record<string, string> = { created: 'Created', updated: 'Changed', restored: 'Restored an earlier version' };

/** A field's value in words: "(empty)" for nothing, decimals as "19.90", ids by their names. */
export function valueText(field: string, value: unknown, names: HistoryNames): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (DECIMALS.has(field) && typeof value === 'string') return decimalShown(value);
  if (field === 'status' && typeof value === 'string') return STATUS_LABEL[value] ?? value;
  if (field === 'stock_status' && typeof value === 'string') return STOCK_STATUS_LABEL[value] ?? value;
  if (field === 'product_type' && typeof value === 'string') return PRODUCT_KINDS.find(([kind]) => kind === value)?.[1] ?? value;
  const named = { brand_id: names.brands, supplier_id: names.suppliers, vat_rate_id: names.vatRates }[field];
  if (named && typeof value === 'number') return named.get(value) ?? `#${value}`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (field === 'category_ids') return value.map((id) => names.categories.get(id as number) ?? `#${id}`).join(', ');
    // A variant's options: [{attribute_name, value}].
    return value.map((v) => (v !== null && typeof v === 'object' ? `${v.attribute_name}: ${v.value}` : String(v))).join(', ');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('; ');
  }
  return String(value);
}

/** Long texts (descriptions) cut for the list; the whole value is in the title. */
export const shortened = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
