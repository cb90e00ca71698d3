// Shopify's product CSV, as the Shopify admin exports it, read into drafts and written from them.
// Columns: https://help.shopify.com/en/manual/products/import-export/using-csv ("Product CSV description table").
// The table in docs/csv-formats.md repeats these decisions:
//
// Reading
// - Rows are grouped by `Handle` (consecutive; an empty Handle continues the product above). The first row carries the
//   product's columns; later rows are variant rows (Variant SKU, an OptionN Value or Variant Price filled) or image
//   rows (only Image Src). Columns we do not map (Google Shopping, metafields, SEO, Tags…) are accepted and ignored.
//   Headers are matched without case, and the names of Shopify's newer export ("URL handle", "SKU", "Price",
//   "Compare-at price", "Weight value (grams)", "Inventory quantity", "Product image URL"…) are read as aliases.
// - One variant whose Option1 Value is "Default Title" (or that has no option value) is a PIM product without
//   variants: sku = Variant SKU (the Handle when empty), prices from the variant, ean = Variant Barcode, cost_price =
//   Cost per item. Its Variant Inventory Qty and Variant Grams are not read: the PIM's stock is per warehouse (a
//   Shopify file names none) and a product has no weight.
// - Several variants: the product's sku is the Handle; each variant has sku = Variant SKU (`${handle}-${n}`, n its
//   1-based position, when empty), name = its option values joined by " / " (Shopify's variant title), attributes =
//   [{OptionN Name of the first row, OptionN Value}], cost = Cost per item, weight = Variant Grams in kilograms (4
//   decimals; 0 g, Shopify's "no weight", reads as null), stock_quantity = Variant Inventory Qty, image = Variant
//   Image. Variant Barcode is not read (a PIM variant has no barcode).
// - Prices: a Compare At Price above the Price is a sale: price = compare-at, sale_price = Price; else price = Price,
//   sale_price = null (the bridge's pricing() is the inverse).
// - Title → name, Handle → slug, Body (HTML) → description, Vendor → brand, Status → status; categories = [Type split
//   on " > "], then Product Category (split on " > ") when filled; images = the Image Src cells in Image Position
//   order. Tags are not read: the bridge writes the product's categories there, so they would come back doubled;
//   product_type is not set (the PIM's type is structural); Published is not read (the bridge decides publication).
//
// Writing is the inverse: the product's columns on its first row, one row per variant (a product without variants:
// one row with Option1 Name "Title", Option1 Value "Default Title"), the Nth image on the Nth row and the images beyond
// the rows on image-only rows. Type = the first category path, Product Category = the second (Shopify accepts only its
// own taxonomy there), Tags = every category's name, Published = status is active, out_of_stock → Status active.
// Lossy by nature: a multi-variant product's SKU becomes its Handle (= slug), at most 3 options, a sale price that is
// not below the price is dropped, Variant Grams carries at most one decimal (the PIM's 4-decimal kilograms).
import { slugify } from '../lib/slug.js';
import type { CsvRow, RowFormat } from './row-format.js';
import { normaliseDecimal, type ProductDraft, type ProductFields, type RowError, type VariantDraft } from './draft.js';
import { type Checked, choiceCell, cleanCell, decimalCell, defaultVariantName, extraCellsReason, integerCell, PATH_SEPARATOR, urlCell } from './ours-format.js';

/** The columns the admin's export writes (and our writer), in its order. */
export const SHOPIFY_COLUMNS = [
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
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'SEO Title',
  'SEO Description',
  'Variant Image',
  'Variant Weight Unit',
  'Variant Tax Code',
  'Cost per item',
  'Status',
] as const;
type ShopifyColumn = (typeof SHOPIFY_COLUMNS)[number];

/** The newer export's names for the columns we read (lower-case). */
const ALIASES: Record<string, ShopifyColumn> = {
  'url handle': 'Handle',
  description: 'Body (HTML)',
  'published on online store': 'Published',
  sku: 'Variant SKU',
  barcode: 'Variant Barcode',
  price: 'Variant Price',
  'compare-at price': 'Variant Compare At Price',
  'weight value (grams)': 'Variant Grams',
  'inventory quantity': 'Variant Inventory Qty',
  'product image url': 'Image Src',
  'variant image url': 'Variant Image',
};
const DEFAULT_OPTION = 'Title';
const DEFAULT_VALUE = 'Default Title';
const OPTIONS = [1, 2, 3] as const;

/** The Shopify column a header cell names, if one we know. */
export function shopifyColumn(header: string): ShopifyColumn | undefined {
  const key = header.trim().replace(/\s+/g, ' ').toLowerCase();
  return SHOPIFY_COLUMNS.find((c) => c.toLowerCase() === key) ?? ALIASES[key];
}

/** Why the header cannot be read as Shopify's format; empty when it can. Unknown columns are fine. */
export function shopifyHeaderProblems(columns: string[]): string[] {
  const found = columns.map(shopifyColumn);
  const problems = (['Handle', 'Title'] as const).filter((c) => !found.includes(c)).map((c) => `the '${c}' column is missing`);
  const twice = [...new Set(found.filter((c, i) => c && found.indexOf(c) !== i))];
  return [...problems, ...twice.map((c) => `the column '${c}' appears twice`)];
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** Decimal grams → kilograms with at most 4 decimals (grams rounded to 0.1 g); 0 g → null. */
export function gramsToKg(grams: string): string | null {
  const [whole, fraction = ''] = grams.split('.');
  const tenths = BigInt(whole) * 10n + BigInt(fraction.padEnd(2, '0').slice(0, 1)) + (Number(fraction[1] ?? 0) >= 5 ? 1n : 0n);
  if (tenths === 0n) return null;
  const kg = `${tenths / 10_000n}.${(tenths % 10_000n).toString().padStart(4, '0')}`;
  return kg.replace(/\.?0+$/, '');
}

/** Kilograms (≤ 4 decimals) → grams with at most one decimal. */
export function kgToGrams(kg: string): string {
  const [whole, fraction = ''] = kg.split('.');
  const tenths = BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0').slice(0, 4));
  return tenths % 10n === 0n ? String(tenths / 10n) : `${tenths / 10n}.${tenths % 10n}`;
}

function compareDecimals(a: string, b: string): number {
  const x = BigInt(normaliseDecimal(a)!.replace('.', ''));
  const y = BigInt(normaliseDecimal(b)!.replace('.', ''));
  return x < y ? -1 : x > y ? 1 : 0;
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
  quantity: number | null;
  barcode: string | null;
  image: string | null;
}

function regularAndSale(price: string | null, compareAt: string | null): { price: string | null; sale_price: string | null } {
  if (price !== null && compareAt !== null && compareDecimals(compareAt, price) > 0) return { price: compareAt, sale_price: price };
  return { price, sale_price: null };
}

/** Reads Shopify rows, grouped by Handle. */
export function shopifyRowFormat(header: string[]): RowFormat {
  const index = new Map<ShopifyColumn, number>();
  header.forEach((h, i) => {
    const column = shopifyColumn(h);
    if (column && !index.has(column)) index.set(column, i);
  });
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
      grams: checked('Variant Grams', decimalCell),
      quantity: checked('Variant Inventory Qty', integerCell),
      barcode: cell('Variant Barcode') || null,
      image: checked('Variant Image', urlCell),
    };
  }

  return {
    keyName: 'Handle',
    productKey: (cells) => cellOf(cells, 'Handle'),
    build(rows: CsvRow[]) {
      const first = rows[0];
      const handle = cellOf(first.cells, 'Handle');
      const optionNames = OPTIONS.map((n) => cellOf(first.cells, `Option${n} Name`));
      const variants: ShopifyVariant[] = [];
      const images: { url: string; position: number; order: number }[] = [];
      const errors: RowError[] = [];
      const lines: number[] = [];
      let fields: Partial<ProductFields> = {};
      for (const row of rows) {
        const reasons: string[] = [];
        const extra = extraCellsReason(row.cells, header.length);
        if (extra) reasons.push(extra);
        if (row === first) fields = readProductColumns(row.cells, reasons);
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
          if (row === first) {
            const skipped = `not read: the product's first row (line ${first.line}) has errors`;
            return { draft: null, errors: rows.map((r) => ({ line: r.line, sku: handle, reason: r === first ? reasons.join('; ') : skipped })) };
          }
          errors.push({ line: row.line, sku: handle, reason: reasons.join('; ') });
          continue;
        }
        lines.push(row.line);
        if (variant) variants.push(variant);
        if (src !== '') images.push({ url: src, position: position === '' ? Number.MAX_SAFE_INTEGER : Number(position), order: images.length });
      }
      const draft: ProductDraft = { line: first.line, lines, sku: handle, fields, variants: [] };
      if (has('Image Src')) {
        const ordered = images.sort((a, b) => a.position - b.position || a.order - b.order).map((i) => i.url);
        draft.images = [...new Set(ordered)];
      }
      const only = variants.length === 1 ? variants[0] : undefined;
      if (variants.length === 0 || (only && (only.options[0] === DEFAULT_VALUE || only.options.every((o) => o === '')))) {
        // A product without variants: the one Shopify variant carries its SKU, prices, barcode and cost.
        if (only) {
          draft.sku = only.sku || handle;
          if (has('Variant Price')) Object.assign(fields, regularAndSale(only.price, only.compareAt));
          if (has('Variant Barcode')) fields.ean = only.barcode;
          if (has('Cost per item')) fields.cost_price = only.cost;
        }
      } else {
        draft.variants = variants.map((v, n) => toVariantDraft(v, n, handle, optionNames, has));
      }
      return { draft, errors };
    },
  };

  function readProductColumns(cells: string[], reasons: string[]): Partial<ProductFields> {
    const cell = (column: ShopifyColumn) => cellOf(cells, column);
    const fields: Partial<ProductFields> = {};
    const title = cell('Title');
    if (title === '') reasons.push("column 'Title' is empty: a product's first row needs its title");
    else fields.name = title;
    if (cell('Handle') !== '') fields.slug = cell('Handle');
    if (has('Body (HTML)')) fields.description = cell('Body (HTML)') || null;
    if (has('Vendor')) fields.brand = cell('Vendor') || null;
    if (has('Type') || has('Product Category')) {
      const paths = [cell('Type'), cell('Product Category')].filter((p) => p !== '').map((p) => p.split(/\s*>\s*/).filter((name) => name !== ''));
      fields.categories = paths.filter((p) => p.length > 0);
    }
    const status = cell('Status');
    if (status !== '') {
      const checked = choiceCell('Status', status, ['active', 'draft', 'archived']);
      if ('reason' in checked) reasons.push(checked.reason);
      else fields.status = checked.value;
    }
    return fields;
  }
}

function toVariantDraft(v: ShopifyVariant, n: number, handle: string, optionNames: string[], has: (c: ShopifyColumn) => boolean): VariantDraft {
  const attributes = optionNames.flatMap((name, i) => (name !== '' && v.options[i] !== '' ? [{ attribute_name: name, value: v.options[i] }] : []));
  const sku = v.sku || `${handle}-${n + 1}`;
  const fields: VariantDraft['fields'] = { name: defaultVariantName(sku, attributes), attributes };
  if (has('Variant Price')) Object.assign(fields, regularAndSale(v.price, v.compareAt));
  if (has('Cost per item')) fields.cost = v.cost;
  if (has('Variant Grams')) fields.weight = v.grams === null ? null : gramsToKg(v.grams);
  if (v.quantity !== null) fields.stock_quantity = v.quantity;
  if (has('Variant Image')) fields.image = v.image;
  return { line: v.line, sku, fields };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** A PIM decimal as Shopify writes money: at least 2 decimals, no trailing zeros beyond ("19.9000" → "19.90"). */
function money(value: string): string {
  const [whole, fraction] = normaliseDecimal(value)!.split('.');
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

/** The bridge's pricing(): a lower sale price is the price and the regular price the compare-at price. */
function shopifyPrices(price: string | null | undefined, sale: string | null | undefined): { price: string; compareAt: string } {
  if (!price) return { price: sale ? money(sale) : '', compareAt: '' };
  if (sale && compareDecimals(sale, price) < 0) return { price: money(sale), compareAt: money(price) };
  return { price: money(price), compareAt: '' };
}

type Cells = Partial<Record<ShopifyColumn, string>>;

const VARIANT_DEFAULTS: Cells = {
  'Variant Inventory Policy': 'deny',
  'Variant Fulfillment Service': 'manual',
  'Variant Requires Shipping': 'TRUE',
  'Variant Taxable': 'TRUE',
  'Variant Weight Unit': 'kg',
};

function variantCells(v: VariantDraft, options: string[]): Cells {
  const f = v.fields;
  const prices = shopifyPrices(f.price, f.sale_price);
  const cells: Cells = {
    ...VARIANT_DEFAULTS,
    'Variant SKU': v.sku,
    'Variant Grams': f.weight ? kgToGrams(f.weight) : '',
    'Variant Price': prices.price,
    'Variant Compare At Price': prices.compareAt,
    'Variant Image': f.image ?? '',
    'Cost per item': f.cost ? money(f.cost) : '',
  };
  if (f.stock_quantity !== undefined) {
    cells['Variant Inventory Tracker'] = 'shopify';
    cells['Variant Inventory Qty'] = String(f.stock_quantity);
  }
  if (f.stock_status === 'on_backorder') cells['Variant Inventory Policy'] = 'continue';
  options.forEach((name, i) => {
    cells[`Option${i + 1} Value` as ShopifyColumn] = f.attributes?.find((a) => a.attribute_name === name)?.value ?? '';
  });
  return cells;
}

/** A draft as Shopify rows under `header` (columns we do not write stay empty). */
export function shopifyRows(draft: ProductDraft, header: string[]): string[][] {
  const f = draft.fields;
  const handle = f.slug || slugify(f.name ?? draft.sku);
  const categories = f.categories ?? [];
  const status = f.status === undefined ? undefined : f.status === 'out_of_stock' ? 'active' : f.status;
  const product: Cells = {
    Title: f.name ?? '',
    'Body (HTML)': f.description ?? '',
    Vendor: f.brand ?? '',
    Type: categories[0]?.join(PATH_SEPARATOR) ?? '',
    'Product Category': categories[1]?.join(PATH_SEPARATOR) ?? '',
    Tags: [...new Set(categories.map((path) => path[path.length - 1]))].join(', '),
    Published: status === undefined ? '' : status === 'active' ? 'TRUE' : 'FALSE',
    'Gift Card': 'FALSE',
    Status: status ?? '',
  };
  let rows: Cells[];
  if (draft.variants.length === 0) {
    const prices = shopifyPrices(f.price, f.sale_price);
    rows = [
      {
        ...product,
        ...VARIANT_DEFAULTS,
        'Option1 Name': DEFAULT_OPTION,
        'Option1 Value': DEFAULT_VALUE,
        'Variant SKU': draft.sku,
        'Variant Price': prices.price,
        'Variant Compare At Price': prices.compareAt,
        'Variant Barcode': f.ean ?? '',
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
  });
  const columns = header.map(shopifyColumn);
  return rows.map((cells) => columns.map((column) => (column === 'Handle' ? handle : column ? (cells[column] ?? '') : '')));
}
