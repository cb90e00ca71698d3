// What a push would change on a shop product (dry run) and what changed in the shop since the bridge last wrote it
// (drift). Pure: the shop product as read (a `nodes(ids:)` read or the catalogue's bulk query) against the productSet
// input a push would send (dry run) or the values the last push recorded (`WrittenFields`, kept in the mapping's
// storefront_state). Only the fields the bridge owns are compared: title, descriptionHtml, vendor, productType, status,
// tags (ours), seo, handle on create, each variant's price / compareAtPrice / barcode / option values, the images by
// our file name, and (dry run only) the custom collections by title. A field the push leaves out (a description the
// PIM does not have, a compare-at price the merchant set) is the merchant's and never a change.
import type { DriftChange, FieldChange, StorefrontCatalogueProduct, WrittenFields } from '../storefront.port.js';
import { mediaFilename, mediaKeyIn, sameValue, type ProductSetInput } from './product-mapper.js';

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
  variants: {
    id: string;
    sku: string | null;
    price: string | null;
    compareAtPrice: string | null;
    barcode: string | null;
    options: { name: string; value: string }[];
  }[];
  images: { mediaId: string; url: string | null }[];
  /** Its custom collections; undefined: not read (not compared). */
  collections?: { id: string; title: string }[];
}

/** Our key of an image, from its PIM URL (`pim-` + 16 hex, without the extension). */
export const imageKey = (url: string): string => mediaKeyIn(mediaFilename(url)) ?? url;

/** What a productSet input writes of the fields the bridge owns (kept with the mapping; the drift report compares it). */
export function writtenOf(input: ProductSetInput, categoryTags: string[], imageUrls: string[]): WrittenFields {
  const variants: WrittenFields['variants'] = {};
  for (const v of input.variants) {
    variants[v.sku] = {
      ...(v.price !== undefined ? { price: v.price } : {}),
      ...(v.compareAtPrice !== undefined ? { compareAtPrice: v.compareAtPrice } : {}),
      ...(v.barcode !== undefined ? { barcode: v.barcode } : {}),
      options: v.optionValues.map((o) => `${o.optionName}: ${o.name}`),
    };
  }
  return {
    title: input.title,
    ...(input.descriptionHtml !== undefined ? { descriptionHtml: input.descriptionHtml } : {}),
    ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
    ...(input.productType !== undefined ? { productType: input.productType } : {}),
    status: input.status,
    ...(input.seo ? { seo: { ...input.seo } } : {}),
    tags: categoryTags,
    variants,
    images: imageUrls.map(imageKey),
  };
}

const money = (a: string | null | undefined) => (a === null || a === undefined || a === '' ? null : Number(a));
const sameMoney = (a: string | null | undefined, b: string | null | undefined) => money(a) === money(b);
const optionsOf = (v: ShopProductView['variants'][number]) => v.options.map((o) => `${o.name}: ${o.value}`);
const sameOptions = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
const sameTagSet = (a: string[], b: string[]) => {
  const norm = (t: string[]) => [...new Set(t.map((x) => x.trim().toLowerCase()))].sort().join('\n');
  return norm(a) === norm(b);
};

/** The shop's images as our keys where they are ours (by the media ids we know, else our file name in the URL), else their media id. */
function shopImageKeys(current: ShopProductView, knownMediaIds: Record<string, string>): string[] {
  const byId = new Map(Object.entries(knownMediaIds).map(([url, id]) => [id, imageKey(url)]));
  return current.images.map((m) => byId.get(m.mediaId) ?? mediaKeyIn(m.url) ?? m.mediaId);
}

/** Field by field, what the dry-run input would change on `current` (null: the product is created, every field from null). */
export function previewChanges(
  input: ProductSetInput,
  imageUrls: string[],
  current: ShopProductView | null,
  knownMediaIds: Record<string, string> = {},
  collections?: string[],
): FieldChange[] {
  const out: FieldChange[] = [];
  const add = (field: string, storefront: unknown, pim: unknown) => out.push({ field, storefront, pim });
  const scalar = (field: keyof ShopProductView & keyof ProductSetInput) => {
    const want = input[field];
    if (want === undefined) return;
    const have = current ? (current[field] as unknown) : null;
    if (have !== want) add(field, have, want);
  };
  if (!current && input.handle) add('handle', null, input.handle);
  for (const f of ['title', 'descriptionHtml', 'vendor', 'productType', 'status'] as const) scalar(f);
  if (input.tags !== undefined && (!current || !sameTagSet(current.tags, input.tags))) add('tags', current ? current.tags : null, input.tags);
  if (input.seo) {
    for (const k of ['title', 'description'] as const) {
      if (input.seo[k] === undefined) continue;
      const have = current ? (current.seo?.[k] ?? null) : null;
      if ((have ?? '') !== (input.seo[k] ?? '') || !current) add(`seo.${k}`, have, input.seo[k]);
    }
  }
  const shopVariants = new Map((current?.variants ?? []).flatMap((v) => (v.sku ? [[v.sku, v] as const] : [])));
  for (const v of input.variants) {
    const have = shopVariants.get(v.sku);
    const at = `variants[${v.sku}]`;
    if (!have) {
      if (current) add(at, null, { sku: v.sku });
      if (v.price !== undefined) add(`${at}.price`, null, v.price);
      if (v.compareAtPrice !== undefined && v.compareAtPrice !== null) add(`${at}.compareAtPrice`, null, v.compareAtPrice);
      if (v.barcode !== undefined) add(`${at}.barcode`, null, v.barcode);
      add(
        `${at}.options`,
        null,
        v.optionValues.map((o) => `${o.optionName}: ${o.name}`),
      );
      continue;
    }
    if (v.price !== undefined && !sameMoney(have.price, v.price)) add(`${at}.price`, have.price, v.price);
    if (v.compareAtPrice !== undefined && !sameMoney(have.compareAtPrice, v.compareAtPrice)) add(`${at}.compareAtPrice`, have.compareAtPrice, v.compareAtPrice);
    if (v.barcode !== undefined && (have.barcode ?? '') !== v.barcode) add(`${at}.barcode`, have.barcode, v.barcode);
    const want = v.optionValues.map((o) => `${o.optionName}: ${o.name}`);
    if (!sameOptions(optionsOf(have), want)) add(`${at}.options`, optionsOf(have), want);
  }
  // productSet replaces the variant list: a shop variant the input does not name is deleted.
  const sent = new Set(input.variants.map((v) => v.sku));
  for (const v of current?.variants ?? []) if (!v.sku || !sent.has(v.sku)) add(`variants[${v.sku ?? v.id}]`, { sku: v.sku, id: v.id }, null);
  if (input.files !== undefined) {
    const want = imageUrls.map(imageKey);
    const have = current ? shopImageKeys(current, knownMediaIds) : [];
    if (!current || have.length !== want.length || have.some((k, i) => k !== want[i])) add('images', current ? have : null, want);
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
  for (const f of ['title', 'descriptionHtml', 'vendor', 'productType', 'status'] as const) {
    const want = written[f];
    if (want !== undefined && current[f] !== want) add(f, current[f], want);
  }
  // Tags: ours (the category names) must all be there; the merchant's own tags are theirs.
  const have = new Set(current.tags.map((t) => t.trim().toLowerCase()));
  if (written.tags.some((t) => !have.has(t.trim().toLowerCase()))) add('tags', current.tags, written.tags);
  if (written.seo && current.seo) {
    for (const k of ['title', 'description'] as const) {
      if (written.seo[k] === undefined) continue;
      if ((current.seo[k] ?? '') !== (written.seo[k] ?? '')) add(`seo.${k}`, current.seo[k], written.seo[k]);
    }
  }
  const shopVariants = new Map(current.variants.flatMap((v) => (v.sku ? [[v.sku, v] as const] : [])));
  for (const [sku, w] of Object.entries(written.variants)) {
    const v = shopVariants.get(sku);
    const at = `variants[${sku}]`;
    if (!v) {
      add(at, null, { sku });
      continue;
    }
    if (w.price !== undefined && !sameMoney(v.price, w.price)) add(`${at}.price`, v.price, w.price);
    if (w.compareAtPrice !== undefined && !sameMoney(v.compareAtPrice, w.compareAtPrice)) add(`${at}.compareAtPrice`, v.compareAtPrice, w.compareAtPrice);
    if (w.barcode !== undefined && (v.barcode ?? '') !== w.barcode) add(`${at}.barcode`, v.barcode, w.barcode);
    if (!sameOptions(optionsOf(v), w.options)) add(`${at}.options`, optionsOf(v), w.options);
  }
  for (const v of current.variants) if (!v.sku || !(v.sku in written.variants)) add(`variants[${v.sku ?? v.id}]`, { sku: v.sku, id: v.id }, null);
  // Images: compared once every shop image is processed or known by id (one still processing has no URL, so no name yet).
  const keys = shopImageKeys(current, knownMediaIds);
  const unknown = current.images.some((m, i) => keys[i] === m.mediaId && m.url === null);
  if (!unknown && (keys.length !== written.images.length || keys.some((k, i) => k !== written.images[i]))) add('images', keys, written.images);
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
    variants: p.variants.map((v) => ({ id: v.id, sku: v.sku, price: v.price, compareAtPrice: v.compareAtPrice, barcode: v.barcode, options: v.options })),
    images: p.images,
  };
}
