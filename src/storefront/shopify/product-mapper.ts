// PIM product snapshot → Shopify `productSet` input, field by field (the table is in docs/sync.md, "The productSet input,
// field by field"). Pure: everything the mapping needs from the shop (locations, the product's current tags, the ids we
// know) is passed in, so it is tested without a server. Shopify's limits are checked separately (preflight.ts).
import { createHash } from 'node:crypto';
import type { KnownStorefrontProduct, PimProductSnapshot, SyncPlacement } from '../storefront.port.js';
import { metafieldsFingerprint, productTypeOf } from './attribute-metafields.js';

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
  /** The custom collections the product is in (ours and the merchant's), when read. */
  collections?: string[];
}

export interface FileInput {
  id?: string;
  originalSource?: string;
  alt?: string;
  contentType?: 'IMAGE';
  /** Our stable key of the image (mediaFilename): Shopify names the file by it, so a lost mapping finds it again. */
  filename?: string;
}

export interface InventoryItemInput {
  sku: string;
  tracked: boolean;
  /** Unit cost, in the shop's currency (Decimal). */
  cost?: string | null;
  measurement?: { weight: { value: number; unit: 'KILOGRAMS' } };
}

export interface VariantInput {
  id?: string;
  sku: string;
  price?: string;
  /** Left out when neither the PIM nor our last push set it: the merchant's own compare-at price stays. */
  compareAtPrice?: string | null;
  barcode?: string;
  optionValues: { optionName: string; name: string }[];
  inventoryPolicy: 'DENY';
  inventoryItem: InventoryItemInput;
  /**
   * The variant's image (the PIM variant's `image`), sent with the product's `files` only: "Any file specified here must
   * also be specified in the `files` input for the product" (schema 2026-10, ProductVariantSetInput.file). The same entry
   * as in `files` (its media id when known, else the same source and file name), so it is one media, uploaded once.
   */
  file?: FileInput;
  /** Only for a variant the storefront does not have yet: an existing one's stock moves by the inventory step. */
  inventoryQuantities?: { locationId: string; name: 'available'; quantity: number }[];
}

export interface ProductSetInput {
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  tags?: string[];
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  /** Left out when the PIM has no SEO fields and our last push wrote none: the merchant's own stay. */
  seo?: { title?: string; description?: string };
  handle?: string;
  productOptions: { name: string; values: { name: string }[] }[];
  variants: VariantInput[];
  /** Left out when an existing product already has exactly our images (the list is kept, images added in Shopify too). */
  files?: FileInput[];
  /** Left out when nothing of ours changed on an existing product (productSet keeps a list that is not sent). */
  metafields?: StorefrontMetafield[];
  /** Custom collection ids; left out when our categories' collections did not change, or collections are not managed. */
  collections?: string[];
}

export interface MappedProduct {
  input: ProductSetInput;
  /** The product's image URLs, in order, then its variants' images that are not among them (imageUrlsOf). */
  imageUrls: string[];
  /** What this input writes from PIM data (kept with the mapping: the next push clears only these). */
  owned: NonNullable<KnownStorefrontProduct['owned']>;
  /** The PIM quantity each variant should have per location id (by SKU). */
  stock: Record<string, Record<string, number>>;
  /** SKUs of disabled PIM variants: sent unsellable, their stock set to 0 outright rather than moved by a change. */
  disabled: string[];
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
      // Shopify compares option values without case ("S" and "s" are one value): the first spelling is kept.
      if (!values.some((x) => sameValue(x, a.value))) values.push(a.value);
      options.set(a.attribute_name, values);
    }
  }
  if (options.size === 0) {
    // Variants that carry no attributes differ by name: one "Title" option whose values are the variant names.
    const values: string[] = [];
    for (const t of sortedVariants(product).map(variantTitle)) if (!values.some((x) => sameValue(x, t))) values.push(t);
    return [{ name: DEFAULT_OPTION, values }];
  }
  return [...options].map(([name, values]) => ({ name, values }));
}

/** Option values as Shopify compares them: trimmed, case-insensitive. */
export function sameValue(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function variantTitle(v: PimProductSnapshot['variants'][number]): string {
  return v.name?.trim() || v.sku;
}

export function sortedVariants(product: PimProductSnapshot): PimProductSnapshot['variants'] {
  return [...product.variants].sort((a, b) => a.position - b.position || a.id - b.id);
}

/** The option values of one variant, in option order (an attribute it lacks is left out; pre-flight reports it). */
export function variantOptionValues(
  product: PimProductSnapshot,
  v: PimProductSnapshot['variants'][number],
  options = productOptions(product),
): { optionName: string; name: string }[] {
  if (options.length === 1 && options[0].name === DEFAULT_OPTION && !v.attributes.some((a) => a.attribute_name === DEFAULT_OPTION)) {
    const title = variantTitle(v);
    return [{ optionName: DEFAULT_OPTION, name: options[0].values.find((x) => sameValue(x, title)) ?? title }];
  }
  const out: { optionName: string; name: string }[] = [];
  for (const o of options) {
    const a = v.attributes.find((x) => x.attribute_name === o.name);
    if (a) out.push({ optionName: o.name, name: o.values.find((x) => sameValue(x, a.value)) ?? a.value });
  }
  return out;
}

/**
 * Stock per location id. A warehouse level goes to the location the integration maps its code to; a warehouse without
 * a mapping goes to the active location whose name equals the warehouse's name or code (case-insensitive), else to the
 * default location (levels add up); a warehouse mapped to null is not synced. Without warehouse levels, `total` goes to
 * the default location. Nothing goes to an inactive location.
 */
export function stockAt(
  placement: Pick<SyncPlacement, 'warehouseLocations' | 'unsyncedWarehouses' | 'variantStockLocation'>,
  locations: ShopLocation[],
  total: number,
  warehouses: PimProductSnapshot['warehouse_stock'] | undefined,
): Record<string, number> {
  const active = new Set(locations.filter((l) => l.isActive).map((l) => l.id));
  const out: Record<string, number> = {};
  const add = (id: string | null | undefined, q: number) => {
    if (id && active.has(id)) out[id] = (out[id] ?? 0) + Math.trunc(q);
  };
  if (warehouses && warehouses.length > 0) {
    const key = (s: string) => s.trim().toLowerCase();
    for (const w of warehouses) {
      if (placement.unsyncedWarehouses.includes(w.code)) continue;
      if (w.code in placement.warehouseLocations) {
        add(placement.warehouseLocations[w.code], w.quantity);
        continue;
      }
      const byName = locations.find((l) => l.isActive && (key(l.name) === key(w.name) || key(l.name) === key(w.code)));
      add(byName?.id ?? placement.variantStockLocation, w.quantity);
    }
  } else {
    add(placement.variantStockLocation, total);
  }
  return out;
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

/** A product the storefront has nothing of yet (no mapping, nothing found). */
export const NOTHING_KNOWN: KnownStorefrontProduct = { productId: null, variantIds: {}, mediaIds: {} };

const isUrl = (u: unknown): u is string => typeof u === 'string' && u.trim() !== '';

/**
 * The PIM's image URLs of a product, distinct, in order: the product's images, then its variants' images (in variant
 * order) that are not among them. A variant's image is one of the product's media in Shopify (ProductVariantSetInput.file
 * "must also be specified in the `files` input for the product"), so it is sent, matched and remembered like the others.
 */
export function imageUrlsOf(product: PimProductSnapshot): string[] {
  const variantImages = product.variants.length > 0 ? sortedVariants(product).map((v) => v.image) : [];
  return [...new Set([...(product.images ?? []), ...variantImages].filter(isUrl))];
}

/** The image of each variant that has one, by SKU (what `owned.variantImages` remembers). */
export function variantImagesOf(product: PimProductSnapshot): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of product.variants) if (isUrl(v.image)) out[v.sku] = v.image;
  return out;
}

/**
 * The mapped product has exactly these images already (by id, or sent and not confirmed), and its variants the images
 * our last push attached (`variantImages`, when given): its media are left alone.
 */
export function imagesUnchanged(known: KnownStorefrontProduct, imageUrls: string[], variantImages?: Record<string, string>): boolean {
  if (known.productId === null) return false;
  const there = new Set([...Object.keys(known.mediaIds), ...(known.imagesUnconfirmed ?? [])]);
  if (!(there.size === imageUrls.length && imageUrls.every((u) => there.has(u)))) return false;
  if (variantImages === undefined) return true;
  const before = known.owned?.variantImages ?? {};
  const skus = new Set([...Object.keys(before), ...Object.keys(variantImages)]);
  return [...skus].every((sku) => before[sku] === variantImages[sku]);
}

/**
 * Images sent earlier whose media ids are unknown, when the image list changed: the product must be read (its media
 * matched by our file names) before its files are sent, or those images would be uploaded again.
 */
export function needsMediaIds(known: KnownStorefrontProduct, imageUrls: string[]): boolean {
  return (known.imagesUnconfirmed ?? []).some((u) => imageUrls.includes(u)) && !imagesUnchanged(known, imageUrls);
}

/** A PIM image sent for Shopify to fetch, under our stable file name (mediaFilename). */
export function imageFile(url: string, product: PimProductSnapshot): FileInput {
  return { originalSource: url, alt: product.name, contentType: 'IMAGE', filename: mediaFilename(url) };
}

/**
 * `keepTagsAndMetafields`: the category tags are those of the last push, so `tags` and `metafields` are left out and
 * stay as they are on the storefront (productSet keeps a list it is not sent).
 */
export function mapProduct(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
  context: {
    locations: ShopLocation[];
    placement: SyncPlacement;
    current: StorefrontTags | null;
    handle?: string;
    keepTagsAndMetafields?: boolean;
    /** The product's attribute metafields, checked against the shop's definitions (attribute-metafields.ts). */
    attributeMetafields?: StorefrontMetafield[];
  },
): MappedProduct {
  const status = mapStatus(product.status);
  const options = productOptions(product);
  const categoryNames = categoryNamesOf(product);
  const stock: MappedProduct['stock'] = {};
  const disabled: string[] = [];
  const compareAtOwned: string[] = [];
  const previouslyOwned = new Set(known.owned?.compareAt ?? []);

  const imageUrls = imageUrlsOf(product);
  const variantImages = variantImagesOf(product);
  const unchanged = imagesUnchanged(known, imageUrls, variantImages);
  // Known images by media id, new ones from their source under our file name: the same entry in `files` and in a
  // variant's `file`, so Shopify makes one media of it (uploaded once) and attaches it to the variant.
  const fileOf = (url: string): FileInput => (known.mediaIds[url] ? { id: known.mediaIds[url] } : imageFile(url, product));

  const variant = (v: {
    sku: string;
    image?: string | null;
    price: string | null | undefined;
    salePrice: string | null | undefined;
    barcode?: string | null;
    cost?: string | null;
    weight?: string | null;
    enabled: boolean;
    optionValues: VariantInput['optionValues'];
    levels: Record<string, number>;
  }): VariantInput => {
    const id = known.variantIds[v.sku];
    const price = pricing(v.price, v.salePrice);
    // The compare-at price is the PIM's while it has a sale; cleared when a sale we set ends; else the merchant's.
    const compareAt = price.compareAtPrice !== null ? price.compareAtPrice : previouslyOwned.has(v.sku) ? null : undefined;
    if (price.compareAtPrice !== null) compareAtOwned.push(v.sku);
    // A disabled PIM variant stays on the storefront (its id, its orders) but cannot be sold: nothing available.
    const levels = v.enabled ? v.levels : Object.fromEntries(Object.keys(v.levels).map((l) => [l, 0]));
    if (!v.enabled) disabled.push(v.sku);
    stock[v.sku] = levels;
    const cost = toDecimal(v.cost);
    const weight = toDecimal(v.weight);
    return {
      ...(id ? { id } : {}),
      sku: v.sku,
      ...(price.price !== undefined ? { price: price.price } : {}),
      ...(compareAt !== undefined ? { compareAtPrice: compareAt } : {}),
      ...(v.barcode ? { barcode: v.barcode } : {}),
      optionValues: v.optionValues,
      // Sent with `files` only (the file must also be in the product's `files`); when the images are unchanged neither
      // is sent, and the variant keeps its media ("Any omitted fields will remain unchanged", Mutation.productSet).
      ...(!unchanged && isUrl(v.image) ? { file: fileOf(v.image) } : {}),
      inventoryPolicy: 'DENY',
      inventoryItem: {
        sku: v.sku,
        tracked: true,
        ...(cost !== null ? { cost } : {}),
        // The PIM's weights are kilograms (docs/shopify-fidelity.md).
        ...(weight !== null ? { measurement: { weight: { value: Number(weight), unit: 'KILOGRAMS' as const } } } : {}),
      },
      ...(!id && Object.keys(levels).length > 0
        ? { inventoryQuantities: Object.entries(levels).map(([locationId, quantity]) => ({ locationId, name: 'available' as const, quantity })) }
        : {}),
    };
  };

  const variants: VariantInput[] =
    product.variants.length === 0
      ? [
          variant({
            sku: product.sku,
            price: product.price,
            salePrice: product.sale_price,
            barcode: product.ean,
            cost: product.cost_price,
            enabled: true,
            optionValues: [{ optionName: DEFAULT_OPTION, name: DEFAULT_VALUE }],
            levels: stockAt(context.placement, context.locations, product.stock ?? 0, product.warehouse_stock),
          }),
        ]
      : sortedVariants(product).map((v) =>
          variant({
            sku: v.sku,
            price: v.price ?? product.price,
            salePrice: v.price !== null ? v.sale_price : (v.sale_price ?? product.sale_price),
            cost: v.cost ?? product.cost_price,
            weight: v.weight,
            image: v.image,
            enabled: v.is_enabled !== false,
            optionValues: variantOptionValues(product, v, options),
            levels: stockAt(context.placement, context.locations, v.stock_quantity, undefined),
          }),
        );

  const files: FileInput[] = imageUrls.map(fileOf);

  // SEO fields come only from the PIM's own SEO attributes (Shopify derives the rest from the title and description);
  // one we wrote before and the PIM no longer has is cleared, one the merchant wrote is left alone.
  const attrs = product.attributes ?? {};
  const seoTitle = typeof attrs.seo_title === 'string' && attrs.seo_title.trim() ? attrs.seo_title.trim() : undefined;
  const seoDescription = typeof attrs.seo_description === 'string' && attrs.seo_description.trim() ? attrs.seo_description.trim() : undefined;
  const seo: NonNullable<ProductSetInput['seo']> = {};
  if (seoTitle !== undefined || known.owned?.seoTitle) seo.title = seoTitle ?? '';
  if (seoDescription !== undefined || known.owned?.seoDescription) seo.description = seoDescription ?? '';

  const attributeMetafields = context.attributeMetafields ?? [];
  const collections = collectionIdsOf(product, context.placement);
  const input: ProductSetInput = {
    title: product.name.trim(),
    ...(product.description != null ? { descriptionHtml: product.description } : {}),
    ...(product.brand?.name ? { vendor: product.brand.name } : {}),
    // From the integration's setting (the first category's name by default), never the PIM's structural product_type;
    // always sent, "" when there is none, so a type written before (or an old `simple`) does not stay (docs/shopify-fidelity.md).
    productType: productTypeOf(product, context.placement.productType?.attributeCode),
    ...(context.keepTagsAndMetafields ? {} : { tags: mergeTags(categoryNames, context.current) }),
    status,
    ...(Object.keys(seo).length > 0 ? { seo } : {}),
    ...(context.handle ? { handle: context.handle } : {}),
    productOptions: options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants,
    ...(unchanged ? {} : { files }),
    ...(context.keepTagsAndMetafields
      ? {}
      : withMetafields([...ourMetafields(product.id, categoryNames), ...attributeMetafields], context.current, attributeNamespaces(context.placement))),
    ...(context.keepTagsAndMetafields || !collections ? {} : withCollections(collections, context.current, context.placement, known)),
  };
  const fingerprint = metafieldsFingerprint(attributeMetafields);
  const owned = {
    ...(fingerprint !== undefined ? { attributeMetafields: fingerprint } : {}),
    compareAt: compareAtOwned,
    ...(seoTitle !== undefined ? { seoTitle: true } : {}),
    ...(seoDescription !== undefined ? { seoDescription: true } : {}),
    ...(Object.keys(variantImages).length > 0 ? { variantImages } : {}),
    ...(collections ? { collections } : {}),
  };
  return { input, imageUrls, owned, stock, disabled };
}

/**
 * The file name we give an image: `pim-` + 16 hex of the SHA-256 of its PIM URL + the URL's extension. Shopify names
 * the file by it (FileSetInput.filename) and keeps it at the end of the image's CDN URL (with a UUID appended when the
 * name is taken), so a product whose mapping was lost is matched to its images by name, not by URL or position.
 */
export function mediaFilename(url: string): string {
  const ext = /\.(jpe?g|png|gif|webp|avif|heic|svg)(?:$|[?#])/i.exec(url)?.[1]?.toLowerCase() ?? 'jpg';
  return `pim-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.${ext}`;
}

/** Our key in a storefront file URL or name (`…/pim-0123456789abcdef_<uuid>.jpg?v=1` → `pim-0123456789abcdef`). */
export function mediaKeyIn(urlOrName: string | null | undefined): string | null {
  return urlOrName ? (/pim-[0-9a-f]{16}/.exec(urlOrName)?.[0] ?? null) : null;
}

/** A non-negative PIM decimal ("1.2500") → "1.25"; null when absent or not a decimal. */
function toDecimal(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(String(value).trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${BigInt(m[1])}.${frac}` : `${BigInt(m[1])}`;
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
function withMetafields(ours: StorefrontMetafield[], current: StorefrontTags | null, ownNamespaces: string[] = []): Pick<ProductSetInput, 'metafields'> {
  if (!current?.metafields) return { metafields: ours };
  const same = (a: StorefrontMetafield, b: StorefrontMetafield) => a.namespace === b.namespace && a.key === b.key;
  // A metafield in the bridge's attribute namespace that we no longer send is an attribute the PIM dropped: removed.
  const stale = (m: StorefrontMetafield) => ownNamespaces.includes(m.namespace) && !ours.some((o) => same(m, o));
  const unchanged =
    !current.metafields.some(stale) &&
    ours.every((o) => current.metafields!.some((m) => same(m, o) && (m.value === o.value || (o.type === 'json' && jsonEqual(m.value, o.value)))));
  if (unchanged) return {};
  return { metafields: [...current.metafields.filter((m) => !ours.some((o) => same(m, o)) && !stale(m)), ...ours] };
}

/**
 * The collections of the product's categories (placement.categoryCollections), sorted; undefined when the integration
 * does not manage collections (then the product's membership is left as it is).
 */
export function collectionIdsOf(product: Pick<PimProductSnapshot, 'categories'>, placement: Pick<SyncPlacement, 'categoryCollections'>): string[] | undefined {
  const byCategory = placement.categoryCollections;
  if (!byCategory) return undefined;
  return [...new Set((product.categories ?? []).flatMap((c) => (byCategory[String(c.id)] ? [byCategory[String(c.id)]] : [])))].sort();
}

/** True when the product's category collections are those the last push sent (so `collections` needs no read and no send). */
export function sameCollections(
  known: KnownStorefrontProduct,
  product: Pick<PimProductSnapshot, 'categories'>,
  placement: Pick<SyncPlacement, 'categoryCollections'>,
): boolean {
  const now = collectionIdsOf(product, placement);
  if (!now) return true;
  const before = known.owned?.collections;
  return !!before && before.length === now.length && before.every((id, i) => id === now[i]);
}

/** The collections that are the bridge's: any of the integration's categories, and those the last push sent. */
export function bridgeCollectionIds(placement: Pick<SyncPlacement, 'categoryCollections'>, known: KnownStorefrontProduct): Set<string> {
  return new Set([...Object.values(placement.categoryCollections ?? {}), ...(known.owned?.collections ?? [])]);
}

/**
 * productSet replaces the product's collection list ("deletes existing entries that aren't included", shopify.dev
 * productSet). A new product gets ours; an existing one keeps the merchant's custom collections as read, loses the
 * bridge's collections it left (any collection of the integration's categories, and those the last push sent) and
 * joins ours.
 */
function withCollections(
  ours: string[],
  current: StorefrontTags | null,
  placement: Pick<SyncPlacement, 'categoryCollections'>,
  known: KnownStorefrontProduct,
): Pick<ProductSetInput, 'collections'> {
  if (!current?.collections) return { collections: ours };
  const bridge = bridgeCollectionIds(placement, known);
  const merchant = current.collections.filter((id) => !bridge.has(id));
  return { collections: [...new Set([...merchant, ...ours])] };
}

/** The namespaces of the integration's attribute metafields (every metafield in them is the bridge's). */
function attributeNamespaces(placement: SyncPlacement): string[] {
  return [...new Set((placement.attributeMetafields ?? []).map((s) => s.namespace))];
}

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}
