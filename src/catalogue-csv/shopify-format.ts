// Shopify's product CSV, as the Shopify admin exports it, read into drafts and written from them, so that a file
// exported from a shop, imported and exported again is the same file (the differences that remain, each with its
// reason: docs/csv-formats.md). Columns: https://help.shopify.com/en/manual/products/import-export/using-csv. This file
// holds its columns, its weights and the writing; the reading is shopify-reader.ts.
//
// Writing is the inverse, with the columns of Shopify's product export (SHOPIFY_COLUMNS, the metafield columns of the
// organization's mapped attributes among them): the product's columns on its first row, one row per variant (a product
// without variants: one row with Option1 Name "Title", Option1 Value "Default Title"), the Nth image (with its alt text)
// on the Nth row and the images beyond the rows on image-only rows. Variant Grams = weight × the unit's grams (at most 7
// decimals, no float noise), Published = the product has the web channel, out_of_stock → Status active. Not written: a
// made-up SKU, the product's own SKU when it has variants (its Handle stands for it), options beyond 3, translations,
// categories, attributes without a metafield, per-warehouse stock.
import { slugify } from '../lib/slug.js';
import { normaliseDecimal, type ProductDraft, type SellingFields, type VariantDraft } from './draft.js';

/** Shopify's export up to the Google Shopping columns. */
const HEAD = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Product Category',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option1 Linked To',
  'Option2 Name',
  'Option2 Value',
  'Option2 Linked To',
  'Option3 Name',
  'Option3 Value',
  'Option3 Linked To',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Unit Price Total Measure',
  'Unit Price Total Measure Unit',
  'Unit Price Base Measure',
  'Unit Price Base Measure Unit',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
] as const;
/** Shopify's export after the metafield columns. */
const TAIL = ['Variant Image', 'Variant Weight Unit', 'Variant Tax Code', 'Cost per item', 'Status'] as const;

/** The Google Shopping columns of Shopify's export: metafields of the namespace GOOGLE_NAMESPACE, by key. */
export const GOOGLE_NAMESPACE = 'mm-google-shopping';
const GOOGLE_EXPORTED: [key: string, header: string][] = [
  ['google_product_category', 'Google Shopping / Google Product Category'],
  ['gender', 'Google Shopping / Gender'],
  ['age_group', 'Google Shopping / Age Group'],
  ['mpn', 'Google Shopping / MPN'],
  ['condition', 'Google Shopping / Condition'],
  ['custom_product', 'Google Shopping / Custom Product'],
  ...[0, 1, 2, 3, 4].map((n): [string, string] => [`custom_label_${n}`, `Google Shopping / Custom Label ${n}`]),
];
/** Google Shopping columns of older exports (Shopify's sample files) and their headers. */
const GOOGLE_OLDER: [key: string, header: string][] = [
  ['adwords_grouping', 'Google Shopping / AdWords Grouping'],
  ['adwords_labels', 'Google Shopping / AdWords Labels'],
];
const GOOGLE_HEADERS = new Map([...GOOGLE_EXPORTED, ...GOOGLE_OLDER]);
/** The newer template's names of Google Shopping columns whose key is not their snake-cased name. */
const GOOGLE_ALIASES: Record<string, string> = {
  'manufacturer part number (mpn)': 'mpn',
  'ad group name': 'adwords_grouping',
  'ads labels': 'adwords_labels',
};

/** The columns of Shopify's product export (without metafield columns beyond the Google Shopping ones), in its order. */
export const SHOPIFY_COLUMNS: readonly string[] = [...HEAD, ...GOOGLE_EXPORTED.map(([, header]) => header), ...TAIL];

export type ShopifyColumn = (typeof HEAD)[number] | (typeof TAIL)[number];
const FIXED: readonly ShopifyColumn[] = [...HEAD, ...TAIL];

/** The newer template's and export's names for the columns we read (lower-case). */
const ALIASES: Record<string, ShopifyColumn> = {
  'url handle': 'Handle',
  description: 'Body (HTML)',
  'product category': 'Product Category',
  'published on online store': 'Published',
  sku: 'Variant SKU',
  barcode: 'Variant Barcode',
  price: 'Variant Price',
  'compare-at price': 'Variant Compare At Price',
  'charge tax': 'Variant Taxable',
  'tax code': 'Variant Tax Code',
  'inventory tracker': 'Variant Inventory Tracker',
  'inventory quantity': 'Variant Inventory Qty',
  'continue selling when out of stock': 'Variant Inventory Policy',
  'weight value (grams)': 'Variant Grams',
  'weight unit for display': 'Variant Weight Unit',
  'requires shipping': 'Variant Requires Shipping',
  'fulfillment service': 'Variant Fulfillment Service',
  'product image url': 'Image Src',
  'variant image url': 'Variant Image',
};
const DEFAULT_OPTION = 'Title';
export const DEFAULT_VALUE = 'Default Title';
export const OPTIONS = [1, 2, 3] as const;

const normalHeader = (header: string) => header.trim().replace(/\s+/g, ' ').toLowerCase();

/** The Shopify column a header cell names, if one we know (metafield and Google Shopping columns aside). */
export function shopifyColumn(header: string): ShopifyColumn | undefined {
  const key = normalHeader(header);
  return FIXED.find((c) => c.toLowerCase() === key) ?? ALIASES[key];
}

/** A header cell naming a product metafield: `Label (product.metafields.ns.key)`, or a Google Shopping column. */
export interface MetafieldColumn {
  /** `namespace.key`. */
  metafield: string;
  /** What the column calls it: the label before the parentheses, or the whole Google Shopping header. */
  label: string;
}

const METAFIELD_HEADER = /^(.*?)\s*\(product\.metafields\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\)$/;

export function shopifyMetafieldOf(header: string): MetafieldColumn | undefined {
  const text = header.trim().replace(/\s+/g, ' ');
  const google = /^google shopping \/ (.+)$/i.exec(text);
  if (google) {
    const name = google[1].toLowerCase();
    const key = GOOGLE_ALIASES[name] ?? name.replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
    return key === '' ? undefined : { metafield: `${GOOGLE_NAMESPACE}.${key}`, label: text };
  }
  const m = METAFIELD_HEADER.exec(text);
  return m ? { metafield: `${m[2]}.${m[3]}`, label: m[1] || m[3] } : undefined;
}

/** The metafield columns of a header, the first of each metafield (a later column for the same metafield is ignored). */
export function shopifyMetafieldColumns(header: string[]): (MetafieldColumn & { index: number })[] {
  const seen = new Set<string>();
  return header.flatMap((h, index) => {
    const column = shopifyMetafieldOf(h);
    if (!column || seen.has(column.metafield)) return [];
    seen.add(column.metafield);
    return [{ ...column, index }];
  });
}

/** The header cell of a metafield in an export: Google Shopping's own names, else `Name (product.metafields.ns.key)`. */
export function metafieldHeader(metafield: string, name: string): string {
  const [namespace, key] = splitMetafield(metafield);
  if (namespace === GOOGLE_NAMESPACE) {
    const known = GOOGLE_HEADERS.get(key);
    if (known) return known;
    if (/^google shopping \/ /i.test(name) && shopifyMetafieldOf(name)?.metafield === metafield) return name;
  }
  return `${name} (product.metafields.${metafield})`;
}

const splitMetafield = (metafield: string): [string, string] => {
  const dot = metafield.indexOf('.');
  return [metafield.slice(0, dot), metafield.slice(dot + 1)];
};

/**
 * The header of an export: Shopify's columns, with a column per mapped metafield (Google Shopping ones beyond the
 * export's own after those, then the others by `ns.key`) between the Google Shopping columns and Variant Image.
 */
export function shopifyHeader(metafields: { metafield: string; name: string }[]): string[] {
  const exported = new Set(GOOGLE_EXPORTED.map(([key]) => `${GOOGLE_NAMESPACE}.${key}`));
  const extra = metafields.filter((m) => !exported.has(m.metafield));
  const isGoogle = (m: { metafield: string }) => m.metafield.startsWith(`${GOOGLE_NAMESPACE}.`);
  const byId = (a: { metafield: string }, b: { metafield: string }) => (a.metafield < b.metafield ? -1 : a.metafield > b.metafield ? 1 : 0);
  const sorted = [...extra.filter(isGoogle).sort(byId), ...extra.filter((m) => !isGoogle(m)).sort(byId)];
  return [...HEAD, ...GOOGLE_EXPORTED.map(([, header]) => header), ...sorted.map((m) => metafieldHeader(m.metafield, m.name)), ...TAIL];
}

/** Why the header cannot be read as Shopify's format; empty when it can. Unknown columns are fine. */
export function shopifyHeaderProblems(columns: string[]): string[] {
  const found = columns.map(shopifyColumn);
  const problems = (['Handle', 'Title'] as const).filter((c) => !found.includes(c)).map((c) => `the '${c}' column is missing`);
  const twice = [...new Set(found.filter((c, i) => c && found.indexOf(c) !== i))];
  return [...problems, ...twice.map((c) => `the column '${c}' appears twice`)];
}

// ---------------------------------------------------------------------------------------------------------------
// Weights: Shopify's files carry grams; the PIM keeps the weight in its unit.

/** Grams in one unit, as an exact decimal (numerator, decimals). */
export const UNIT_GRAMS: Record<string, [bigint, number]> = { g: [1n, 0], kg: [1000n, 0], lb: [45_359_237n, 5], oz: [28_349_523_125n, 9] };

function scaled(text: string): [bigint, number] {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), fraction.length];
}

/** num / den rounded half up (both ≥ 0). */
const roundDiv = (num: bigint, den: bigint) => (2n * num + den) / (2n * den);

function decimalText(value: bigint, decimals: number): string {
  const digits = value.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** Grams (any number of decimals) → the weight in `unit`, rounded to 4 decimals in that unit: 226.796185 g = 0.5 lb. */
export function gramsToWeight(grams: string, unit: string): string {
  const [g, gDecimals] = scaled(grams);
  const [f, fDecimals] = UNIT_GRAMS[unit] ?? UNIT_GRAMS.kg;
  return decimalText(roundDiv(g * 10n ** BigInt(fDecimals + 4), f * 10n ** BigInt(gDecimals)), 4);
}

/** A weight in `unit` → grams, exact up to 7 decimals (rounded half up beyond): 0.5 lb = 226.796185 g, 10 oz = 283.4952313 g. */
export function weightToGrams(weight: string, unit: string): string {
  const [w, wDecimals] = scaled(weight);
  const [f, fDecimals] = UNIT_GRAMS[unit] ?? UNIT_GRAMS.kg;
  const decimals = wDecimals + fDecimals;
  const product = w * f;
  return decimals <= 7 ? decimalText(product, decimals) : decimalText(roundDiv(product, 10n ** BigInt(decimals - 7)), 7);
}

/** Two PIM decimals compared by value. */
export function compareDecimals(a: string, b: string): number {
  const x = BigInt(normaliseDecimal(a)!.replace('.', ''));
  const y = BigInt(normaliseDecimal(b)!.replace('.', ''));
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** A PIM decimal as Shopify writes money: at least 2 decimals, no trailing zeros beyond ("19.9000" → "19.90"). */
function money(value: string): string {
  const [whole, fraction] = normaliseDecimal(value)!.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The inverse of pimPrices: a lower sale price is the price and the regular price the compare-at price. */
function shopifyPrices(
  price: string | null | undefined,
  sale: string | null | undefined,
  compareAt: string | null | undefined,
): { price: string; compareAt: string } {
  const given = compareAt ? money(compareAt) : '';
  if (!price) return { price: sale ? money(sale) : '', compareAt: given };
  if (sale && compareDecimals(sale, price) < 0) return { price: money(sale), compareAt: money(price) };
  return { price: money(price), compareAt: given };
}

const bool = (value: boolean) => (value ? 'TRUE' : 'FALSE');

type Cells = Partial<Record<ShopifyColumn, string>>;

/** A variant's (or a product without variants') selling columns. */
function sellingCells(f: Partial<SellingFields & { weight: string | null; stock_quantity: number; stock_status: string }>): Cells {
  const unit = f.weight_unit ?? 'kg';
  const cells: Cells = {
    'Variant Grams': f.weight ? weightToGrams(f.weight, unit) : '',
    // Not set in the PIM: tracked, as the PIM keeps a quantity.
    'Variant Inventory Tracker': f.inventory_tracked === false ? '' : 'shopify',
    'Variant Inventory Policy': f.inventory_policy ?? (f.stock_status === 'on_backorder' ? 'continue' : 'deny'),
    'Variant Fulfillment Service': 'manual',
    'Variant Requires Shipping': bool(f.requires_shipping ?? true),
    'Variant Taxable': bool(f.taxable ?? true),
    'Variant Barcode': f.barcode ?? '',
    'Variant Weight Unit': unit,
  };
  if (f.stock_quantity !== undefined) cells['Variant Inventory Qty'] = String(f.stock_quantity);
  return cells;
}

function variantCells(v: VariantDraft, options: string[]): Cells {
  const f = v.fields;
  const prices = shopifyPrices(f.price, f.sale_price, f.compare_at_price);
  const cells: Cells = {
    ...sellingCells(f),
    'Variant SKU': v.skuGenerated ? '' : v.sku,
    'Variant Price': prices.price,
    'Variant Compare At Price': prices.compareAt,
    'Variant Image': f.image ?? '',
    'Cost per item': f.cost ? money(f.cost) : '',
  };
  options.forEach((name, i) => {
    cells[`Option${i + 1} Value` as ShopifyColumn] = f.attributes?.find((a) => a.attribute_name === name)?.value ?? '';
  });
  return cells;
}

/** A draft as Shopify rows under `header` (columns we do not write stay empty). */
export function shopifyRows(draft: ProductDraft, header: string[]): string[][] {
  const f = draft.fields;
  const handle = f.slug || slugify(f.name ?? draft.sku);
  const status = f.status === undefined ? undefined : f.status === 'out_of_stock' ? 'active' : f.status;
  const published = draft.published ?? (status === undefined ? undefined : status === 'active');
  const product: Cells = {
    Title: f.name ?? '',
    'Body (HTML)': f.description ?? '',
    Vendor: f.brand ?? '',
    Type: f.storefront_type ?? '',
    'Product Category': f.taxonomy_category ?? '',
    Tags: (f.tags ?? []).join(', '),
    Published: published === undefined ? '' : bool(published),
    'Gift Card': bool(f.gift_card ?? false),
    'SEO Title': f.seo_title ?? '',
    'SEO Description': f.seo_description ?? '',
    Status: status ?? '',
  };
  let rows: Cells[];
  if (draft.variants.length === 0) {
    const prices = shopifyPrices(f.price, f.sale_price, f.compare_at_price);
    rows = [
      {
        ...product,
        ...sellingCells(f),
        'Option1 Name': DEFAULT_OPTION,
        'Option1 Value': DEFAULT_VALUE,
        'Variant SKU': draft.skuGenerated ? '' : draft.sku,
        'Variant Price': prices.price,
        'Variant Compare At Price': prices.compareAt,
        // The storefront barcode; a product never imported from Shopify has only its EAN.
        'Variant Barcode': f.barcode ?? f.ean ?? '',
        'Cost per item': f.cost_price ? money(f.cost_price) : '',
      },
    ];
  } else {
    // Options in order of first appearance over the variants, as the bridge builds them; Shopify takes 3.
    const options = [...new Set(draft.variants.flatMap((v) => (v.fields.attributes ?? []).map((a) => a.attribute_name)))].slice(0, 3);
    const names: Cells = Object.fromEntries(options.map((name, i) => [`Option${i + 1} Name`, name]));
    rows = draft.variants.map((v, i) => ({ ...(i === 0 ? { ...product, ...names } : {}), ...variantCells(v, options) }));
  }
  (draft.images ?? []).forEach((url, i) => {
    rows[i] ??= {};
    rows[i]['Image Src'] = url;
    rows[i]['Image Position'] = String(i + 1);
    rows[i]['Image Alt Text'] = draft.imageAlts?.[i] ?? '';
  });
  const columns = header.map((h) => shopifyColumn(h) ?? shopifyMetafieldOf(h));
  return rows.map((cells, i) =>
    columns.map((column) => {
      if (column === undefined) return '';
      if (typeof column === 'object') return i === 0 ? (draft.metafields?.[column.metafield] ?? '') : '';
      return column === 'Handle' ? handle : (cells[column] ?? '');
    }),
  );
}
