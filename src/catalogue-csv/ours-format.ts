// Our own CSV format (docs/csv-formats.md): one row per variant, the product's columns repeated on each of its rows
// (on later rows they may also be left empty). Reading turns a product's rows into a ProductDraft, checking each cell's
// syntax only; writing is the inverse. Also home of the cell checks the Shopify format shares.
import { SLUG, slugify } from '../lib/slug.js';
import type { CsvRow, RowFormat } from './row-format.js';
import type { ProductDraft, ProductFields, RowError, TranslationFields, VariantDraft, VariantFields } from './draft.js';

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
type ProductColumn = (typeof PRODUCT_COLUMNS)[number];
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
export const LIST_SEPARATOR = '|';
export const PATH_SEPARATOR = ' > ';

// ---------------------------------------------------------------------------------------------------------------
// Cell checks. Each returns the value, or a reason in plain words naming the column and the value.

export type Checked<T> = { value: T } | { reason: string };
const fail = (column: string, text: string, problem: string): { reason: string } => ({ reason: `column '${column}': '${text}' ${problem}` });

export function decimalCell(column: string, text: string): Checked<string> {
  if (/^\d{1,15}(\.\d{1,4})?$/.test(text)) return { value: text };
  if (/^\d+,\d+$/.test(text)) return fail(column, text, `has a comma; write decimals with a point, e.g. ${text.replace(',', '.')}`);
  if (/^-/.test(text)) return fail(column, text, 'is negative');
  if (/^\d+\.\d{5,}$/.test(text)) return fail(column, text, 'has more than 4 decimal places');
  if (/^\d{16,}(\.\d*)?$/.test(text)) return fail(column, text, 'has more than 15 digits before the point');
  return fail(column, text, 'is not a decimal number such as 19.99');
}

export function integerCell(column: string, text: string): Checked<number> {
  if (!/^[-+]?\d+$/.test(text)) return fail(column, text, 'is not a whole number');
  const value = Number(text);
  if (Math.abs(value) > 1_000_000_000) return fail(column, text, 'is out of range (at most 1000000000)');
  return { value };
}

export function booleanCell(column: string, text: string): Checked<boolean> {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return { value: lower === 'true' };
  return fail(column, text, 'is not true or false');
}

export function choiceCell(column: string, text: string, allowed: readonly string[]): Checked<string> {
  const lower = text.toLowerCase();
  if (allowed.includes(lower)) return { value: lower };
  return fail(column, text, `is not one of ${allowed.join(', ')}`);
}

export function urlCell(column: string, text: string): Checked<string> {
  if (/^https?:\/\/\S+$/i.test(text) && text.length <= 2048) return { value: text };
  return fail(column, text, text.length > 2048 ? 'is longer than 2048 characters' : 'is not an http(s) URL');
}

function currencyCell(column: string, text: string): Checked<string> {
  return /^[A-Z]{3}$/.test(text) ? { value: text } : fail(column, text, 'is not a three-letter currency code such as EUR');
}

function eanCell(column: string, text: string): Checked<string> {
  if (/^\d{8,14}$/.test(text)) return { value: text };
  // Spreadsheets rewrite long numbers as 4.00638E+12: the digits are lost, so only the user can fix it.
  if (/^\d(\.\d+)?e\+\d+$/i.test(text)) return fail(column, text, 'was turned into scientific notation by a spreadsheet; format the column as text');
  return fail(column, text, 'is not a barcode of 8 to 14 digits');
}

/** `a|b|c`: every value non-empty. */
export function listCell(column: string, text: string): Checked<string[]> {
  const values = text.split(LIST_SEPARATOR).map((v) => v.trim());
  if (values.some((v) => v === '')) return fail(column, text, `has an empty value between '${LIST_SEPARATOR}' separators`);
  return { value: values };
}

function urlListCell(column: string, text: string): Checked<string[]> {
  const list = listCell(column, text);
  if ('reason' in list) return list;
  for (const url of list.value) {
    const checked = urlCell(column, url);
    if ('reason' in checked) return checked;
  }
  return list;
}

/** `Apparel > Tops|Sale` → [["Apparel", "Tops"], ["Sale"]]. */
export function categoryPathsCell(column: string, text: string): Checked<string[][]> {
  const list = listCell(column, text);
  if ('reason' in list) return list;
  const paths = list.value.map((path) => path.split(/\s*>\s*/));
  const bad = paths.find((levels) => levels.some((name) => name === ''));
  if (bad) return fail(column, text, `has a category path with an empty level: '${bad.join(PATH_SEPARATOR)}'`);
  return { value: paths };
}

/** A row with non-empty cells beyond the header is misaligned (most often an unquoted comma in a value). */
export function extraCellsReason(cells: string[], width: number): string | null {
  if (cells.length <= width || cells.slice(width).every((c) => c.trim() === '')) return null;
  return `the row has ${cells.length} cells but the header has ${width} columns (a value with a comma that is not in quotes?)`;
}

/** A file cell as a value: trimmed, and a formula escaped on export (`'=…`, see escapeFormula) unescaped. */
export function cleanCell(cell: string | undefined): string {
  const text = (cell ?? '').trim();
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1).trim() : text;
}

/**
 * A product is imported whole or not at all: its bad rows keep their reasons, every other row of it is reported as
 * not imported because of them (in line order).
 */
export function refusedWhole(rows: { line: number }[], key: string, errors: RowError[]): RowError[] {
  const bad = new Map(errors.map((e) => [e.line, e]));
  const lines = [...bad.keys()].sort((a, b) => a - b);
  const why = `not imported: its product has ${lines.length === 1 ? 'a bad row' : 'bad rows'} (line ${lines.join(', ')})`;
  return rows.map((r) => bad.get(r.line) ?? { line: r.line, sku: key, reason: why });
}

/** A variant's name when its cell is empty: its option values ("M / Red"), else its SKU. The importer uses it too. */
export function defaultVariantName(sku: string, attributes: { value: string }[] | undefined): string {
  return attributes && attributes.length > 0 ? attributes.map((a) => a.value).join(' / ') : sku;
}

// ---------------------------------------------------------------------------------------------------------------
// Header

type Column =
  | { kind: 'product'; name: ProductColumn }
  | { kind: 'variant'; name: VariantColumn }
  | { kind: 'attribute'; code: string }
  | { kind: 'stock'; warehouse: string }
  | { kind: 'translation'; field: (typeof TRANSLATED)[number]; locale: string }
  | { kind: 'option'; name: string }
  | { kind: 'ignored' };

/** What a header cell means, or why it means nothing. Empty header cells are ignored (spreadsheets leave some). */
function classify(column: string): Column | { problem: string } {
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
// Reading

interface Layout {
  width: number;
  columns: { index: number; column: Column; header: string }[];
  index: Map<string, number>;
}

function layoutOf(header: string[]): Layout {
  const columns = header.flatMap((h, index) => {
    const column = classify(h);
    return 'problem' in column || column.kind === 'ignored' ? [] : [{ index, column, header: h }];
  });
  return { width: header.length, columns, index: new Map(columns.map((c) => [c.header, c.index])) };
}

type ProductPart = Pick<ProductDraft, 'sku' | 'skuGenerated' | 'fields' | 'attributes' | 'stock' | 'images' | 'imageAlts' | 'translations'>;

/** A selling field's cell (product `x` or variant `variant_x`) into `fields`; false when the column is none of them. */
function sellingCell(name: string, header: string, text: string, fields: Partial<Record<string, unknown>>, reasons: string[]): boolean {
  const take = <T>(checked: Checked<T>) => ('reason' in checked ? reasons.push(checked.reason) : (fields[name] = checked.value));
  switch (name) {
    case 'barcode':
      fields.barcode = text === '' ? null : text;
      return true;
    case 'compare_at_price':
      if (text === '') fields[name] = null;
      else take(decimalCell(header, text));
      return true;
    case 'weight_unit':
      if (text === '') fields[name] = null;
      else take(choiceCell(header, text, WEIGHT_UNITS));
      return true;
    case 'inventory_policy':
      if (text === '') fields[name] = null;
      else take(choiceCell(header, text, INVENTORY_POLICIES));
      return true;
    case 'inventory_tracked':
    case 'taxable':
    case 'requires_shipping':
      if (text === '') fields[name] = null;
      else take(booleanCell(header, text));
      return true;
    default:
      return false;
  }
}

/** The product columns of a product's first row. */
function readProduct(cells: string[], layout: Layout, reasons: string[]): ProductPart {
  const product: ProductPart = { sku: cleanCell(cells[layout.index.get('sku')!]), fields: {} };
  const fields: Partial<Record<keyof ProductFields, unknown>> = product.fields;
  const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
  for (const { index, column, header } of layout.columns) {
    const text = cleanCell(cells[index]);
    if (column.kind === 'attribute') (product.attributes ??= {})[column.code] = text === '' ? null : text;
    else if (column.kind === 'stock') {
      product.stock ??= {};
      if (text !== '') take(integerCell(header, text), (n) => (product.stock![column.warehouse] = n));
    } else if (column.kind === 'translation') {
      ((product.translations ??= {})[column.locale] ??= {})[column.field as keyof TranslationFields] = text === '' ? null : text;
    } else if (column.kind === 'product') {
      const name = column.name;
      switch (name) {
        case 'sku':
          break;
        case 'name':
          if (text === '') reasons.push("column 'name' is empty: a product's first row needs its name");
          else fields.name = text;
          break;
        case 'slug':
          // The API's rule (a slug is the product's Shopify handle): refused here as it would be there.
          if (text !== '' && (!SLUG.test(text) || [...text].length > 255))
            reasons.push(
              `column 'slug': '${text}' is not a slug (lower-case letters of any script, digits and single hyphens, at most 255), e.g. '${slugify(text)}'`,
            );
          else if (text !== '') fields.slug = text;
          break;
        case 'product_type':
          if (text !== '') fields[name] = text;
          break;
        case 'description':
        case 'short_description':
        case 'brand':
        case 'supplier':
          fields[name] = text === '' ? null : text;
          break;
        case 'price':
        case 'sale_price':
        case 'cost_price':
          if (text === '') fields[name] = null;
          else take(decimalCell(name, text), (v) => (fields[name] = v));
          break;
        case 'currency':
          if (text !== '') take(currencyCell(name, text), (v) => (fields.currency = v));
          break;
        case 'status':
          if (text !== '') take(choiceCell(name, text, PRODUCT_STATUSES), (v) => (fields.status = v));
          break;
        case 'product_condition':
          if (text !== '') take(choiceCell(name, text, PRODUCT_CONDITIONS), (v) => (fields.product_condition = v));
          break;
        case 'ean':
          if (text === '') fields.ean = null;
          else take(eanCell(name, text), (v) => (fields.ean = v));
          break;
        case 'publishing_channels':
          if (text === '') fields.publishing_channels = [];
          else take(listCell(name, text), (v) => (fields.publishing_channels = v));
          break;
        case 'categories':
          if (text === '') fields.categories = [];
          else take(categoryPathsCell(name, text), (v) => (fields.categories = v));
          break;
        case 'images':
          if (text === '') product.images = [];
          else take(urlListCell(name, text), (v) => (product.images = v));
          break;
        case 'image_alt_texts':
          // One entry per image, in order; an empty entry is an image without alt text.
          product.imageAlts = text === '' ? [] : text.split(LIST_SEPARATOR).map((alt) => (alt.trim() === '' ? null : alt.trim()));
          break;
        case 'tags':
          if (text === '') fields.tags = [];
          else take(listCell(name, text), (v) => (fields.tags = [...new Set(v)]));
          break;
        case 'seo_title':
        case 'seo_description':
        case 'storefront_type':
        case 'taxonomy_category':
          fields[name] = text === '' ? null : text;
          break;
        case 'gift_card':
          if (text !== '') take(booleanCell(name, text), (v) => (fields.gift_card = v));
          break;
        case 'stock':
          if (text !== '') take(integerCell(name, text), (v) => (fields.stock_quantity = v));
          break;
        case 'weight':
          if (text === '') fields.weight = null;
          else take(decimalCell(name, text), (v) => (fields.weight = v));
          break;
        case 'sku_generated':
          if (text !== '') take(booleanCell(name, text), (v) => (product.skuGenerated = v));
          break;
        default:
          sellingCell(name, name, text, fields, reasons);
      }
    }
  }
  return product;
}

/** The variant on a row, null when its variant cells are all empty (a product without variants). */
function readVariant(cells: string[], layout: Layout, reasons: string[]): Omit<VariantDraft, 'line'> | null {
  const variantCells = layout.columns.filter((c) => c.column.kind === 'variant' || c.column.kind === 'option');
  if (variantCells.length === 0) return null;
  const sku = cleanCell(cells[layout.index.get('variant_sku') ?? -1]);
  if (sku === '') {
    if (variantCells.some((c) => cleanCell(cells[c.index]) !== '')) reasons.push("column 'variant_sku' is empty but other variant columns are filled");
    return null;
  }
  const fields: Partial<Record<keyof VariantFields, unknown>> = {};
  const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
  const attributes: { attribute_name: string; value: string }[] = [];
  let nameColumn = false;
  let skuGenerated: boolean | undefined;
  for (const { index, column, header } of variantCells) {
    const text = cleanCell(cells[index]);
    if (column.kind === 'option') {
      if (text !== '') attributes.push({ attribute_name: column.name, value: text });
      continue;
    }
    if (column.kind !== 'variant') continue;
    const decimal = (key: keyof VariantFields) => (text === '' ? (fields[key] = null) : take(decimalCell(header, text), (v) => (fields[key] = v)));
    switch (column.name) {
      case 'variant_name':
        nameColumn = true;
        if (text !== '') fields.name = text;
        break;
      case 'variant_price':
        decimal('price');
        break;
      case 'variant_sale_price':
        decimal('sale_price');
        break;
      case 'variant_cost':
        decimal('cost');
        break;
      case 'variant_weight':
        decimal('weight');
        break;
      case 'variant_stock':
        if (text !== '') take(integerCell(header, text), (v) => (fields.stock_quantity = v));
        break;
      case 'variant_stock_status':
        if (text !== '') take(choiceCell(header, text, STOCK_STATUSES), (v) => (fields.stock_status = v));
        break;
      case 'variant_enabled':
        if (text !== '') take(booleanCell(header, text), (v) => (fields.is_enabled = v));
        break;
      case 'variant_image':
        if (text === '') fields.image = null;
        else take(urlCell(header, text), (v) => (fields.image = v));
        break;
      case 'variant_sku_generated':
        if (text !== '') take(booleanCell(header, text), (v) => (skuGenerated = v));
        break;
      default:
        sellingCell(column.name.slice('variant_'.length), header, text, fields, reasons);
    }
  }
  if (variantCells.some((c) => c.column.kind === 'option')) fields.attributes = attributes;
  // An empty name cell names the variant after its options (the column absent: the importer keeps the name).
  if (nameColumn && fields.name === undefined) fields.name = defaultVariantName(sku, attributes);
  return { sku, ...(skuGenerated === undefined ? {} : { skuGenerated }), fields: fields as Partial<VariantFields> };
}

/** Reads our format's rows, grouped by `sku` (an empty `sku` continues the product above). */
export function oursRowFormat(header: string[]): RowFormat {
  const layout = layoutOf(header);
  const skuIndex = layout.index.get('sku')!;
  const productColumns = layout.columns.filter((c) => c.column.kind !== 'variant' && c.column.kind !== 'option');
  return {
    keyName: 'product SKU',
    uniqueSkus: true,
    productKey: (cells) => cleanCell(cells[skuIndex]),
    build(rows: CsvRow[]) {
      const [first, ...later] = rows;
      const reasons: string[] = [];
      const extra = extraCellsReason(first.cells, layout.width);
      if (extra) reasons.push(extra);
      const product = readProduct(first.cells, layout, reasons);
      const firstVariant = readVariant(first.cells, layout, reasons);
      const errorOf = (row: CsvRow, why: string[]): RowError => ({ line: row.line, sku: product.sku, reason: why.join('; ') });
      if (reasons.length > 0) {
        const skipped = `not read: the product's first row (line ${first.line}) has errors`;
        return { draft: null, errors: [errorOf(first, reasons), ...later.map((row) => errorOf(row, [skipped]))] };
      }
      const draft: ProductDraft = { line: first.line, lines: [first.line], ...product, variants: [] };
      if (firstVariant) draft.variants.push({ line: first.line, ...firstVariant });
      const errors: RowError[] = [];
      for (const row of later) {
        const why: string[] = [];
        const extraCells = extraCellsReason(row.cells, layout.width);
        if (extraCells) why.push(extraCells);
        for (const { index, header: column } of productColumns) {
          const text = cleanCell(row.cells[index]);
          if (text !== '' && text !== cleanCell(first.cells[index])) why.push(`product column '${column}' differs from line ${first.line}`);
        }
        const variant = why.length === 0 ? readVariant(row.cells, layout, why) : null;
        if (why.length > 0) errors.push(errorOf(row, why));
        else {
          draft.lines.push(row.line);
          if (variant) draft.variants.push({ line: row.line, ...variant });
        }
      }
      // A product is imported whole or not at all: one bad row refuses all of them.
      if (errors.length > 0) return { draft: null, errors: refusedWhole(rows, product.sku, errors) };
      return { draft, errors };
    },
  };
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
