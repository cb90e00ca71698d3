// PIM product snapshot → Shopify `productSet` input, field by field (the table is in docs/sync.md, "The productSet input,
// field by field"). Pure: everything the mapping needs from the shop (locations, the product's current tags, the ids we
// know) is passed in, so it is tested without a server. Shopify's limits are checked separately (preflight.ts).
import { createHash } from 'node:crypto';
import type { KnownStorefrontProduct, MerchantVariant, PimProductSnapshot, SyncPlacement } from '../storefront.port.js';
import { metafieldsFingerprint, productTypeOf } from './attribute-metafields.js';
import { createDefault } from './field-ownership.js';

export const METAFIELD_NAMESPACE = 'pimbridge';
export const PIM_ID_KEY = 'pim_product_id';
/** The PIM tags we sent last time (JSON list): only these tags are ours to remove. */
export const PIM_TAGS_KEY = 'pim_tags';
/**
 * Before PIM tags, pushes sent the category names as tags and recorded them here (JSON list): the first push after that
 * change removes those tags (unless the PIM has them as tags now) and this metafield.
 */
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
  /**
   * Tags our previous pushes sent (the PIM tags of `pimbridge.pim_tags`, and the category names an older push recorded in
   * `pimbridge.category_tags`), or null when unknown (then no existing tag is treated as ours).
   */
  previousTags: string[] | null;
  /** The product's metafields (all of them, ours included), when read. */
  metafields?: StorefrontMetafield[];
  /** The custom collections the product is in (ours and the merchant's), when read. */
  collections?: string[];
  /** The product's media in order (ours and the merchant's), when read: a push that sends `files` sends the merchant's back. */
  media?: { id: string; url: string | null }[];
}

export interface FileInput {
  id?: string;
  originalSource?: string;
  alt?: string;
  contentType?: 'IMAGE';
  /** Our stable key of the image (mediaFilename): Shopify names the file by it, so a lost mapping finds it again. */
  filename?: string;
}

/** Shopify's WeightUnit. */
export type WeightUnit = 'GRAMS' | 'KILOGRAMS' | 'POUNDS' | 'OUNCES';

/** The PIM's weight units (selling-fields.ts) → Shopify's WeightUnit; no unit is kilograms. */
const WEIGHT_UNITS: Record<string, WeightUnit> = { g: 'GRAMS', kg: 'KILOGRAMS', lb: 'POUNDS', oz: 'OUNCES' };

export interface InventoryItemInput {
  /** Left out for a SKU the PIM made up (sku_generated): never written to the shop. */
  sku?: string;
  /** Left out on update when the PIM does not say (the merchant's stays); true on create. */
  tracked?: boolean;
  /** Left out when the PIM does not say. */
  requiresShipping?: boolean;
  /** Unit cost, in the shop's currency (Decimal). */
  cost?: string | null;
  measurement?: { weight: { value: number; unit: WeightUnit } };
}

export interface VariantInput {
  id?: string;
  /** Left out for a SKU the PIM made up (sku_generated): never written to the shop (MappedProduct.variantKeys keeps it). */
  sku?: string;
  price?: string;
  /** Left out when neither the PIM nor our last push set it: the merchant's own compare-at price stays. */
  compareAtPrice?: string | null;
  barcode?: string;
  optionValues: { optionName: string; name: string }[];
  /** Left out on update when the PIM does not say (the merchant's stays); DENY on create. */
  inventoryPolicy?: 'DENY' | 'CONTINUE';
  /** Left out when the PIM does not say. */
  taxable?: boolean;
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
  /** Never blanked: left out when there is no type, so the merchant's stays. */
  productType?: string;
  tags?: string[];
  /** Sent on create only (Shopify refuses a change: GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED). */
  giftCard?: boolean;
  /** The taxonomy category's GID; left out when the PIM has none. */
  category?: string;
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  /** Left out when the PIM has no SEO fields and our last push wrote none: the merchant's own stay. */
  seo?: { title?: string; description?: string };
  handle?: string;
  productOptions: { name: string; values: { name: string }[] }[];
  variants: VariantInput[];
  /**
   * Left out when an existing product already has exactly our images (the list is kept, images added in Shopify too);
   * when sent: ours, then the merchant's media as read (by id), so only media the bridge made are ever removed.
   */
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
  /** The merchant's media sent back in `files` (by id): never matched to our images. */
  merchantMedia: string[];
  /**
   * The PIM SKU of each entry of `input.variants`, in order: the key of the variant's ids, stock and written values, also
   * where the SKU is the PIM's own invention and so not sent (productSet answers the variants in that order).
   */
  variantKeys: string[];
  /** What the push leaves as it is though the PIM says otherwise (reported with the mapping, never an error). */
  warnings: string[];
  /**
   * The merchant's variants sent back unchanged, after the PIM's (by id: `input.variants` past `variantKeys`), and those
   * that cannot be kept beside the PIM's variants: a push of the product would delete them, so it is refused.
   */
  merchantVariants: { kept: MerchantVariant[]; refused: string[] };
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
 * Tags: the PIM's tags, plus every tag already on the storefront product that is not one we sent before (the merchant's
 * tags survive; a tag removed in the PIM goes; so do the category names older pushes sent as tags). Shopify compares
 * tags without case.
 */
export function mergeTags(pimTags: string[], current: StorefrontTags | null): string[] {
  const ours = new Set(pimTags.map((t) => t.toLowerCase()));
  const previous = new Set((current?.previousTags ?? []).map((t) => t.toLowerCase()));
  const kept = (current?.tags ?? []).filter((t) => !previous.has(t.toLowerCase()) && !ours.has(t.toLowerCase()));
  return [...kept, ...pimTags];
}

/** The product's PIM tags: trimmed, distinct without case, in the PIM's order (categories are collections, not tags). */
export function pimTagsOf(product: Pick<PimProductSnapshot, 'tags'>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of Array.isArray(product.tags) ? product.tags : []) {
    if (typeof t !== 'string') continue;
    const tag = t.trim();
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/**
 * The tags our previous pushes sent, from our metafields' JSON lists (`pimbridge.pim_tags`, and the category names an
 * older push recorded in `pimbridge.category_tags`); null when neither is there (no tag is then taken for ours).
 */
export function previousTagsOf(...values: (string | null | undefined)[]): string[] | null {
  let out: string[] | null = null;
  for (const value of values) {
    if (!value) continue;
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) out = [...(out ?? []), ...parsed.filter((t): t is string => typeof t === 'string')];
    } catch {
      // Not ours to read: treated as absent.
    }
  }
  return out;
}

/** Same tags, whatever the order and case (a mapping that recorded none: not the same). */
export function sameTags(previous: string[] | undefined, now: string[]): boolean {
  if (!previous) return false;
  const norm = (tags: string[]) => [...new Set(tags.map((t) => t.toLowerCase()))].sort().join('\n');
  return norm(previous) === norm(now);
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
 * The mapped product has exactly these images already (by id, or sent and not confirmed), its variants the images our
 * last push attached (`variantImages`, when given) and its images the PIM's alt texts the last push sent (`alts`, the
 * PIM's alt text of each image, when given; an image without one has the product's name from its upload, which a rename
 * does not change): its media are left alone.
 */
export function imagesUnchanged(
  known: KnownStorefrontProduct,
  imageUrls: string[],
  variantImages?: Record<string, string>,
  alts?: (url: string) => string | undefined,
): boolean {
  if (known.productId === null) return false;
  const there = new Set([...Object.keys(known.mediaIds), ...(known.imagesUnconfirmed ?? [])]);
  if (!(there.size === imageUrls.length && imageUrls.every((u) => there.has(u)))) return false;
  if (alts) {
    const sent = known.owned?.imageAlts ?? {};
    if (imageUrls.some((u) => sent[u] !== alts(u))) return false;
  }
  if (variantImages === undefined) return true;
  const before = known.owned?.variantImages ?? {};
  const skus = new Set([...Object.keys(before), ...Object.keys(variantImages)]);
  return [...skus].every((sku) => before[sku] === variantImages[sku]);
}

/** Each image's alt text in the PIM (`image_alts`, by the image's place in `images`); undefined: none. */
export function pimAltOf(product: Pick<PimProductSnapshot, 'images' | 'image_alts'>): (url: string) => string | undefined {
  const alts = new Map<string, string>();
  const images = product.images ?? [];
  const given = Array.isArray(product.image_alts) ? product.image_alts : [];
  images.forEach((url, i) => {
    const alt = given[i];
    if (typeof alt === 'string' && alt.trim() !== '' && !alts.has(url)) alts.set(url, alt.trim());
  });
  return (url) => alts.get(url);
}

/** The alt text an image is uploaded with: the PIM media's, else the product's name. */
export function imageAltOf(product: Pick<PimProductSnapshot, 'images' | 'image_alts' | 'name'>): (url: string) => string {
  const pim = pimAltOf(product);
  const name = product.name.trim();
  return (url) => pim(url) ?? name;
}

/**
 * A mapped product whose image list (or an image's PIM alt text, or a variant's image) changed: `files` will be sent,
 * which replaces the product's media, so the product's media are read first and the merchant's sent back.
 */
export function filesWillBeSent(known: KnownStorefrontProduct, product: PimProductSnapshot): boolean {
  return known.productId !== null && !imagesUnchanged(known, imageUrlsOf(product), variantImagesOf(product), pimAltOf(product));
}

/**
 * Images sent earlier whose media ids are unknown, when files will be sent (filesWillBeSent): the product must be read
 * (its media matched by our file names) before its files are sent, or those images would be uploaded again.
 */
export function needsMediaIds(known: KnownStorefrontProduct, product: PimProductSnapshot): boolean {
  const imageUrls = imageUrlsOf(product);
  return (known.imagesUnconfirmed ?? []).some((u) => imageUrls.includes(u)) && filesWillBeSent(known, product);
}

/** A PIM image sent for Shopify to fetch, under our stable file name (mediaFilename), with its alt text (imageAltOf). */
export function imageFile(url: string, product: PimProductSnapshot): FileInput {
  return { originalSource: url, alt: imageAltOf(product)(url), contentType: 'IMAGE', filename: mediaFilename(url) };
}

/**
 * The media of the product as read that are the merchant's: not one we know by id, and not carrying our file name
 * (`pim-` + 16 hex) in its URL. Kept whatever their state (one still processing has no URL: never taken for ours).
 */
export function merchantMediaOf(current: StorefrontTags | null, known: KnownStorefrontProduct): string[] {
  const ours = new Set([...Object.values(known.mediaIds), ...(known.owned?.failedMedia ?? [])]);
  return (current?.media ?? []).filter((m) => !ours.has(m.id) && mediaKeyIn(m.url) === null).map((m) => m.id);
}

/** The PIM's selling fields of one Shopify variant (a PIM variant, or a product without variants), as productSet takes them. */
interface SellingValues {
  barcode?: string;
  compareAtPrice?: string;
  inventoryPolicy?: 'DENY' | 'CONTINUE';
  tracked?: boolean;
  taxable?: boolean;
  requiresShipping?: boolean;
  weight?: { value: number; unit: WeightUnit };
}

/** The selling fields of a PIM variant or product; a value the PIM does not set (null, or one it cannot mean) is absent. */
export function sellingValuesOf(
  from: Pick<PimProductSnapshot, 'barcode' | 'compare_at_price' | 'weight_unit' | 'inventory_policy' | 'inventory_tracked' | 'taxable' | 'requires_shipping'>,
  weight: string | null | undefined,
  barcodeFallback?: string | null,
): SellingValues {
  const out: SellingValues = {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const barcode = text(from.barcode) ?? text(barcodeFallback);
  if (barcode !== undefined) out.barcode = barcode;
  const compareAt = toMoney(typeof from.compare_at_price === 'string' ? from.compare_at_price : null);
  if (compareAt !== null) out.compareAtPrice = compareAt;
  if (from.inventory_policy === 'deny' || from.inventory_policy === 'continue') out.inventoryPolicy = from.inventory_policy === 'deny' ? 'DENY' : 'CONTINUE';
  if (typeof from.inventory_tracked === 'boolean') out.tracked = from.inventory_tracked;
  if (typeof from.taxable === 'boolean') out.taxable = from.taxable;
  if (typeof from.requires_shipping === 'boolean') out.requiresShipping = from.requires_shipping;
  const value = toDecimal(weight);
  const unit = from.weight_unit == null ? 'KILOGRAMS' : WEIGHT_UNITS[from.weight_unit];
  if (value !== null && unit) out.weight = { value: Number(value), unit };
  return out;
}

/** A snapshot's storefront type (`storefront_type`), trimmed; undefined when it has none. */
function storefrontTypeOf(product: PimProductSnapshot): string | undefined {
  return typeof product.storefront_type === 'string' && product.storefront_type.trim() !== '' ? product.storefront_type.trim() : undefined;
}

/** One PIM variant (or the product itself, without variants) as mapProduct sends it. */
interface VariantSource {
  sku: string;
  image?: string | null;
  price: string | null | undefined;
  salePrice: string | null | undefined;
  cost?: string | null;
  selling: SellingValues;
  /** The PIM made the SKU up: it stays our key but is never written to the shop. */
  generated: boolean;
  enabled: boolean;
  optionValues: VariantInput['optionValues'];
  levels: Record<string, number>;
}

/** What a product's variants share in mapProduct: what is known, and where their stock, disabled SKUs and owned compare-at prices go. */
interface VariantContext {
  known: KnownStorefrontProduct;
  /** SKUs whose compare-at price the bridge wrote before. */
  previouslyOwned: Set<string>;
  /** The images are unchanged: no variant `file` is sent. */
  unchanged: boolean;
  fileOf(url: string): FileInput;
  stock: MappedProduct['stock'];
  disabled: string[];
  compareAtOwned: string[];
}

/** The PIM product's variants as productSet inputs (the product itself as the one variant when it has none). */
function pimVariantInputs(
  product: PimProductSnapshot,
  context: { placement: SyncPlacement; locations: ShopLocation[] },
  options: ReturnType<typeof productOptions>,
  shared: VariantContext,
): VariantInput[] {
  return product.variants.length === 0
    ? [
        variantInput(
          {
            sku: product.sku,
            price: product.price,
            salePrice: product.sale_price,
            cost: product.cost_price,
            // The product's own selling fields; its barcode, else its `ean` (a GTIN is a barcode too).
            selling: sellingValuesOf(product, product.weight, product.ean),
            generated: product.sku_generated === true,
            enabled: true,
            optionValues: [{ optionName: DEFAULT_OPTION, name: DEFAULT_VALUE }],
            levels: stockAt(context.placement, context.locations, product.stock ?? 0, product.warehouse_stock),
          },
          shared,
        ),
      ]
    : sortedVariants(product).map((v) =>
        variantInput(
          {
            sku: v.sku,
            price: v.price ?? product.price,
            salePrice: v.price !== null ? v.sale_price : (v.sale_price ?? product.sale_price),
            cost: v.cost ?? product.cost_price,
            selling: sellingValuesOf(v, v.weight),
            generated: v.sku_generated === true,
            image: v.image,
            enabled: v.is_enabled !== false,
            optionValues: variantOptionValues(product, v, options),
            levels: stockAt(context.placement, context.locations, v.stock_quantity, undefined),
          },
          shared,
        ),
      );
}

function variantInput(v: VariantSource, shared: VariantContext): VariantInput {
  const { known, previouslyOwned, unchanged, fileOf, stock, disabled, compareAtOwned } = shared;
  // A merchant's variant of this SKU (kept since the adoption) is the PIM's from now on.
  const id = known.variantIds[v.sku] ?? merchantVariantOfSku(known, v.sku)?.id;
  const price = pricing(v.price, v.salePrice);
  // The compare-at price: the regular price while the PIM has a sale, else the PIM's compare_at_price as given; one we
  // wrote before and the PIM no longer gives is cleared; else it is the merchant's and left alone.
  const ownCompareAt = price.compareAtPrice ?? v.selling.compareAtPrice ?? null;
  const compareAt = ownCompareAt !== null ? ownCompareAt : previouslyOwned.has(v.sku) ? null : undefined;
  if (ownCompareAt !== null) compareAtOwned.push(v.sku);
  // A disabled PIM variant stays on the storefront (its id, its orders) but cannot be sold: nothing available, DENY,
  // tracked. Otherwise policy and tracking come from the PIM only; without a PIM value an existing variant keeps the
  // shop's, a new one gets FIELD_OWNERSHIP's create default (DENY, tracked), as before these fields were kept.
  const levels = v.enabled ? v.levels : Object.fromEntries(Object.keys(v.levels).map((l) => [l, 0]));
  if (!v.enabled) disabled.push(v.sku);
  stock[v.sku] = levels;
  const policy = !v.enabled ? 'DENY' : (v.selling.inventoryPolicy ?? (id ? undefined : createDefault<'DENY'>('inventoryPolicy')));
  const tracked = !v.enabled ? true : (v.selling.tracked ?? (id ? undefined : createDefault<boolean>('tracked')));
  const cost = toDecimal(v.cost);
  return {
    ...(id ? { id } : {}),
    // A SKU the PIM made up (sku_generated: a catalogue file gave none) is never written to the shop: left out here and
    // on the inventory item (an existing variant keeps the shop's); it stays our key (variantKeys).
    ...(v.generated ? {} : { sku: v.sku }),
    ...(price.price !== undefined ? { price: price.price } : {}),
    ...(compareAt !== undefined ? { compareAtPrice: compareAt } : {}),
    ...(v.selling.barcode !== undefined ? { barcode: v.selling.barcode } : {}),
    optionValues: v.optionValues,
    // Sent with `files` only (the file must also be in the product's `files`); when the images are unchanged neither
    // is sent, and the variant keeps its media ("Any omitted fields will remain unchanged", Mutation.productSet).
    ...(!unchanged && isUrl(v.image) ? { file: fileOf(v.image) } : {}),
    ...(policy !== undefined ? { inventoryPolicy: policy } : {}),
    ...(v.selling.taxable !== undefined ? { taxable: v.selling.taxable } : {}),
    inventoryItem: {
      ...(v.generated ? {} : { sku: v.sku }),
      ...(tracked !== undefined ? { tracked } : {}),
      ...(v.selling.requiresShipping !== undefined ? { requiresShipping: v.selling.requiresShipping } : {}),
      ...(cost !== null ? { cost } : {}),
      ...(v.selling.weight ? { measurement: { weight: v.selling.weight } } : {}),
    },
    ...(!id && Object.keys(levels).length > 0
      ? { inventoryQuantities: Object.entries(levels).map(([locationId, quantity]) => ({ locationId, name: 'available' as const, quantity })) }
      : {}),
  };
}

/** The SEO fields to send, and which of them the PIM gives. */
function seoOf(
  product: PimProductSnapshot,
  known: KnownStorefrontProduct,
): { seo: NonNullable<ProductSetInput['seo']>; seoTitle: string | undefined; seoDescription: string | undefined } {
  // SEO fields from the PIM's SEO columns, else its SEO attributes (Shopify derives the rest from the title and
  // description); one we wrote before and the PIM no longer has is cleared, one the merchant wrote is left alone.
  const attrs = product.attributes ?? {};
  const textOf = (...values: unknown[]) => values.map((x) => (typeof x === 'string' ? x.trim() : '')).find((x) => x !== '') || undefined;
  const seoTitle = textOf(product.seo_title, attrs.seo_title);
  const seoDescription = textOf(product.seo_description, attrs.seo_description);
  const seo: NonNullable<ProductSetInput['seo']> = {};
  if (seoTitle !== undefined || known.owned?.seoTitle) seo.title = seoTitle ?? '';
  if (seoDescription !== undefined || known.owned?.seoDescription) seo.description = seoDescription ?? '';
  return { seo, seoTitle, seoDescription };
}

/**
 * A product's images as `files` entries: known ones by media id, new ones from their source under our file name (the
 * same entry in `files` and in a variant's `file`, so Shopify makes one media of it, uploaded once, and attaches it to
 * the variant). A known image gets the PIM's alt text when it has one, the product's name when the PIM's was removed,
 * else keeps the shop's.
 */
function imageFileOf(product: PimProductSnapshot, known: KnownStorefrontProduct, pimAlt: (url: string) => string | undefined): (url: string) => FileInput {
  const sentAlts = known.owned?.imageAlts ?? {};
  return (url) => {
    if (!known.mediaIds[url]) return imageFile(url, product);
    const alt = pimAlt(url) ?? (sentAlts[url] !== undefined ? product.name.trim() : undefined);
    return { id: known.mediaIds[url], ...(alt !== undefined ? { alt } : {}) };
  };
}

/** What the bridge wrote and owns of the product (kept with the mapping), as mapProduct found it. */
function ownedOf(
  w: {
    attributeMetafields: StorefrontMetafield[];
    compareAtOwned: string[];
    seoTitle: string | undefined;
    seoDescription: string | undefined;
    pimTags: string[];
    giftCard: boolean;
    imageAlts: Record<string, string>;
    variantImages: Record<string, string>;
    collections: ReturnType<typeof collectionIdsOf>;
  },
  known: KnownStorefrontProduct,
): MappedProduct['owned'] {
  const fingerprint = metafieldsFingerprint(w.attributeMetafields);
  const creating = known.productId === null;
  return {
    ...(fingerprint !== undefined ? { attributeMetafields: fingerprint } : {}),
    compareAt: w.compareAtOwned,
    ...(w.seoTitle !== undefined ? { seoTitle: true } : {}),
    ...(w.seoDescription !== undefined ? { seoDescription: true } : {}),
    tags: w.pimTags,
    giftCard: creating ? w.giftCard : (known.owned?.giftCard ?? w.giftCard),
    ...(Object.keys(w.imageAlts).length > 0 ? { imageAlts: w.imageAlts } : {}),
    ...(Object.keys(w.variantImages).length > 0 ? { variantImages: w.variantImages } : {}),
    ...(w.collections ? { collections: w.collections } : {}),
  };
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
    /** Only when creating: the PIM slug, exactly (product-identity.ts, handleOf); never sent to an existing product. */
    handle?: string;
    keepTagsAndMetafields?: boolean;
    /** The product's attribute metafields, checked against the shop's definitions (attribute-metafields.ts). */
    attributeMetafields?: StorefrontMetafield[];
    /** The PIM's taxonomy category as Shopify's GID, resolved by the adapter (taxonomy.ts); absent: left out. */
    category?: string;
  },
): MappedProduct {
  const status = mapStatus(product.status);
  const options = productOptions(product);
  const pimTags = pimTagsOf(product);
  const stock: MappedProduct['stock'] = {};
  const disabled: string[] = [];
  const compareAtOwned: string[] = [];
  const previouslyOwned = new Set(known.owned?.compareAt ?? []);
  const creating = known.productId === null;
  const warnings: string[] = [];

  const imageUrls = imageUrlsOf(product);
  const variantImages = variantImagesOf(product);
  const pimAlt = pimAltOf(product);
  const unchanged = imagesUnchanged(known, imageUrls, variantImages, pimAlt);
  const fileOf = imageFileOf(product, known, pimAlt);

  const shared: VariantContext = { known, previouslyOwned, unchanged, fileOf, stock, disabled, compareAtOwned };
  const variants = pimVariantInputs(product, context, options, shared);

  // The merchant's variants an adoption found (the PIM product lacks them): sent back by id, never deleted unasked.
  const merchantVariants = keepMerchantVariants(known, variants, options);
  variants.push(...merchantVariants.inputs);
  if (merchantVariants.kept.length > 0) warnings.push(keptVariantsWarning(merchantVariants.kept));

  // `files` replaces the product's media: ours in the PIM's order, then the merchant's as read (by id, their alt kept).
  const merchantMedia = unchanged ? [] : merchantMediaOf(context.current, known);
  const files: FileInput[] = [...imageUrls.map(fileOf), ...merchantMedia.map((id) => ({ id }))];

  const { seo, seoTitle, seoDescription } = seoOf(product, known);

  // The product type: the PIM's storefront type, else the integration's setting (the first category's name by default,
  // or an attribute), never the PIM's structural product_type; never blanked (no value: left out, the merchant's stays).
  const productType = storefrontTypeOf(product) ?? productTypeOf(product, context.placement.productType?.attributeCode);

  // A gift card is one from its creation: "The product gift_card attribute cannot be changed after creation"
  // (ProductSetUserErrorCode.GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED, schema 2026-10). Sent on create only.
  const giftCard = product.gift_card === true;
  if (!creating && known.owned?.giftCard !== undefined && known.owned.giftCard !== giftCard) {
    warnings.push(`gift_card: the product was created ${known.owned.giftCard ? 'as' : 'not as'} a gift card; Shopify does not change that afterwards`);
  }

  const attributeMetafields = context.attributeMetafields ?? [];
  const collections = collectionIdsOf(product, context.placement);
  const input: ProductSetInput = {
    title: product.name.trim(),
    ...(product.description != null ? { descriptionHtml: product.description } : {}),
    ...(product.brand?.name ? { vendor: product.brand.name } : {}),
    ...(productType !== '' ? { productType } : {}),
    ...(context.keepTagsAndMetafields ? {} : { tags: mergeTags(pimTags, context.current) }),
    status,
    ...(Object.keys(seo).length > 0 ? { seo } : {}),
    ...(creating ? { giftCard } : {}),
    ...(context.category ? { category: context.category } : {}),
    ...(context.handle ? { handle: context.handle } : {}),
    productOptions: options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants,
    ...(unchanged ? {} : { files }),
    ...(context.keepTagsAndMetafields
      ? {}
      : withMetafields([...ourMetafields(product.id, pimTags), ...attributeMetafields], context.current, attributeOwnership(context.placement))),
    ...(context.keepTagsAndMetafields || !collections ? {} : withCollections(collections, context.current, context.placement, known)),
  };
  const imageAlts = Object.fromEntries(imageUrls.flatMap((u) => (pimAlt(u) !== undefined ? [[u, pimAlt(u)!]] : [])));
  const owned = ownedOf({ attributeMetafields, compareAtOwned, seoTitle, seoDescription, pimTags, giftCard, imageAlts, variantImages, collections }, known);
  const variantKeys = product.variants.length === 0 ? [product.sku] : sortedVariants(product).map((v) => v.sku);
  return {
    input,
    imageUrls,
    owned,
    stock,
    disabled,
    merchantMedia,
    warnings,
    variantKeys,
    merchantVariants: { kept: merchantVariants.kept, refused: merchantVariants.refused },
  };
}

const skuKey = (sku: string | null | undefined) => (sku ?? '').trim().toLowerCase();

/** The merchant's variant (KnownStorefrontProduct.merchantVariants) with this SKU, compared as the adoption compares them. */
function merchantVariantOfSku(known: KnownStorefrontProduct, sku: string): MerchantVariant | undefined {
  const key = skuKey(sku);
  return key ? known.merchantVariants?.find((m) => skuKey(m.sku) === key) : undefined;
}

/** A merchant's variant as a warning or an error names it: its SKU and option values. */
function variantLabel(m: MerchantVariant): string {
  const options = m.options.map((o) => `${o.name}: ${o.value}`).join(', ');
  return `${m.sku ? `'${m.sku}'` : m.id}${options ? ` (${options})` : ''}`;
}

const listed = (all: MerchantVariant[]) => {
  const shown = all.slice(0, 10).map(variantLabel).join(', ');
  return all.length > 10 ? `${shown} and ${all.length - 10} more` : shown;
};

function keptVariantsWarning(kept: MerchantVariant[]): string {
  return `variants: the shop's ${kept.length === 1 ? 'variant' : `${kept.length} variants`} ${listed(kept)}, which the PIM product does not have, ${kept.length === 1 ? 'was' : 'were'} kept as ${kept.length === 1 ? 'it is' : 'they are'}: add ${kept.length === 1 ? 'it' : 'them'} to the PIM product (same SKU) to sync ${kept.length === 1 ? 'it' : 'them'} from there, or delete ${kept.length === 1 ? 'it' : 'them'} in Shopify`;
}

/**
 * The shop's variants an adoption found that the PIM product does not have (known.merchantVariants). productSet deletes
 * the variants it is not sent, so those that fit beside the PIM's (the same option names, a combination of values of
 * their own) are sent back by id with their option values only (the rest stays as it is: "Any omitted fields will
 * remain unchanged", Mutation.productSet), their values added to the options. One that does not fit (other options,
 * e.g. the PIM product has no variants, or the combination of a PIM variant) cannot be kept: the product is refused,
 * naming it, rather than losing a sellable variant without a word. A variant a PIM variant took over (its SKU) is gone
 * from the list.
 */
function keepMerchantVariants(
  known: KnownStorefrontProduct,
  pim: VariantInput[],
  options: { name: string; values: string[] }[],
): { kept: MerchantVariant[]; inputs: VariantInput[]; refused: string[] } {
  const out = { kept: [] as MerchantVariant[], inputs: [] as VariantInput[], refused: [] as string[] };
  const candidates = (known.merchantVariants ?? []).filter((m) => !pim.some((v) => v.id === m.id));
  if (candidates.length === 0) return out;
  const norm = (s: string) => s.trim().toLowerCase();
  const combo = (values: { optionName: string; name: string }[]) =>
    values
      .map((o) => `${norm(o.optionName)}\u0000${norm(o.name)}`)
      .sort()
      .join('\u0001');
  const combos = new Set(pim.map((v) => combo(v.optionValues)));
  const names = options.map((o) => norm(o.name)).sort();
  const misfits: MerchantVariant[] = [];
  for (const m of candidates) {
    const fits =
      m.options.length === options.length &&
      m.options
        .map((o) => norm(o.name))
        .sort()
        .every((n, i) => n === names[i]);
    const optionValues = fits
      ? options.map((o) => {
          const value = m.options.find((x) => norm(x.name) === norm(o.name))!.value;
          return { optionName: o.name, name: o.values.find((x) => sameValue(x, value)) ?? value };
        })
      : [];
    if (!fits || combos.has(combo(optionValues))) {
      misfits.push(m);
      continue;
    }
    combos.add(combo(optionValues));
    for (const v of optionValues) {
      const option = options.find((o) => o.name === v.optionName)!;
      if (!option.values.some((x) => sameValue(x, v.name))) option.values.push(v.name);
    }
    out.kept.push(m);
    out.inputs.push({ id: m.id, optionValues, inventoryItem: {} });
  }
  if (misfits.length > 0) {
    const shape = options.map((o) => o.name).join(', ');
    out.refused.push(
      `variants: the shop's ${misfits.length === 1 ? 'variant' : 'variants'} ${listed(misfits)} ${misfits.length === 1 ? 'is' : 'are'} not in the PIM product and cannot be kept beside its variants (options: ${shape}): a push would delete ${misfits.length === 1 ? 'it' : 'them'}. Add ${misfits.length === 1 ? 'it' : 'them'} to the PIM product (same SKU), or delete ${misfits.length === 1 ? 'it' : 'them'} in Shopify`,
    );
  }
  return out;
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
export function toDecimal(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(String(value).trim());
  if (!m) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  return frac ? `${BigInt(m[1])}.${frac}` : `${BigInt(m[1])}`;
}

export function ourMetafields(pimId: number, pimTags: string[]): StorefrontMetafield[] {
  return [
    { namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY, type: 'single_line_text_field', value: String(pimId) },
    { namespace: METAFIELD_NAMESPACE, key: PIM_TAGS_KEY, type: 'json', value: JSON.stringify(pimTags) },
  ];
}

/**
 * productSet replaces the metafield list it is sent. A new product gets ours; an existing one gets nothing when ours are
 * unchanged (the list is kept as it is), else its own metafields as read with ours replaced — merchant metafields survive.
 */
function withMetafields(ours: StorefrontMetafield[], current: StorefrontTags | null, own: AttributeMetafieldOwnership): Pick<ProductSetInput, 'metafields'> {
  if (!current?.metafields) return { metafields: ours };
  const same = (a: StorefrontMetafield, b: StorefrontMetafield) => a.namespace === b.namespace && a.key === b.key;
  // A metafield of the bridge's attributes (its namespace, or an attribute's own key) that we no longer send is an
  // attribute value the PIM dropped: removed; so is the category tags' record of older pushes (mergeTags).
  const bridgeOwned = (m: StorefrontMetafield) => own.namespaces.includes(m.namespace) || own.keys.includes(`${m.namespace}.${m.key}`);
  const stale = (m: StorefrontMetafield) =>
    (bridgeOwned(m) && !ours.some((o) => same(m, o))) || (m.namespace === METAFIELD_NAMESPACE && m.key === CATEGORY_TAGS_KEY);
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

interface AttributeMetafieldOwnership {
  /** Namespaces every metafield of which is the bridge's (the integration's attribute namespace). */
  namespaces: string[];
  /** `namespace.key` of attributes with a metafield of their own, in namespaces shared with the merchant. */
  keys: string[];
}

/** Which metafields are the bridge's attribute metafields. */
function attributeOwnership(placement: SyncPlacement): AttributeMetafieldOwnership {
  const specs = placement.attributeMetafields ?? [];
  return {
    namespaces: [...new Set(specs.filter((s) => !s.home).map((s) => s.namespace))],
    keys: specs.filter((s) => s.home).map((s) => `${s.namespace}.${s.key}`),
  };
}

function jsonEqual(a: string, b: string): boolean {
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}
