// PIM product snapshot → Shopify `productSet` input, field by field (the table is in the README, "Push: PIM → Shopify
// field mapping"). Pure: everything the mapping needs from the shop (locations, the product's current tags, the ids we
// know) is passed in, so it is tested without a server. Shopify's limits are checked separately (preflight.ts).
import type { KnownStorefrontProduct, PimProductSnapshot } from '../storefront.port.js';

export const METAFIELD_NAMESPACE = 'pimbridge';
export const PIM_ID_KEY = 'pim_product_id';
/** The category names we sent last time (JSON list): only these tags are ours to remove. */
export const CATEGORY_TAGS_KEY = 'category_tags';

/** The option and value Shopify gives a product without variants. */
export const DEFAULT_OPTION = 'Title';
export const DEFAULT_VALUE = 'Default Title';

export interface ShopLocation {
  id: string;
  name: string;
  isActive: boolean;
}

export interface StorefrontMetafield {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

/** What the lookup before the push found on the storefront product (null: not looked up, or not there). */
export interface StorefrontTags {
  tags: string[];
  /** Category tags our previous push sent, or null when unknown (then no existing tag is treated as ours). */
  previousCategoryTags: string[] | null;
  /** The product's metafields (all of them, ours included), when read. */
  metafields?: StorefrontMetafield[];
}

export interface FileInput {
  id?: string;
  originalSource?: string;
  alt?: string;
  contentType?: 'IMAGE';
}

export interface VariantInput {
  id?: string;
  sku: string;
  price?: string;
  compareAtPrice?: string | null;
  barcode?: string;
  optionValues: { optionName: string; name: string }[];
  inventoryItem: { sku: string; tracked: boolean };
  inventoryQuantities?: { locationId: string; name: 'available'; quantity: number }[];
}

export interface ProductSetInput {
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  tags?: string[];
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  seo: { title?: string; description?: string };
  handle?: string;
  productOptions: { name: string; values: { name: string }[] }[];
  variants: VariantInput[];
  /** Left out when an existing product already has exactly our images (the list is kept, images added in Shopify too). */
  files?: FileInput[];
  /** Left out when nothing of ours changed on an existing product (productSet keeps a list that is not sent). */
  metafields?: StorefrontMetafield[];
}

export interface MappedProduct {
  input: ProductSetInput;
  /** The product's image URLs, in order: when `input.files` is sent, media ids come back in this order. */
  imageUrls: string[];
}

/** PIM status → Shopify status. `out_of_stock` stays ACTIVE (tracked inventory at 0 shows it sold out); unknown → DRAFT. */
export function mapStatus(status: string | undefined): ProductSetInput['status'] {
  switch (status) {
    case 'active':
    case 'out_of_stock':
      return 'ACTIVE';
    case 'archived':
      return 'ARCHIVED';
    default:
      return 'DRAFT';
  }
}

/** The handle used as identifier when the shop has no unique `pim_product_id` definition: `{slug}-{id}`. */
export function deterministicHandle(product: Pick<PimProductSnapshot, 'id' | 'slug' | 'name'>): string {
  const base = (product.slug ?? product.name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
  return `${base || 'product'}-${product.id}`;
}

/**
 * Normalises a PIM decimal ("19.9900") to Shopify's Money ("19.99"). Returns null when it is not a non-negative decimal
 * with at most 2 significant places (pre-flight reports those; nothing is rounded silently).
 */
export function toMoney(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > 2) return null;
  return `${BigInt(m[1]).toString()}.${frac.padEnd(2, '0')}`;
}

/** Price and compare-at price: a lower sale price is the price and the regular price becomes the compare-at price. */
export function pricing(price: string | null | undefined, salePrice: string | null | undefined): { price?: string; compareAtPrice: string | null } {
  const regular = toMoney(price);
  const sale = toMoney(salePrice);
  if (regular === null) return { compareAtPrice: null };
  if (sale !== null && Number(sale) < Number(regular)) return { price: sale, compareAtPrice: regular };
  return { price: regular, compareAtPrice: null };
}

/** Options in order of first appearance over the variants, values in order of first appearance. */
export function productOptions(product: PimProductSnapshot): { name: string; values: string[] }[] {
  if (product.variants.length === 0) return [{ name: DEFAULT_OPTION, values: [DEFAULT_VALUE] }];
  const options = new Map<string, string[]>();
  for (const v of sortedVariants(product)) {
    for (const a of v.attributes) {
      const values = options.get(a.attribute_name) ?? [];
      if (!values.includes(a.value)) values.push(a.value);
      options.set(a.attribute_name, values);
    }
  }
  if (options.size === 0) {
    // Variants that carry no attributes differ by name: one "Title" option whose values are the variant names.
    return [{ name: DEFAULT_OPTION, values: [...new Set(sortedVariants(product).map(variantTitle))] }];
  }
  return [...options].map(([name, values]) => ({ name, values }));
}

function variantTitle(v: PimProductSnapshot['variants'][number]): string {
  return v.name?.trim() || v.sku;
}

export function sortedVariants(product: PimProductSnapshot): PimProductSnapshot['variants'] {
  return [...product.variants].sort((a, b) => a.position - b.position || a.id - b.id);
}

/** The option values of one variant, in option order (an attribute it lacks is left out; pre-flight reports it). */
export function variantOptionValues(product: PimProductSnapshot, v: PimProductSnapshot['variants'][number], options = productOptions(product)): { optionName: string; name: string }[] {
  if (options.length === 1 && options[0].name === DEFAULT_OPTION && !v.attributes.some((a) => a.attribute_name === DEFAULT_OPTION)) {
    return [{ optionName: DEFAULT_OPTION, name: variantTitle(v) }];
  }
  const out: { optionName: string; name: string }[] = [];
  for (const o of options) {
    const a = v.attributes.find((x) => x.attribute_name === o.name);
    if (a) out.push({ optionName: o.name, name: a.value });
  }
  return out;
}

/**
 * Stock per location. The product's warehouse levels go to the location whose name equals the warehouse's name or code
 * (case-insensitive); levels of unmatched warehouses are added at the first active location. Without warehouse levels,
 * `total` goes to the first active location. Inactive locations receive nothing; a shop without one gets no quantities.
 */
export function inventoryAt(locations: ShopLocation[], total: number, warehouses: PimProductSnapshot['warehouse_stock'] | undefined): { locationId: string; name: 'available'; quantity: number }[] | undefined {
  const active = locations.filter((l) => l.isActive);
  if (active.length === 0) return undefined;
  const byLocation = new Map<string, number>();
  const add = (id: string, q: number) => byLocation.set(id, (byLocation.get(id) ?? 0) + q);
  if (warehouses && warehouses.length > 0) {
    for (const w of warehouses) {
      const key = (s: string) => s.trim().toLowerCase();
      const match = active.find((l) => key(l.name) === key(w.name) || key(l.name) === key(w.code));
      add((match ?? active[0]).id, Math.trunc(w.quantity));
    }
  } else {
    add(active[0].id, Math.trunc(total));
  }
  return [...byLocation].map(([locationId, quantity]) => ({ locationId, name: 'available' as const, quantity }));
}

/**
 * Tags: the product's category names, plus every tag already on the storefront product that is not a category tag we
 * sent before (merchant tags survive; a category removed in the PIM loses its tag).
 */
export function mergeTags(categoryNames: string[], current: StorefrontTags | null): string[] {
  const ours = new Set(categoryNames.map((c) => c.trim()).filter(Boolean));
  const previous = new Set((current?.previousCategoryTags ?? []).map((t) => t.toLowerCase()));
  const kept = (current?.tags ?? []).filter((t) => !previous.has(t.toLowerCase()) && ![...ours].some((o) => o.toLowerCase() === t.toLowerCase()));
  return [...kept, ...ours];
}

/** The product's category names, as its tags: trimmed, distinct, in the PIM's order. */
export function categoryNamesOf(product: PimProductSnapshot): string[] {
  return [...new Set((product.categories ?? []).map((c) => c.name.trim()).filter(Boolean))];
}

/**
 * `keepTagsAndMetafields`: the category tags are those of the last push, so `tags` and `metafields` are left out and
 * stay as they are on the storefront (productSet keeps a list it is not sent).
 */
export function mapProduct(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
  context: { locations: ShopLocation[]; current: StorefrontTags | null; handle?: string; keepTagsAndMetafields?: boolean },
): MappedProduct {
  const status = mapStatus(product.status);
  const options = productOptions(product);
  const categoryNames = categoryNamesOf(product);
  const attrs = product.attributes ?? {};
  const seoTitle = typeof attrs.seo_title === 'string' && attrs.seo_title.trim() ? attrs.seo_title.trim() : product.name.trim();
  const seoDescription = typeof attrs.seo_description === 'string' && attrs.seo_description.trim() ? attrs.seo_description.trim() : product.short_description?.trim() || undefined;

  const variants: VariantInput[] =
    product.variants.length === 0
      ? [
          {
            ...(known.variantIds[product.sku] ? { id: known.variantIds[product.sku] } : {}),
            sku: product.sku,
            ...pricing(product.price, product.sale_price),
            ...(product.ean ? { barcode: product.ean } : {}),
            optionValues: [{ optionName: DEFAULT_OPTION, name: DEFAULT_VALUE }],
            inventoryItem: { sku: product.sku, tracked: true },
            ...withInventory(inventoryAt(context.locations, product.stock ?? 0, product.warehouse_stock)),
          },
        ]
      : sortedVariants(product).map((v) => ({
          ...(known.variantIds[v.sku] ? { id: known.variantIds[v.sku] } : {}),
          sku: v.sku,
          ...pricing(v.price ?? product.price, v.price !== null ? v.sale_price : (v.sale_price ?? product.sale_price)),
          optionValues: variantOptionValues(product, v, options),
          inventoryItem: { sku: v.sku, tracked: true },
          ...withInventory(inventoryAt(context.locations, v.stock_quantity, undefined)),
        }));

  const imageUrls = [...new Set((product.images ?? []).filter((u) => typeof u === 'string' && u.trim() !== ''))];
  const files: FileInput[] = imageUrls.map((url) =>
    known.mediaIds[url] ? { id: known.mediaIds[url] } : { originalSource: url, alt: product.name, contentType: 'IMAGE' as const },
  );
  const imagesUnchanged = known.productId !== null && imageUrls.every((u) => known.mediaIds[u]) && Object.keys(known.mediaIds).every((u) => imageUrls.includes(u));

  const input: ProductSetInput = {
    title: product.name.trim(),
    ...(product.description != null ? { descriptionHtml: product.description } : {}),
    ...(product.brand?.name ? { vendor: product.brand.name } : {}),
    ...(product.product_type ? { productType: product.product_type } : {}),
    ...(context.keepTagsAndMetafields ? {} : { tags: mergeTags(categoryNames, context.current) }),
    status,
    seo: { title: seoTitle, ...(seoDescription ? { description: seoDescription } : {}) },
    ...(context.handle ? { handle: context.handle } : {}),
    productOptions: options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants,
    ...(imagesUnchanged ? {} : { files }),
    ...(context.keepTagsAndMetafields ? {} : withMetafields(ourMetafields(product.id, categoryNames), context.current)),
  };
  return { input, imageUrls };
}

export function ourMetafields(pimId: number, categoryNames: string[]): StorefrontMetafield[] {
  return [
    { namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY, type: 'single_line_text_field', value: String(pimId) },
    { namespace: METAFIELD_NAMESPACE, key: CATEGORY_TAGS_KEY, type: 'json', value: JSON.stringify(categoryNames) },
  ];
}

/**
 * productSet replaces the metafield list it is sent. A new product gets ours; an existing one gets nothing when ours are
 * unchanged (the list is kept as it is), else its own metafields as read with ours replaced — merchant metafields survive.
 */
function withMetafields(ours: StorefrontMetafield[], current: StorefrontTags | null): Pick<ProductSetInput, 'metafields'> {
  if (!current?.metafields) return { metafields: ours };
  const same = (a: StorefrontMetafield, b: StorefrontMetafield) => a.namespace === b.namespace && a.key === b.key;
  const unchanged = ours.every((o) => current.metafields!.some((m) => same(m, o) && (m.value === o.value || (o.type === 'json' && jsonEqual(m.value, o.value)))));
  if (unchanged) return {};
  return { metafields: [...current.metafields.filter((m) => !ours.some((o) => same(m, o))), ...ours] };
}

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

function withInventory(q: VariantInput['inventoryQuantities']): Pick<VariantInput, 'inventoryQuantities'> {
  return q ? { inventoryQuantities: q } : {};
}
