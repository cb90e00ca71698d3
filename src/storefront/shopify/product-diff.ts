// What a push would change on a shop product (dry run) and what changed in the shop since the bridge last wrote it
// (drift). Pure: the shop product as read (a `nodes(ids:)` read or the catalogue's bulk query) against the productSet
// input a push would send (dry run) or the values the last push recorded (`WrittenFields`, kept in the mapping's
// storefront_state). Which fields are compared, and how, is field-ownership.ts's table (FIELD_OWNERSHIP: its `dryRun`
// and `drift` columns); the images (ours by file name, the merchant's kept), the variants present and, in a dry run only,
// the handle of a product created and the custom collections by title are compared here. A field the push leaves out
// (a description the PIM does not have, a compare-at price the merchant set) is the merchant's and never a change.
import type { DriftChange, StorefrontCatalogueProduct } from '../port/catalogue.js';
import type { WrittenFields, WrittenVariant } from '../port/known-product.js';
import type { FieldChange } from '../port/upsert-result.js';
import { comparedFields, sameUnder, type ProductFacts } from './field-comparison.js';
import { mediaFilename, mediaKeyIn } from './product-media.js';
import type { ProductSetInput } from './product-set-input.js';

/** A shop product as read, in the shape both reads give. */
export interface ShopProductView {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  status: string;
  tags: string[];
  /** null: not read (the comparison of SEO fields is skipped). */
  seo: { title: string | null; description: string | null } | null;
  /** Undefined: not read (not compared). */
  giftCard?: boolean;
  /** The taxonomy category's GID, null when none; undefined: not read (not compared). */
  category?: string | null;
  variants: ShopVariantView[];
  images: { mediaId: string; url: string | null }[];
  /** Its custom collections; undefined: not read (not compared). */
  collections?: { id: string; title: string }[];
}

/** A shop variant as read; a field undefined was not read (not compared). */
export interface ShopVariantView {
  id: string;
  sku: string | null;
  price: string | null;
  compareAtPrice: string | null;
  barcode: string | null;
  options: { name: string; value: string }[];
  inventoryPolicy?: string | null;
  tracked?: boolean | null;
  taxable?: boolean | null;
  requiresShipping?: boolean | null;
  weight?: { value: number; unit: string } | null;
}

/** Our key of an image, from its PIM URL (`pim-` + 16 hex, without the extension). */
export const imageKey = (url: string): string => mediaKeyIn(mediaFilename(url)) ?? url;

/** A productSet input's variant as the compared facts (WrittenVariant). */
function variantFacts(v: ProductSetInput['variants'][number]): WrittenVariant {
  return {
    ...(v.price !== undefined ? { price: v.price } : {}),
    ...(v.compareAtPrice !== undefined ? { compareAtPrice: v.compareAtPrice } : {}),
    ...(v.barcode !== undefined ? { barcode: v.barcode } : {}),
    options: v.optionValues.map((o) => `${o.optionName}: ${o.name}`),
    ...(v.inventoryPolicy !== undefined ? { inventoryPolicy: v.inventoryPolicy } : {}),
    ...(v.inventoryItem.tracked !== undefined ? { tracked: v.inventoryItem.tracked } : {}),
    ...(v.taxable !== undefined ? { taxable: v.taxable } : {}),
    ...(v.inventoryItem.requiresShipping !== undefined ? { requiresShipping: v.inventoryItem.requiresShipping } : {}),
    ...(v.inventoryItem.measurement ? { weight: { ...v.inventoryItem.measurement.weight } } : {}),
  };
}

/** A productSet input's product fields as the compared facts; `tags`: those the facts carry. */
function productFacts(input: ProductSetInput, tags: string[]): ProductFacts {
  return {
    title: input.title,
    ...(input.descriptionHtml !== undefined ? { descriptionHtml: input.descriptionHtml } : {}),
    ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
    ...(input.productType !== undefined ? { productType: input.productType } : {}),
    status: input.status,
    ...(input.seo ? { seo: { ...input.seo } } : {}),
    tags,
    ...(input.giftCard !== undefined ? { giftCard: input.giftCard } : {}),
    ...(input.category !== undefined ? { category: input.category } : {}),
  };
}

/** The key of each input variant: `keys` (the mapper's variantKeys, our PIM SKUs), else the SKU sent, else its id. */
const keyOf = (input: ProductSetInput, keys: string[] | undefined, i: number) => keys?.[i] ?? input.variants[i].sku ?? input.variants[i].id ?? '';

/**
 * What a productSet input writes of the fields the bridge owns (kept with the mapping; the drift report compares it).
 * Variants by our key (`keys`), each with its shop id when known (`variantIds`, by key): a variant whose SKU the PIM
 * made up has none in the shop to be matched by.
 */
export function writtenOf(
  input: ProductSetInput,
  pimTags: string[],
  imageUrls: string[],
  keys?: string[],
  variantIds: Record<string, string> = {},
): WrittenFields {
  const variants: WrittenFields['variants'] = {};
  input.variants.forEach((v, i) => {
    // Past our keys: the merchant's variants, sent back unchanged (MappedProduct.merchantVariants): not ours to compare.
    if (keys && i >= keys.length) return;
    const key = keyOf(input, keys, i);
    const id = v.id ?? variantIds[key];
    variants[key] = { ...(id ? { id } : {}), ...variantFacts(v) };
  });
  return { ...productFacts(input, pimTags), variants, images: imageUrls.map(imageKey) };
}

/** The shop product's facts (what the compared fields read). */
function shopFacts(current: ShopProductView): ProductFacts {
  return {
    title: current.title,
    descriptionHtml: current.descriptionHtml,
    vendor: current.vendor,
    productType: current.productType,
    status: current.status,
    tags: current.tags,
    seo: { title: current.seo?.title ?? undefined, description: current.seo?.description ?? undefined },
    ...(current.giftCard !== undefined ? { giftCard: current.giftCard } : {}),
    ...(current.category !== undefined ? { category: current.category ?? undefined } : {}),
  };
}

function shopVariantFacts(v: ShopVariantView): WrittenVariant {
  return {
    price: v.price ?? undefined,
    compareAtPrice: v.compareAtPrice,
    barcode: v.barcode ?? undefined,
    options: v.options.map((o) => `${o.name}: ${o.value}`),
    inventoryPolicy: v.inventoryPolicy ?? undefined,
    tracked: v.tracked ?? undefined,
    taxable: v.taxable ?? undefined,
    requiresShipping: v.requiresShipping ?? undefined,
    weight: v.weight ?? undefined,
  };
}

/** Whether the shop's read has the field at all (a read that did not select it compares nothing). */
const readProduct = (current: ShopProductView, key: string) =>
  key.startsWith('seo.')
    ? current.seo !== null
    : key === 'giftCard'
      ? current.giftCard !== undefined
      : key === 'category'
        ? current.category !== undefined
        : true;
const OPTIONAL_READS = new Set(['inventoryPolicy', 'tracked', 'taxable', 'requiresShipping', 'weight']);
const readVariant = (v: ShopVariantView, key: string) => !OPTIONAL_READS.has(key) || (v as unknown as Record<string, unknown>)[key] !== undefined;

/** The shop's images as our keys where they are ours (by the media ids we know, else our file name in the URL), else their media id. */
function shopImageKeys(current: ShopProductView, knownMediaIds: Record<string, string>): string[] {
  const byId = new Map(Object.entries(knownMediaIds).map(([url, id]) => [id, imageKey(url)]));
  return current.images.map((m) => byId.get(m.mediaId) ?? mediaKeyIn(m.url) ?? m.mediaId);
}

/** Whether a shop image key is one of ours (an image the bridge made), not the merchant's media id. */
const isOurKey = (key: string) => /^pim-[0-9a-f]{16}$/.test(key);

/** Field by field, what the dry-run input would change on `current` (null: the product is created, every field from null). */
export function previewChanges(
  input: ProductSetInput,
  imageUrls: string[],
  current: ShopProductView | null,
  knownMediaIds: Record<string, string> = {},
  collections?: string[],
  keys?: string[],
): FieldChange[] {
  const out: FieldChange[] = [];
  const add = (field: string, storefront: unknown, pim: unknown) => out.push({ field, storefront, pim });
  if (!current && input.handle) add('handle', null, input.handle);
  const want = productFacts(input, input.tags ?? []);
  const have = current ? shopFacts(current) : null;
  for (const { field, value } of comparedFields('dryRun', 'product')) {
    if (field.key === 'tags' && input.tags === undefined) continue;
    const w = (value as (f: ProductFacts) => unknown)(want);
    if (w === undefined) continue;
    if (!have) {
      add(field.key, null, w);
      continue;
    }
    if (!readProduct(current!, field.key)) continue;
    const h = (value as (f: ProductFacts) => unknown)(have);
    if (!sameUnder(field.dryRun, h, w)) add(field.key, field.key.startsWith('seo.') ? (h ?? null) : h, w);
  }
  const variantFields = comparedFields('dryRun', 'variant');
  // A variant is the shop's one of its id (productSet updates it by id), else of its SKU.
  const byId = new Map((current?.variants ?? []).map((v) => [v.id, v] as const));
  const bySku = new Map((current?.variants ?? []).flatMap((v) => (v.sku ? [[v.sku, v] as const] : [])));
  const kept = new Set<string>();
  for (const [i, v] of input.variants.entries()) {
    const key = keyOf(input, keys, i);
    const haveVariant = (v.id ? byId.get(v.id) : undefined) ?? (v.sku ? bySku.get(v.sku) : undefined);
    if (haveVariant) kept.add(haveVariant.id);
    const at = `variants[${key}]`;
    const facts = variantFacts(v);
    if (!haveVariant) {
      if (current) add(at, null, { sku: key });
      for (const { field, value } of variantFields) {
        const w = (value as (f: WrittenVariant) => unknown)(facts);
        if (w !== undefined && w !== null) add(`${at}.${field.key}`, null, w);
      }
      continue;
    }
    const shop = shopVariantFacts(haveVariant);
    for (const { field, value } of variantFields) {
      const w = (value as (f: WrittenVariant) => unknown)(facts);
      if (w === undefined || !readVariant(haveVariant, field.key)) continue;
      const h = (value as (f: WrittenVariant) => unknown)(shop);
      if (!sameUnder(field.dryRun, h, w)) add(`${at}.${field.key}`, h ?? null, w);
    }
  }
  // productSet replaces the variant list: a shop variant the input does not name is deleted.
  for (const v of current?.variants ?? []) if (!kept.has(v.id)) add(`variants[${v.sku ?? v.id}]`, { sku: v.sku, id: v.id }, null);
  if (input.files !== undefined) {
    // Ours in the PIM's order, then the merchant's media (sent back as read, in their order).
    const haveKeys = current ? shopImageKeys(current, knownMediaIds) : [];
    const wantKeys = [...imageUrls.map(imageKey), ...haveKeys.filter((k) => !isOurKey(k) && !Object.values(knownMediaIds).includes(k))];
    if (!current || haveKeys.length !== wantKeys.length || haveKeys.some((k, i) => k !== wantKeys[i])) add('images', current ? haveKeys : null, wantKeys);
  }
  // Collections by title, sorted (`collections`: the titles the push leaves the product in).
  if (collections !== undefined && (current ? current.collections !== undefined : collections.length > 0)) {
    const have = current?.collections ? current.collections.map((c) => c.title).sort() : null;
    if (!have || have.length !== collections.length || have.some((t, i) => t !== collections[i])) add('collections', have, collections);
  }
  return out;
}

/** Field by field, what differs in the shop from what the bridge last wrote (`written`). */
export function driftChanges(written: WrittenFields, current: ShopProductView, knownMediaIds: Record<string, string> = {}): DriftChange[] {
  const out: DriftChange[] = [];
  const add = (field: string, storefront: unknown, value: unknown) => out.push({ field, storefront, written: value });
  const have = shopFacts(current);
  for (const { field, value } of comparedFields('drift', 'product')) {
    const w = (value as (f: ProductFacts) => unknown)(written);
    if (w === undefined || !readProduct(current, field.key)) continue;
    const h = (value as (f: ProductFacts) => unknown)(have);
    // Tags: ours (the PIM's) must all be there; the merchant's own tags are theirs.
    if (!sameUnder(field.drift, h, w)) add(field.key, field.key === 'tags' ? current.tags : (h ?? null), w);
  }
  const variantFields = comparedFields('drift', 'variant');
  const byId = new Map(current.variants.map((v) => [v.id, v] as const));
  const bySku = new Map(current.variants.flatMap((v) => (v.sku ? [[v.sku, v] as const] : [])));
  const matched = new Set<string>();
  for (const [sku, w] of Object.entries(written.variants)) {
    const v = (w.id ? byId.get(w.id) : undefined) ?? bySku.get(sku);
    const at = `variants[${sku}]`;
    if (!v) {
      add(at, null, { sku });
      continue;
    }
    matched.add(v.id);
    const shop = shopVariantFacts(v);
    for (const { field, value } of variantFields) {
      const want = (value as (f: WrittenVariant) => unknown)(w);
      if (want === undefined || !readVariant(v, field.key)) continue;
      const h = (value as (f: WrittenVariant) => unknown)(shop);
      if (!sameUnder(field.drift, h, want)) add(`${at}.${field.key}`, h ?? null, want);
    }
  }
  for (const v of current.variants) if (!matched.has(v.id)) add(`variants[${v.sku ?? v.id}]`, { sku: v.sku, id: v.id }, null);
  // Images: ours only (the merchant's media are theirs), compared once every shop image is processed or known by id (one
  // still processing has no URL, so no name yet).
  const keys = shopImageKeys(current, knownMediaIds);
  const unknown = current.images.some((m, i) => keys[i] === m.mediaId && m.url === null);
  const ours = keys.filter(isOurKey);
  if (!unknown && (ours.length !== written.images.length || ours.some((k, i) => k !== written.images[i]))) add('images', ours, written.images);
  return out;
}

/** A product of the catalogue read (bulk query) as the comparison takes it. */
export function catalogueView(p: StorefrontCatalogueProduct): ShopProductView {
  return {
    id: p.id,
    handle: p.handle,
    title: p.title,
    descriptionHtml: p.descriptionHtml,
    vendor: p.vendor,
    productType: p.productType,
    status: p.status,
    tags: p.tags,
    seo: p.seo ?? null,
    ...(p.giftCard !== undefined ? { giftCard: p.giftCard } : {}),
    ...(p.category !== undefined ? { category: p.category?.id ?? null } : {}),
    variants: p.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      price: v.price,
      compareAtPrice: v.compareAtPrice,
      barcode: v.barcode,
      options: v.options,
      ...(v.inventoryPolicy !== undefined ? { inventoryPolicy: v.inventoryPolicy } : {}),
      ...(v.tracked !== undefined ? { tracked: v.tracked } : {}),
      ...(v.taxable !== undefined ? { taxable: v.taxable } : {}),
      ...(v.requiresShipping !== undefined ? { requiresShipping: v.requiresShipping } : {}),
      ...(v.weight !== undefined ? { weight: v.weight } : {}),
    })),
    images: p.images.map((m) => ({ mediaId: m.mediaId, url: m.url })),
  };
}
