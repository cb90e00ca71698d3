// Comparing two Shopify product CSV files field by field, as Shopify reads them: products by Handle, the product's
// columns on its first row, its variant rows in order, its images (with alt texts) in position order, wherever their
// rows are. What Shopify reads as the same is the same: headers by name (any order, the newer names as the older),
// TRUE/true, 50/50.00, a cell's surrounding spaces. The columns the PIM does not keep (docs/csv-formats.md, "Import →
// export: the differences") are not compared.
import { parse } from 'csv-parse/sync';
import { shopifyColumn, shopifyMetafieldOf } from '../../src/catalogue-csv/shopify-format.js';

const PRODUCT = ['Title', 'Body (HTML)', 'Vendor', 'Product Category', 'Type', 'Tags', 'Published', 'Gift Card', 'SEO Title', 'SEO Description', 'Status'];
const OPTION_NAMES = ['Option1 Name', 'Option2 Name', 'Option3 Name'];
const VARIANT = [
  'Option1 Value',
  'Option2 Value',
  'Option3 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Variant Image',
  'Variant Weight Unit',
  'Cost per item',
];
const NUMBERS = new Set(['Variant Grams', 'Variant Price', 'Variant Compare At Price', 'Cost per item']);
const IS_VARIANT = ['Variant SKU', 'Option1 Value', 'Option2 Value', 'Option3 Value', 'Variant Price'];

interface Product {
  handle: string;
  cells: Map<string, string>;
  variants: Map<string, string>[];
  /** `src|alt`, in position order. */
  images: string[];
}

/** A file's products; each cell keyed by its column's canonical name (a metafield's by `metafield:ns.key`). */
export function shopifyProducts(text: string): Product[] {
  const [header, ...rows] = parse(text, { relax_column_count: true, bom: true }) as string[][];
  const names = header.map((h) => {
    const metafield = shopifyMetafieldOf(h);
    return shopifyColumn(h) ?? (metafield ? `metafield:${metafield.metafield}` : `other:${h}`);
  });
  const products: (Product & { positioned: { position: number; image: string }[] })[] = [];
  for (const row of rows) {
    if (row.every((c) => c.trim() === '')) continue;
    const cells = new Map<string, string>();
    names.forEach((name, i) => {
      if (!cells.has(name)) cells.set(name, (row[i] ?? '').trim());
    });
    const handle = cells.get('Handle') ?? '';
    let product = products[products.length - 1];
    if (handle !== '' && handle !== product?.handle) {
      product = { handle, cells, variants: [], images: [], positioned: [] };
      products.push(product);
    }
    if (IS_VARIANT.some((c) => (cells.get(c) ?? '') !== '')) product.variants.push(cells);
    const src = cells.get('Image Src') ?? '';
    const position = Number(cells.get('Image Position') || Number.POSITIVE_INFINITY);
    if (src !== '') product.positioned.push({ position, image: `${src}|${cells.get('Image Alt Text') ?? ''}` });
  }
  for (const p of products) p.images = p.positioned.sort((a, b) => (a.position === b.position ? 0 : a.position < b.position ? -1 : 1)).map((i) => i.image);
  return products;
}

function same(column: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (/^(true|false)$/i.test(a) && /^(true|false)$/i.test(b)) return a.toLowerCase() === b.toLowerCase();
  if (NUMBERS.has(column) && a !== '' && b !== '') return Number(a) === Number(b);
  return false;
}

/**
 * Every difference between the original file and the exported one, in words: `handle: column: 'a' ≠ 'b'`. Columns
 * absent from the original are not compared (the export has Shopify's full set); `ignore` names columns not to compare.
 */
export function shopifyDifferences(original: string, exported: string, ignore: string[] = []): string[] {
  const out = new Map(shopifyProducts(exported).map((p) => [p.handle, p]));
  const differences: string[] = [];
  for (const p of shopifyProducts(original)) {
    const e = out.get(p.handle);
    if (!e) {
      differences.push(`${p.handle}: not exported`);
      continue;
    }
    const compare = (label: string, column: string, a: Map<string, string>, b: Map<string, string>) => {
      if (!a.has(column) || ignore.includes(column)) return;
      const [x, y] = [a.get(column)!, b.get(column)];
      if (y === undefined) differences.push(`${label}: column '${column}' is not exported`);
      else if (!same(column, x, y)) differences.push(`${label}: ${column}: '${x}' ≠ '${y}'`);
    };
    const metafields = [...p.cells.keys()].filter((k) => k.startsWith('metafield:'));
    for (const column of [...PRODUCT, ...OPTION_NAMES, ...metafields]) compare(p.handle, column, p.cells, e.cells);
    if (p.variants.length !== e.variants.length) differences.push(`${p.handle}: ${p.variants.length} variant rows, exported ${e.variants.length}`);
    p.variants.forEach((v, i) => {
      for (const column of VARIANT) if (e.variants[i]) compare(`${p.handle} variant ${i + 1}`, column, v, e.variants[i]);
    });
    if (JSON.stringify(p.images) !== JSON.stringify(e.images))
      differences.push(`${p.handle}: images ${JSON.stringify(p.images)} ≠ ${JSON.stringify(e.images)}`);
  }
  return differences;
}
