// A product's history in a merchant's words: who made a change, what each field was and became. Pure: unit-tested in
// console/test/product-history-model.test.ts.
import { decimalShown, STATUS_LABEL } from './product-model';

export interface Who {
  kind: 'api_key' | 'console' | 'import' | 'adoption';
  key_id: number | null;
  key_name: string | null;
  label: string | null;
}

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
  product_type: 'Product type',
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

const DECIMALS = new Set(['price', 'sale_price', 'cost_price', 'weight', 'compare_at_price']);

/** A change's fields in the order the editor shows them (unknown ones last). */
export function inFieldOrder<T extends { field: string }>(changes: readonly T[]): T[] {
  const order = Object.keys(FIELD_LABEL);
  const rank = (f: string) => (order.includes(f.split('@')[0]) ? order.indexOf(f.split('@')[0]) : order.length);
  return [...changes].sort((a, b) => rank(a.field) - rank(b.field));
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
  const named = { brand_id: names.brands, supplier_id: names.suppliers, vat_rate_id: names.vatRates }[field];
  if (named && typeof value === 'number') return named.get(value) ?? `#${value}`;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) {
    if (value.length === 0) return '(none)';
    if (field === 'category_ids') return value.map((id) => names.categories.get(id as number) ?? `#${id}`).join(', ');
    return value.map(String).join(', ');
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`).join('; ');
  }
  return String(value);
}

/** Long texts (descriptions) cut for the list; the whole value is in the title. */
export const shortened = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
