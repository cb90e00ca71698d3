// A product as the database holds it, in the terms of a catalogue file (names and codes, not ids): what the export
// writes and what an import compares a file's product with to know whether it changes anything.
import type { ProductDraft, ProductFields, SellingFields, TranslationFields, VariantFields } from '../../catalogue-csv/draft.js';

export interface VariantSnapshot extends VariantFields {
  id: number;
  sku: string;
  sku_generated: boolean;
  position: number;
  /** It has levels per warehouse: its stock_quantity is their sum, and a file's count is not read. */
  has_levels?: boolean;
}

export interface ProductSnapshot extends Omit<ProductFields, 'categories'> {
  id: number;
  sku: string;
  /** The PIM made the SKU (a file gave none, or another product had it): a Shopify file leaves it out. */
  sku_generated: boolean;
  /** Assigned category ids; paths come from the organization's tree (CategoryTree). */
  category_ids: number[];
  attributes: Record<string, unknown>;
  /** Stock by warehouse code (only warehouses with a row). */
  stock: Record<string, number>;
  /** Image URLs in order: the URL each was downloaded from, or the stored file's public URL. */
  images: string[];
  /** The alt text of each of `images`. */
  image_alts: (string | null)[];
  /** URLs an import named whose download failed, in the file's order: still the product's, tried again at its next import. */
  pending_images: string[];
  /** The alt text of each of `pending_images`. */
  pending_image_alts: (string | null)[];
  translations: Record<string, TranslationFields>;
  variants: VariantSnapshot[];
}

/** The organization's categories: id → path of names from the root, and path → id. */
export class CategoryTree {
  private readonly paths = new Map<number, string[]>();
  private readonly ids = new Map<string, number>();

  constructor(rows: { id: number; parent_id: number | null; name: string }[]) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const pathOf = (id: number, seen = new Set<number>()): string[] => {
      const known = this.paths.get(id);
      if (known) return known;
      const row = byId.get(id)!;
      // A cycle cannot be written through the API; guarded anyway so a bad row cannot hang an export.
      const path =
        row.parent_id === null || seen.has(row.parent_id) || !byId.has(row.parent_id) ? [row.name] : [...pathOf(row.parent_id, seen.add(id)), row.name];
      this.paths.set(id, path);
      return path;
    };
    // The first of equal paths wins (sibling names are not unique in the PIM), by id.
    for (const row of [...rows].sort((a, b) => a.id - b.id)) {
      const key = pathKey(pathOf(row.id));
      if (!this.ids.has(key)) this.ids.set(key, row.id);
    }
  }

  pathOf(id: number): string[] | undefined {
    return this.paths.get(id);
  }

  idOf(path: string[]): number | undefined {
    return this.ids.get(pathKey(path));
  }

  add(id: number, path: string[]): void {
    this.paths.set(id, path);
    this.ids.set(pathKey(path), id);
  }
}

export const pathKey = (path: string[]) => JSON.stringify(path);

/** Categories as a file lists them: paths sorted by their text, so the order does not depend on ids. */
export function categoryPaths(ids: number[], tree: CategoryTree): string[][] {
  return ids
    .map((id) => tree.pathOf(id))
    .filter((p): p is string[] => p !== undefined)
    .sort((a, b) => (a.join(' > ') < b.join(' > ') ? -1 : a.join(' > ') > b.join(' > ') ? 1 : 0));
}

/**
 * The snapshot as a draft with every field: what the export writes. `metafields`: attribute code → the storefront
 * metafield (`ns.key`) it is mapped to; those attributes' values also go to the draft's metafields (Shopify's columns).
 */
export function snapshotToDraft(p: ProductSnapshot, tree: CategoryTree, metafields: Map<string, string> = new Map()): ProductDraft {
  const pending = p.pending_images.flatMap((url, i) => (p.images.includes(url) ? [] : [{ url, alt: p.pending_image_alts[i] ?? null }]));
  const mapped = Object.entries(p.attributes).flatMap(([code, value]) => {
    const metafield = metafields.get(code);
    if (metafield === undefined) return [];
    // Shopify writes its Google Shopping booleans in capitals, as its other booleans.
    const text = typeof value === 'boolean' && metafield.startsWith('mm-google-shopping.') ? (value ? 'TRUE' : 'FALSE') : attributeText(value);
    return [[metafield, text] as const];
  });
  return {
    line: 0,
    lines: [],
    sku: p.sku,
    skuGenerated: p.sku_generated,
    published: p.publishing_channels.includes('web'),
    fields: {
      name: p.name,
      slug: p.slug,
      description: p.description,
      short_description: p.short_description,
      product_type: p.product_type,
      price: p.price,
      sale_price: p.sale_price,
      cost_price: p.cost_price,
      currency: p.currency,
      status: p.status,
      ean: p.ean,
      brand: p.brand,
      supplier: p.supplier,
      publishing_channels: p.publishing_channels,
      product_condition: p.product_condition,
      categories: categoryPaths(p.category_ids, tree),
      tags: p.tags,
      seo_title: p.seo_title,
      seo_description: p.seo_description,
      gift_card: p.gift_card,
      taxonomy_category: p.taxonomy_category,
      storefront_type: p.storefront_type,
      weight: p.weight,
      stock_quantity: p.stock_quantity,
      ...sellingOf(p),
    },
    ...(metafields.size > 0 ? { metafields: Object.fromEntries(mapped) } : {}),
    attributes: Object.fromEntries(Object.entries(p.attributes).map(([code, value]) => [code, attributeText(value)])),
    stock: p.stock,
    // A pending image is exported too: its URL is the merchant's, only its copy is missing.
    images: p.images.concat(pending.map((i) => i.url)),
    imageAlts: p.image_alts.concat(pending.map((i) => i.alt)),
    translations: p.translations,
    variants: p.variants.map((v) => ({
      line: 0,
      sku: v.sku,
      skuGenerated: v.sku_generated,
      fields: {
        name: v.name,
        price: v.price,
        sale_price: v.sale_price,
        cost: v.cost,
        weight: v.weight,
        stock_quantity: v.stock_quantity,
        stock_status: v.stock_status,
        is_enabled: v.is_enabled,
        image: v.image,
        attributes: v.attributes,
        ...sellingOf(v),
      },
    })),
  };
}

/** The selling fields of a product or variant snapshot. */
function sellingOf(x: SellingFields): SellingFields {
  return {
    barcode: x.barcode,
    compare_at_price: x.compare_at_price,
    weight_unit: x.weight_unit,
    inventory_policy: x.inventory_policy,
    inventory_tracked: x.inventory_tracked,
    taxable: x.taxable,
    requires_shipping: x.requires_shipping,
  };
}

/** An attribute value as a cell: lists joined by `|`, booleans and numbers as JSON writes them. */
export function attributeText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.join('|');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
