// Our own CSV format (docs/csv-formats.md): one row per variant, the product's columns repeated on each of its rows
// (on later rows they may also be left empty). This file holds its columns, its header and the writing (a draft → its
// rows); reading a product's rows into a ProductDraft is ours-reader.ts, the cell checks (shared with the Shopify
// format) cells.ts.
import type { ProductDraft, VariantDraft } from './draft.js';
import { LIST_SEPARATOR, PATH_SEPARATOR } from './cells.js';

export const PRODUCT_COLUMNS = [
  'sku',
  'name',
  'slug',
  'description',
  'short_description',
  'product_type',
  'price',
  'sale_price',
  'cost_price',
  'currency',
  'status',
  'ean',
  'brand',
  'supplier',
  'publishing_channels',
  'product_condition',
  'categories',
  'images',
  'image_alt_texts',
  'tags',
  'seo_title',
  'seo_description',
  'storefront_type',
  'taxonomy_category',
  'gift_card',
  'stock',
  'weight',
  'weight_unit',
  'barcode',
  'compare_at_price',
  'inventory_policy',
  'inventory_tracked',
  'taxable',
  'requires_shipping',
  'sku_generated',
] as const;
export const VARIANT_COLUMNS = [
  'variant_sku',
  'variant_name',
  'variant_price',
  'variant_sale_price',
  'variant_cost',
  'variant_weight',
  'variant_stock',
  'variant_stock_status',
  'variant_enabled',
  'variant_image',
  'variant_weight_unit',
  'variant_barcode',
  'variant_compare_at_price',
  'variant_inventory_policy',
  'variant_inventory_tracked',
  'variant_taxable',
  'variant_requires_shipping',
  'variant_sku_generated',
] as const;
export type ProductColumn = (typeof PRODUCT_COLUMNS)[number];
type VariantColumn = (typeof VARIANT_COLUMNS)[number];
const TRANSLATED = ['name', 'description', 'short_description'] as const;

export const PRODUCT_STATUSES = ['draft', 'active', 'archived', 'out_of_stock'];
export const PRODUCT_CONDITIONS = ['new', 'used', 'refurbished'];
export const STOCK_STATUSES = ['in_stock', 'out_of_stock', 'on_backorder'];
/** As src/pim/products/selling-fields.ts. */
export const WEIGHT_UNITS = ['g', 'kg', 'lb', 'oz'];
export const INVENTORY_POLICIES = ['deny', 'continue'];
/** The same rules as the PIM's API (attribute codes, warehouse codes, locales). */
const ATTRIBUTE_CODE = /^[a-z][a-z0-9_]{0,63}$/;
const WAREHOUSE_CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const LOCALE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
/** Separators inside a cell: list values, and the levels of a category path (spaces around `>` optional). */

// ---------------------------------------------------------------------------------------------------------------
// Header

export type Column =
  | { kind: 'product'; name: ProductColumn }
  | { kind: 'variant'; name: VariantColumn }
  | { kind: 'attribute'; code: string }
  | { kind: 'stock'; warehouse: string }
  | { kind: 'translation'; field: (typeof TRANSLATED)[number]; locale: string }
  | { kind: 'option'; name: string }
  | { kind: 'ignored' };

/** What a header cell means, or why it means nothing. Empty header cells are ignored (spreadsheets leave some). */
export function classify(column: string): Column | { problem: string } {
  if (column === '') return { kind: 'ignored' };
  if ((PRODUCT_COLUMNS as readonly string[]).includes(column)) return { kind: 'product', name: column as ProductColumn };
  if ((VARIANT_COLUMNS as readonly string[]).includes(column)) return { kind: 'variant', name: column as VariantColumn };
  const prefixed = /^(attribute|stock|option):(.*)$/.exec(column);
  if (prefixed) {
    const [, prefix, rest] = prefixed;
    const name = rest.trim();
    if (prefix === 'attribute')
      return ATTRIBUTE_CODE.test(name) ? { kind: 'attribute', code: name } : { problem: `'${column}': an attribute code is lower-case letters, digits and _` };
    if (prefix === 'stock') return WAREHOUSE_CODE.test(name) ? { kind: 'stock', warehouse: name } : { problem: `'${column}': not a warehouse code` };
    return name !== '' && name.length <= 100 ? { kind: 'option', name } : { problem: `'${column}': an option name is 1 to 100 characters` };
  }
  const translated = /^([a-z_]+)@(.*)$/.exec(column);
  if (translated && (TRANSLATED as readonly string[]).includes(translated[1])) {
    return LOCALE.test(translated[2])
      ? { kind: 'translation', field: translated[1] as (typeof TRANSLATED)[number], locale: translated[2] }
      : { problem: `'${column}': '${translated[2]}' is not a language code such as de or fr-CA` };
  }
  return { problem: '' };
}

/** Why the header cannot be read as our format (each problem in plain words); empty when it can. */
export function oursHeaderProblems(columns: string[]): string[] {
  const problems: string[] = [];
  const unknown: string[] = [];
  const seen = new Set<string>();
  let variantColumns = false;
  for (const column of columns) {
    const c = classify(column);
    if ('problem' in c) {
      if (c.problem) problems.push(c.problem);
      else {
        const known = [...PRODUCT_COLUMNS, ...VARIANT_COLUMNS].find((k) => k === column.toLowerCase().replace(/\s+/g, '_'));
        unknown.push(known ? `'${column}' (did you mean '${known}'?)` : `'${column}'`);
      }
      continue;
    }
    if (c.kind === 'ignored') continue;
    if (seen.has(column)) problems.push(`the column '${column}' appears twice`);
    seen.add(column);
    if ((c.kind === 'variant' && c.name !== 'variant_sku') || c.kind === 'option') variantColumns = true;
  }
  if (unknown.length > 0) problems.unshift(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  if (!seen.has('sku')) problems.push("the 'sku' column is missing");
  if (variantColumns && !seen.has('variant_sku')) problems.push("variant columns need a 'variant_sku' column");
  return problems;
}

/** The columns of an export: every fixed column, then one per attribute, warehouse, translation and option name. */
export function oursHeader(context: { attributeCodes: string[]; warehouseCodes: string[]; locales: string[]; optionNames: string[] }): string[] {
  return [
    ...PRODUCT_COLUMNS,
    ...context.attributeCodes.map((code) => `attribute:${code}`),
    ...context.warehouseCodes.map((code) => `stock:${code}`),
    ...context.locales.flatMap((locale) => TRANSLATED.map((field) => `${field}@${locale}`)),
    ...VARIANT_COLUMNS,
    ...context.optionNames.map((name) => `option:${name}`),
  ];
}
// ---------------------------------------------------------------------------------------------------------------
// Writing

const text = (value: string | null | undefined): string => value ?? '';
const bool = (value: boolean | null | undefined): string => (value === null || value === undefined ? '' : String(value));

function productCell(draft: ProductDraft, column: ProductColumn): string {
  const f = draft.fields;
  switch (column) {
    case 'sku':
      return draft.sku;
    case 'publishing_channels':
      return (f.publishing_channels ?? []).join(LIST_SEPARATOR);
    case 'categories':
      return (f.categories ?? []).map((path) => path.join(PATH_SEPARATOR)).join(LIST_SEPARATOR);
    case 'images':
      return (draft.images ?? []).join(LIST_SEPARATOR);
    case 'image_alt_texts': {
      const alts = (draft.images ?? []).map((_, i) => draft.imageAlts?.[i] ?? '');
      return alts.some((a) => a !== '') ? alts.join(LIST_SEPARATOR) : '';
    }
    case 'tags':
      return (f.tags ?? []).join(LIST_SEPARATOR);
    case 'gift_card':
    case 'inventory_tracked':
    case 'taxable':
    case 'requires_shipping':
      return bool(f[column]);
    case 'stock':
      return f.stock_quantity === undefined ? '' : String(f.stock_quantity);
    case 'sku_generated':
      return bool(draft.skuGenerated);
    default:
      return text(f[column]);
  }
}

function variantCell(variant: VariantDraft | undefined, column: VariantColumn): string {
  if (!variant) return '';
  const f = variant.fields;
  switch (column) {
    case 'variant_sku':
      return variant.sku;
    case 'variant_name':
      return text(f.name);
    case 'variant_price':
      return text(f.price);
    case 'variant_sale_price':
      return text(f.sale_price);
    case 'variant_cost':
      return text(f.cost);
    case 'variant_weight':
      return text(f.weight);
    case 'variant_stock':
      return f.stock_quantity === undefined ? '' : String(f.stock_quantity);
    case 'variant_stock_status':
      return text(f.stock_status);
    case 'variant_enabled':
      return f.is_enabled === undefined ? '' : String(f.is_enabled);
    case 'variant_image':
      return text(f.image);
    case 'variant_weight_unit':
      return text(f.weight_unit);
    case 'variant_barcode':
      return text(f.barcode);
    case 'variant_compare_at_price':
      return text(f.compare_at_price);
    case 'variant_inventory_policy':
      return text(f.inventory_policy);
    case 'variant_inventory_tracked':
      return bool(f.inventory_tracked);
    case 'variant_taxable':
      return bool(f.taxable);
    case 'variant_requires_shipping':
      return bool(f.requires_shipping);
    case 'variant_sku_generated':
      return bool(variant.skuGenerated);
  }
}

/** A draft as rows under `header` (unescaped cells: the writer escapes formulas). Unknown header cells stay empty. */
export function oursRows(draft: ProductDraft, header: string[]): string[][] {
  const columns = header.map(classify);
  const row = (variant: VariantDraft | undefined) =>
    columns.map((c) => {
      if ('problem' in c) return '';
      switch (c.kind) {
        case 'product':
          return productCell(draft, c.name);
        case 'attribute':
          return text(draft.attributes?.[c.code]);
        case 'stock':
          return draft.stock?.[c.warehouse] === undefined ? '' : String(draft.stock[c.warehouse]);
        case 'translation':
          return text(draft.translations?.[c.locale]?.[c.field]);
        case 'variant':
          return variantCell(variant, c.name);
        case 'option':
          return variant?.fields.attributes?.find((a) => a.attribute_name === c.name)?.value ?? '';
        default:
          // 'ignored'
          return '';
      }
    });
  return draft.variants.length === 0 ? [row(undefined)] : draft.variants.map(row);
}
