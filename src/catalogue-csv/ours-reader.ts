// Reading our CSV format (ours-format.ts holds its columns and header): a product's rows into a ProductDraft, each
// cell's syntax checked (cells.ts); the product's columns from its first row, a variant from each row.
import { SLUG, slugify } from '../lib/slug.js';
import {
  booleanCell,
  categoryPathsCell,
  type Checked,
  choiceCell,
  cleanCell,
  currencyCell,
  decimalCell,
  defaultVariantName,
  eanCell,
  extraCellsReason,
  integerCell,
  LIST_SEPARATOR,
  listCell,
  refusedWhole,
  urlCell,
  urlListCell,
} from './cells.js';
import type { ProductDraft, ProductFields, RowError, TranslationFields, VariantDraft, VariantFields } from './draft.js';
import {
  classify,
  type Column,
  INVENTORY_POLICIES,
  PRODUCT_CONDITIONS,
  PRODUCT_STATUSES,
  type ProductColumn,
  STOCK_STATUSES,
  WEIGHT_UNITS,
} from './ours-format.js';
import type { CsvRow, RowFormat } from './row-format.js';

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
      productCell(column.name, text, product, reasons);
    }
  }
  return product;
}

/** One product column's cell into the product (its fields, images, alt texts, generated-SKU flag). */
function productCell(name: ProductColumn, text: string, product: ProductPart, reasons: string[]): void {
  const fields: Partial<Record<keyof ProductFields, unknown>> = product.fields;
  const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
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
      if (!productListCell(name, text, product, reasons)) sellingCell(name, name, text, fields, reasons);
  }
}

/** A product column holding a list (channels, categories, images, their alt texts, tags); false when it is none. */
function productListCell(name: ProductColumn, text: string, product: ProductPart, reasons: string[]): boolean {
  const fields: Partial<Record<keyof ProductFields, unknown>> = product.fields;
  const take = <T>(checked: Checked<T>, set: (value: T) => void) => ('reason' in checked ? reasons.push(checked.reason) : set(checked.value));
  switch (name) {
    case 'publishing_channels':
      if (text === '') fields.publishing_channels = [];
      else take(listCell(name, text), (v) => (fields.publishing_channels = v));
      return true;
    case 'categories':
      if (text === '') fields.categories = [];
      else take(categoryPathsCell(name, text), (v) => (fields.categories = v));
      return true;
    case 'images':
      if (text === '') product.images = [];
      else take(urlListCell(name, text), (v) => (product.images = v));
      return true;
    case 'image_alt_texts':
      // One entry per image, in order; an empty entry is an image without alt text.
      product.imageAlts = text === '' ? [] : text.split(LIST_SEPARATOR).map((alt) => (alt.trim() === '' ? null : alt.trim()));
      return true;
    case 'tags':
      if (text === '') fields.tags = [];
      else take(listCell(name, text), (v) => (fields.tags = [...new Set(v)]));
      return true;
    default:
      return false;
  }
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
