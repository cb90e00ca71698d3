// Reading Shopify's product CSV (shopify-format.ts holds its columns, its weights and the writing; the differences a
// round trip leaves: docs/csv-formats.md). Columns: https://help.shopify.com/en/manual/products/import-export/using-csv.
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
import { SLUG, slugify } from '../lib/slug.js';
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
import type { ProductDraft, ProductFields, RowError, SellingFields, VariantDraft } from './draft.js';
import type { CsvRow, RowFormat } from './row-format.js';
import {
  compareDecimals,
  DEFAULT_VALUE,
  gramsToWeight,
  OPTIONS,
  type ShopifyColumn,
  shopifyColumn,
  shopifyMetafieldColumns,
  UNIT_GRAMS,
} from './shopify-format.js';

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

/** The product's own columns of its first row. */
type ProductColumns = { fields: Partial<ProductFields>; published?: boolean; metafieldValues?: Record<string, string | null> };

/** A product's rows as read: its columns, its variants and images in file order, the rows' errors and lines. */
interface ReadRows {
  product: ProductColumns;
  variants: ShopifyVariant[];
  images: { url: string; alt: string | null; position: number; order: number }[];
  errors: RowError[];
  lines: number[];
}

/** Rows that fill one of these are variant rows (the others are image rows). */
const VARIANT_COLUMNS: ShopifyColumn[] = ['Variant SKU', 'Option1 Value', 'Option2 Value', 'Option3 Value', 'Variant Price'];

/** Reads Shopify rows, grouped by Handle. */
export function shopifyRowFormat(header: string[]): RowFormat {
  const rows = new ShopifyRows(header);
  return {
    keyName: 'Handle',
    uniqueSkus: false,
    productKey: (cells) => rows.cellOf(cells, 'Handle'),
    build: (product) => rows.build(product),
  };
}

/** A file's header, and how a product's rows under it are read. */
class ShopifyRows {
  /** Each known column's first index in the header. */
  private readonly index = new Map<ShopifyColumn, number>();
  private readonly metafields: ReturnType<typeof shopifyMetafieldColumns>;

  constructor(private readonly header: string[]) {
    header.forEach((h, i) => {
      const column = shopifyColumn(h);
      if (column && !this.index.has(column)) this.index.set(column, i);
    });
    this.metafields = shopifyMetafieldColumns(header);
  }

  has(column: ShopifyColumn): boolean {
    return this.index.has(column);
  }

  cellOf(cells: string[], column: ShopifyColumn): string {
    return this.index.has(column) ? cleanCell(cells[this.index.get(column)!]) : '';
  }

  build(rows: CsvRow[]): ReturnType<RowFormat['build']> {
    const first = rows[0];
    const handle = this.cellOf(first.cells, 'Handle');
    const optionNames = OPTIONS.map((n) => this.cellOf(first.cells, `Option${n} Name`));
    const read = this.readRows(rows, handle, optionNames);
    // A product is imported whole or not at all (Shopify refuses a file's product with a bad row the same way).
    if (read.errors.length > 0) return { draft: null, errors: refusedWhole(rows, handle, read.errors) };
    return { draft: this.draftOf(first, handle, optionNames, read), errors: read.errors };
  }

  /** Every row of the product checked: the first row's product columns, each row's variant and image. */
  private readRows(rows: CsvRow[], handle: string, optionNames: string[]): ReadRows {
    const first = rows[0];
    const read: ReadRows = { product: { fields: {} }, variants: [], images: [], errors: [], lines: [] };
    const { variants, images, errors, lines } = read;
    for (const row of rows) {
      const reasons: string[] = [];
      const extra = extraCellsReason(row.cells, this.header.length);
      if (extra) reasons.push(extra);
      if (row === first) read.product = this.readProductColumns(row.cells, reasons);
      const isVariant = VARIANT_COLUMNS.some((c) => this.cellOf(row.cells, c) !== '');
      const variant = isVariant ? this.readVariant(row, reasons) : null;
      variant?.options.forEach((value, i) => {
        if (value !== '' && optionNames[i] === '')
          reasons.push(`column 'Option${i + 1} Value' is filled but the product's first row (line ${first.line}) has no 'Option${i + 1} Name'`);
      });
      const src = this.cellOf(row.cells, 'Image Src');
      const position = this.cellOf(row.cells, 'Image Position');
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
        const alt = this.cellOf(row.cells, 'Image Alt Text') || null;
        images.push({ url: src, alt, position: position === '' ? Number.MAX_SAFE_INTEGER : Number(position), order: images.length });
      }
    }
    return read;
  }

  /** The product's draft from its rows: a product without variants carries its one Shopify variant's columns. */
  private draftOf(first: CsvRow, handle: string, optionNames: string[], read: ReadRows): ProductDraft {
    const { product, variants, images, lines } = read;
    const { fields, published, metafieldValues } = product;
    const draft: ProductDraft = { line: first.line, lines, sku: handle, fields, variants: [] };
    if (published !== undefined) draft.published = published;
    if (metafieldValues) draft.metafields = metafieldValues;
    if (this.has('Image Src')) {
      const ordered = images.sort((a, b) => a.position - b.position || a.order - b.order);
      const seen = new Set<string>();
      const unique = ordered.filter((i) => !seen.has(i.url) && seen.add(i.url));
      draft.images = unique.map((i) => i.url);
      if (this.has('Image Alt Text')) draft.imageAlts = unique.map((i) => i.alt);
    }
    const only = variants.length === 1 ? variants[0] : undefined;
    if (variants.length === 0 || (only && (only.options[0] === DEFAULT_VALUE || only.options.every((o) => o === '')))) {
      // A product without variants: the one Shopify variant carries its SKU, prices, barcode, weight, stock and cost.
      draft.sku = only?.sku || handle;
      if (!only?.sku) draft.skuGenerated = true;
      if (only) {
        Object.assign(fields, this.sellingFields(only));
        if (this.has('Cost per item')) fields.cost_price = only.cost;
        if (only.quantity !== null) fields.stock_quantity = only.quantity;
      }
    } else {
      draft.skuGenerated = true;
      draft.variants = variants.map((v, n) => this.toVariantDraft(v, n, handle, optionNames));
    }
    return draft;
  }

  private readVariant(row: CsvRow, reasons: string[]): ShopifyVariant {
    const cell = (column: ShopifyColumn) => this.cellOf(row.cells, column);
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
  private sellingFields(v: ShopifyVariant): Partial<SellingFields & { price: string | null; sale_price: string | null; weight: string | null }> {
    const fields: ReturnType<ShopifyRows['sellingFields']> = {};
    if (this.has('Variant Price')) {
      const prices = pimPrices(v.price, v.compareAt);
      fields.price = prices.price;
      fields.sale_price = prices.sale_price;
      if (this.has('Variant Compare At Price')) fields.compare_at_price = prices.compare_at_price;
    }
    if (this.has('Variant Barcode')) fields.barcode = v.barcode;
    // Grams are in the file's unit column (kilograms without one); a unit column alone changes nothing.
    if (this.has('Variant Grams')) {
      fields.weight = v.grams === null ? null : gramsToWeight(v.grams, v.unit ?? 'kg');
      fields.weight_unit = v.unit;
    }
    if (this.has('Variant Inventory Tracker')) fields.inventory_tracked = v.tracked;
    if (this.has('Variant Inventory Policy')) fields.inventory_policy = v.policy;
    if (this.has('Variant Taxable')) fields.taxable = v.taxable;
    if (this.has('Variant Requires Shipping')) fields.requires_shipping = v.requiresShipping;
    return fields;
  }

  private toVariantDraft(v: ShopifyVariant, n: number, handle: string, optionNames: string[]): VariantDraft {
    const attributes = optionNames.flatMap((name, i) => (name !== '' && v.options[i] !== '' ? [{ attribute_name: name, value: v.options[i] }] : []));
    const sku = v.sku || `${handle}-${n + 1}`;
    const fields: VariantDraft['fields'] = { name: defaultVariantName(sku, attributes), attributes, ...this.sellingFields(v) };
    if (this.has('Cost per item')) fields.cost = v.cost;
    if (v.quantity !== null) fields.stock_quantity = v.quantity;
    if (this.has('Variant Image')) fields.image = v.image;
    return { line: v.line, sku, ...(v.sku === '' ? { skuGenerated: true } : {}), fields };
  }

  private readProductColumns(cells: string[], reasons: string[]): ProductColumns {
    const cell = (column: ShopifyColumn) => this.cellOf(cells, column);
    const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
    const fields: Partial<ProductFields> = {};
    const title = cell('Title');
    if (title === '') reasons.push("column 'Title' is empty: a product's first row needs its title");
    else fields.name = title;
    // A hand-made file's handle that is not one ("Blue Shirt") becomes the handle Shopify would make of it.
    const handle = cell('Handle');
    if (handle !== '') fields.slug = SLUG.test(handle) && [...handle].length <= 255 ? handle : slugify(handle);
    if (this.has('Body (HTML)')) fields.description = cell('Body (HTML)') || null;
    if (this.has('Vendor')) fields.brand = cell('Vendor') || null;
    if (this.has('Type')) fields.storefront_type = cell('Type') || null;
    if (this.has('Product Category')) fields.taxonomy_category = cell('Product Category') || null;
    if (this.has('Tags')) {
      fields.tags = [
        ...new Set(
          cell('Tags')
            .split(',')
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        ),
      ];
    }
    if (this.has('SEO Title')) fields.seo_title = cell('SEO Title') || null;
    if (this.has('SEO Description')) fields.seo_description = cell('SEO Description') || null;
    if (cell('Gift Card') !== '') take(booleanCell('Gift Card', cell('Gift Card')), (v) => (fields.gift_card = v));
    let published: boolean | undefined;
    if (cell('Published') !== '') take(booleanCell('Published', cell('Published')), (v) => (published = v));
    const status = cell('Status');
    if (status !== '') take(choiceCell('Status', status, ['active', 'draft', 'archived']), (v) => (fields.status = v));
    else if (published !== undefined) fields.status = published ? 'active' : 'draft';
    const result: ProductColumns = { fields, published };
    if (this.metafields.length > 0) {
      result.metafieldValues = Object.fromEntries(this.metafields.map((m) => [m.metafield, cleanCell(cells[m.index]) || null]));
    }
    return result;
  }
}
