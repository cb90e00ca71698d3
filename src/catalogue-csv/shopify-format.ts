// Shopify's product CSV, as the Shopify admin exports it, read into drafts and written from them, so that a file
// exported from a shop, imported and exported again is the same file (the differences that remain, each with its
// reason: docs/csv-formats.md). Columns: https://help.shopify.com/en/manual/products/import-export/using-csv.
//
// Reading
// - Rows are grouped by `Handle` (consecutive; an empty Handle continues the product above). The first row carries the
//   product's columns; later rows are variant rows (Variant SKU, an OptionN Value or Variant Price filled) or image
//   rows. Headers are matched without case; the names of Shopify's newer template ("URL handle", "SKU", "Price",
//   "Compare-at price", "Weight value (grams)", "Charge tax", "Continue selling when out of stock"…) are read as the
//   columns they replace. Columns we do not keep (Option Linked To, Unit Price…, Variant Fulfillment Service, Variant
//   Tax Code, market prices, variant metafields) are accepted and ignored.
// - The importer matches a Shopify file's products by Handle (the PIM's slug), not by SKU: a Shopify SKU need not be
//   unique, nor given. The product's SKU is its one variant's Variant SKU, else the Handle; a variant's is its Variant
//   SKU, else `{handle}-{n}` (n its 1-based place); a SKU made up so is marked (`skuGenerated`) and never written back.
// - Product columns: Title → name, Body (HTML) → description, Vendor → brand, Type → storefront_type (the merchant's
//   product type; the PIM's product_type is structural and never set from a file), Product Category →
//   taxonomy_category (Shopify's Standard Product Taxonomy, not a PIM category: Shopify files leave categories alone),
//   Tags → tags (split on commas), SEO Title / SEO Description, Gift Card, Status → status. `Published` is the web
//   channel (published on the online store), and the status when the Status column is missing or empty (TRUE →
//   active, FALSE → draft). Metafield columns (`Label (product.metafields.ns.key)`) and Google Shopping columns
//   (`Google Shopping / Gender` = metafield mm-google-shopping.gender) → `metafields` by `ns.key`: the importer keeps
//   each in the product attribute mapped to that metafield (made when missing).
// - One variant whose Option1 Value is "Default Title" (or without option values) is a PIM product without variants:
//   the variant's columns are the product's (prices, cost, barcode, weight, quantity → the product's own stock, and the
//   selling fields below). Several variants: variants with options (the OptionN Names of the first row), name = the
//   values joined by " / " (Shopify's variant title).
// - A variant's columns: Variant Price / Variant Compare At Price → a compare-at price above the price is a sale
//   (price = compare-at, sale_price = Price); else price = Price and compare_at_price = the compare-at price as given.
//   Cost per item → cost, Variant Barcode → barcode (free text; the product's `ean` is never set from a Shopify file),
//   Variant Grams + Variant Weight Unit → weight in that unit (grams ÷ the unit's grams, rounded to 4 decimals in the
//   unit; no unit column: kilograms), Variant Inventory Qty → quantity, Variant Inventory Tracker → inventory_tracked
//   (empty: false), Variant Inventory Policy → inventory_policy, Variant Taxable, Variant Requires Shipping, Variant
//   Image → image.
// - Image Src (+ Image Position, Image Alt Text) on any row → images in position order (duplicates dropped), with their
//   alt texts.
// - A product is imported whole or not at all: a bad cell on any of its rows refuses all its rows.
//
// Writing is the inverse, with the columns of Shopify's product export (SHOPIFY_COLUMNS, the metafield columns of the
// organization's mapped attributes among them): the product's columns on its first row, one row per variant (a product
// without variants: one row with Option1 Name "Title", Option1 Value "Default Title"), the Nth image (with its alt text)
// on the Nth row and the images beyond the rows on image-only rows. Variant Grams = weight × the unit's grams (at most 7
// decimals, no float noise), Published = the product has the web channel, out_of_stock → Status active. Not written: a
// made-up SKU, the product's own SKU when it has variants (its Handle stands for it), options beyond 3, translations,
// categories, attributes without a metafield, per-warehouse stock.
import { SLUG, slugify } from '../lib/slug.js';
import type { CsvRow, RowFormat } from './row-format.js';
import { normaliseDecimal, type ProductDraft, type ProductFields, type RowError, type SellingFields, type VariantDraft } from './draft.js';
import {
  booleanCell,
  type Checked,
  choiceCell,
  cleanCell,
  decimalCell,
  defaultVariantName,
  extraCellsReason,
  integerCell,
  refusedWhole,
  urlCell,
} from './cells.js';

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

type ShopifyColumn = (typeof HEAD)[number] | (typeof TAIL)[number];
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
const DEFAULT_VALUE = 'Default Title';
const OPTIONS = [1, 2, 3] as const;

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
const UNIT_GRAMS: Record<string, [bigint, number]> = { g: [1n, 0], kg: [1000n, 0], lb: [45_359_237n, 5], oz: [28_349_523_125n, 9] };

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

// ---------------------------------------------------------------------------------------------------------------
// Reading

function compareDecimals(a: string, b: string): number {
  const x = BigInt(normaliseDecimal(a)!.replace('.', ''));
  const y = BigInt(normaliseDecimal(b)!.replace('.', ''));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Grams: a non-negative decimal with any number of decimals (Shopify's template has 226.796185). */
function gramsCell(column: string, text: string): Checked<string> {
  if (/^\d{1,15}(\.\d+)?$/.test(text)) return { value: text };
  return decimalCell(column, text);
}

/** One row's variant columns, checked. */
interface ShopifyVariant {
  line: number;
  sku: string;
  options: string[];
  price: string | null;
  compareAt: string | null;
  cost: string | null;
  grams: string | null;
  unit: string | null;
  quantity: number | null;
  barcode: string | null;
  image: string | null;
  tracked: boolean;
  policy: string | null;
  taxable: boolean | null;
  requiresShipping: boolean | null;
}

/** A Shopify price and compare-at price as the PIM keeps them: a compare-at price above the price is a sale. */
function pimPrices(price: string | null, compareAt: string | null): { price: string | null; sale_price: string | null; compare_at_price: string | null } {
  if (price !== null && compareAt !== null && compareDecimals(compareAt, price) > 0) return { price: compareAt, sale_price: price, compare_at_price: null };
  return { price, sale_price: null, compare_at_price: compareAt };
}

/** Reads Shopify rows, grouped by Handle. */
export function shopifyRowFormat(header: string[]): RowFormat {
  const index = new Map<ShopifyColumn, number>();
  header.forEach((h, i) => {
    const column = shopifyColumn(h);
    if (column && !index.has(column)) index.set(column, i);
  });
  const metafields = shopifyMetafieldColumns(header);
  const has = (column: ShopifyColumn) => index.has(column);
  const cellOf = (cells: string[], column: ShopifyColumn) => (index.has(column) ? cleanCell(cells[index.get(column)!]) : '');
  const variantColumns: ShopifyColumn[] = ['Variant SKU', 'Option1 Value', 'Option2 Value', 'Option3 Value', 'Variant Price'];

  function readVariant(row: CsvRow, reasons: string[]): ShopifyVariant {
    const cell = (column: ShopifyColumn) => cellOf(row.cells, column);
    const checked = <T>(column: ShopifyColumn, check: (column: string, text: string) => Checked<T>): T | null => {
      const text = cell(column);
      if (text === '') return null;
      const result = check(column, text);
      if ('reason' in result) {
        reasons.push(result.reason);
        return null;
      }
      return result.value;
    };
    return {
      line: row.line,
      sku: cell('Variant SKU'),
      options: OPTIONS.map((n) => cell(`Option${n} Value`)),
      price: checked('Variant Price', decimalCell),
      compareAt: checked('Variant Compare At Price', decimalCell),
      cost: checked('Cost per item', decimalCell),
      grams: checked('Variant Grams', gramsCell),
      unit: checked('Variant Weight Unit', (c, t) => choiceCell(c, t, Object.keys(UNIT_GRAMS))),
      quantity: checked('Variant Inventory Qty', integerCell),
      barcode: cell('Variant Barcode') || null,
      image: checked('Variant Image', urlCell),
      tracked: cell('Variant Inventory Tracker') !== '',
      policy: checked('Variant Inventory Policy', (c, t) => choiceCell(c, t, ['deny', 'continue'])),
      taxable: checked('Variant Taxable', booleanCell),
      requiresShipping: checked('Variant Requires Shipping', booleanCell),
    };
  }

  /** A variant's selling columns as draft fields (those whose column is in the file). */
  function sellingFields(v: ShopifyVariant): Partial<SellingFields & { price: string | null; sale_price: string | null; weight: string | null }> {
    const fields: ReturnType<typeof sellingFields> = {};
    if (has('Variant Price')) {
      const prices = pimPrices(v.price, v.compareAt);
      fields.price = prices.price;
      fields.sale_price = prices.sale_price;
      if (has('Variant Compare At Price')) fields.compare_at_price = prices.compare_at_price;
    }
    if (has('Variant Barcode')) fields.barcode = v.barcode;
    // Grams are in the file's unit column (kilograms without one); a unit column alone changes nothing.
    if (has('Variant Grams')) {
      fields.weight = v.grams === null ? null : gramsToWeight(v.grams, v.unit ?? 'kg');
      fields.weight_unit = v.unit;
    }
    if (has('Variant Inventory Tracker')) fields.inventory_tracked = v.tracked;
    if (has('Variant Inventory Policy')) fields.inventory_policy = v.policy;
    if (has('Variant Taxable')) fields.taxable = v.taxable;
    if (has('Variant Requires Shipping')) fields.requires_shipping = v.requiresShipping;
    return fields;
  }

  function toVariantDraft(v: ShopifyVariant, n: number, handle: string, optionNames: string[]): VariantDraft {
    const attributes = optionNames.flatMap((name, i) => (name !== '' && v.options[i] !== '' ? [{ attribute_name: name, value: v.options[i] }] : []));
    const sku = v.sku || `${handle}-${n + 1}`;
    const fields: VariantDraft['fields'] = { name: defaultVariantName(sku, attributes), attributes, ...sellingFields(v) };
    if (has('Cost per item')) fields.cost = v.cost;
    if (v.quantity !== null) fields.stock_quantity = v.quantity;
    if (has('Variant Image')) fields.image = v.image;
    return { line: v.line, sku, ...(v.sku === '' ? { skuGenerated: true } : {}), fields };
  }

  return {
    keyName: 'Handle',
    uniqueSkus: false,
    productKey: (cells) => cellOf(cells, 'Handle'),
    build(rows: CsvRow[]) {
      const first = rows[0];
      const handle = cellOf(first.cells, 'Handle');
      const optionNames = OPTIONS.map((n) => cellOf(first.cells, `Option${n} Name`));
      const variants: ShopifyVariant[] = [];
      const images: { url: string; alt: string | null; position: number; order: number }[] = [];
      const errors: RowError[] = [];
      const lines: number[] = [];
      let product: ReturnType<typeof readProductColumns> = { fields: {} };
      for (const row of rows) {
        const reasons: string[] = [];
        const extra = extraCellsReason(row.cells, header.length);
        if (extra) reasons.push(extra);
        if (row === first) product = readProductColumns(row.cells, reasons);
        const isVariant = variantColumns.some((c) => cellOf(row.cells, c) !== '');
        const variant = isVariant ? readVariant(row, reasons) : null;
        variant?.options.forEach((value, i) => {
          if (value !== '' && optionNames[i] === '')
            reasons.push(`column 'Option${i + 1} Value' is filled but the product's first row (line ${first.line}) has no 'Option${i + 1} Name'`);
        });
        const src = cellOf(row.cells, 'Image Src');
        const position = cellOf(row.cells, 'Image Position');
        if (src !== '') {
          const url = urlCell('Image Src', src);
          if ('reason' in url) reasons.push(url.reason);
          if (position !== '' && !/^\d{1,6}$/.test(position)) reasons.push(`column 'Image Position': '${position}' is not a whole number`);
        }
        if (reasons.length > 0) {
          errors.push({ line: row.line, sku: handle, reason: reasons.join('; ') });
          continue;
        }
        lines.push(row.line);
        if (variant) variants.push(variant);
        if (src !== '') {
          const alt = cellOf(row.cells, 'Image Alt Text') || null;
          images.push({ url: src, alt, position: position === '' ? Number.MAX_SAFE_INTEGER : Number(position), order: images.length });
        }
      }
      // A product is imported whole or not at all (Shopify refuses a file's product with a bad row the same way).
      if (errors.length > 0) return { draft: null, errors: refusedWhole(rows, handle, errors) };

      const { fields, published, metafieldValues } = product;
      const draft: ProductDraft = { line: first.line, lines, sku: handle, fields, variants: [] };
      if (published !== undefined) draft.published = published;
      if (metafieldValues) draft.metafields = metafieldValues;
      if (has('Image Src')) {
        const ordered = images.sort((a, b) => a.position - b.position || a.order - b.order);
        const seen = new Set<string>();
        const unique = ordered.filter((i) => !seen.has(i.url) && seen.add(i.url));
        draft.images = unique.map((i) => i.url);
        if (has('Image Alt Text')) draft.imageAlts = unique.map((i) => i.alt);
      }
      const only = variants.length === 1 ? variants[0] : undefined;
      if (variants.length === 0 || (only && (only.options[0] === DEFAULT_VALUE || only.options.every((o) => o === '')))) {
        // A product without variants: the one Shopify variant carries its SKU, prices, barcode, weight, stock and cost.
        draft.sku = only?.sku || handle;
        if (!only?.sku) draft.skuGenerated = true;
        if (only) {
          Object.assign(fields, sellingFields(only));
          if (has('Cost per item')) fields.cost_price = only.cost;
          if (only.quantity !== null) fields.stock_quantity = only.quantity;
        }
      } else {
        draft.skuGenerated = true;
        draft.variants = variants.map((v, n) => toVariantDraft(v, n, handle, optionNames));
      }
      return { draft, errors };
    },
  };

  function readProductColumns(
    cells: string[],
    reasons: string[],
  ): { fields: Partial<ProductFields>; published?: boolean; metafieldValues?: Record<string, string | null> } {
    const cell = (column: ShopifyColumn) => cellOf(cells, column);
    const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
    const fields: Partial<ProductFields> = {};
    const title = cell('Title');
    if (title === '') reasons.push("column 'Title' is empty: a product's first row needs its title");
    else fields.name = title;
    // A hand-made file's handle that is not one ("Blue Shirt") becomes the handle Shopify would make of it.
    const handle = cell('Handle');
    if (handle !== '') fields.slug = SLUG.test(handle) && [...handle].length <= 255 ? handle : slugify(handle);
    if (has('Body (HTML)')) fields.description = cell('Body (HTML)') || null;
    if (has('Vendor')) fields.brand = cell('Vendor') || null;
    if (has('Type')) fields.storefront_type = cell('Type') || null;
    if (has('Product Category')) fields.taxonomy_category = cell('Product Category') || null;
    if (has('Tags')) {
      fields.tags = [
        ...new Set(
          cell('Tags')
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        ),
      ];
    }
    if (has('SEO Title')) fields.seo_title = cell('SEO Title') || null;
    if (has('SEO Description')) fields.seo_description = cell('SEO Description') || null;
    if (cell('Gift Card') !== '') take(booleanCell('Gift Card', cell('Gift Card')), (v) => (fields.gift_card = v));
    let published: boolean | undefined;
    if (cell('Published') !== '') take(booleanCell('Published', cell('Published')), (v) => (published = v));
    const status = cell('Status');
    if (status !== '') take(choiceCell('Status', status, ['active', 'draft', 'archived']), (v) => (fields.status = v));
    else if (published !== undefined) fields.status = published ? 'active' : 'draft';
    const result: ReturnType<typeof readProductColumns> = { fields, published };
    if (metafields.length > 0) {
      result.metafieldValues = Object.fromEntries(metafields.map((m) => [m.metafield, cleanCell(cells[m.index]) || null]));
    }
    return result;
  }
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
