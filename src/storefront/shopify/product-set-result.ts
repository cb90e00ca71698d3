// productSet's answer → ProductUpsertResult, shared by the per-call upsert and the bulk result lines; what a productSet
// is expected to cost, and the failures after which the per-call upsert looks again and resends.
import type { StorefrontError, StorefrontValidationError } from '../port/errors.js';
import type { ProductUpsertResult } from '../port/upsert-result.js';
import { connectionMultiplier } from './graphql-answer.js';
import type { StorefrontMediaNode } from './operations.js';
import { mediaFilename, mediaKeyIn } from './product-media.js';

/** The numeric part of a GID (`gid://shopify/Product/1001` → 1001; 0 when there is none). */
export function numericId(gid: string): number {
  const m = /(\d+)(?:\?.*)?$/.exec(gid);
  return m ? Number(m[1]) : 0;
}

interface ProductSetProduct {
  id: string;
  handle: string;
  title: string;
  variants?: { nodes?: { id: string; sku: string | null; inventoryItem?: { id: string } | null }[] };
}

/** What the steps after productSet add to its result (none yet: a bulk line before its steps have run). */
const NO_STEPS = { owned: {}, stock: {}, publications: [], problems: [], warnings: [] } satisfies Partial<ProductUpsertResult>;

/** Variant ids by SKU from the answer; media ids as the caller matched them (the two paths match them differently). */
export function upsertResultOf(
  p: ProductSetProduct,
  o: {
    method: 'create' | 'update';
    mediaIds: Record<string, string>;
    imagesUnconfirmed?: string[];
    variantCount: number;
    imageCount: number;
    /**
     * Our key of each variant sent, in order (MappedProduct.variantKeys): a variant answered without one of them as its
     * SKU (one whose SKU the PIM made up, not written to the shop) takes the key of its place (productSet answers the
     * variants in the order sent).
     */
    keys?: string[];
  },
): ProductUpsertResult {
  const variantIds: Record<string, string> = {};
  const inventoryItemIds: Record<string, string> = {};
  const keys = o.keys ? new Set(o.keys) : null;
  for (const [i, v] of (p.variants?.nodes ?? []).entries()) {
    const key = v.sku && (!keys || keys.has(v.sku)) ? v.sku : o.keys?.[i];
    if (!key) continue;
    variantIds[key] = v.id;
    if (v.inventoryItem?.id) inventoryItemIds[key] = v.inventoryItem.id;
  }
  const firstVariant = p.variants?.nodes?.[0]?.id;
  return {
    method: o.method,
    productId: p.id,
    productNumericId: numericId(p.id),
    handle: p.handle,
    title: p.title,
    firstVariantNumericId: firstVariant ? numericId(firstVariant) : null,
    variantIds,
    mediaIds: o.mediaIds,
    imagesUnconfirmed: o.imagesUnconfirmed ?? [],
    variantCount: o.variantCount,
    imageCount: o.imageCount,
    inventoryItemIds,
    ...NO_STEPS,
  };
}

/** Our key of a storefront media: the file name we gave it, at the end of its URL once Shopify has processed it. */
export function mediaKeyOf(node: StorefrontMediaNode): string | null {
  return mediaKeyIn(node.image?.url ?? null);
}

/** matchMedia's answer: the media of each image, and the FAILED ones apart (with Shopify's reason). */
export interface MatchedMedia {
  /** Image URL → media id, for media not FAILED. */
  mediaIds: Record<string, string>;
  /** Image URL → id of its FAILED media. */
  failed: Record<string, string>;
  /** One line per FAILED media, with Shopify's reason. */
  problems: string[];
}

/**
 * The storefront media of each PIM image URL, from a productSet answer: ids we sent that are still there, then media
 * whose URL carries the image's file name (mediaFilename); images just uploaded, whose URL Shopify does not show until
 * it has processed them, take the remaining new media in the order they were sent (Shopify keeps the product's media
 * in the order of `files`; `newInOrder: false` when the nodes are not the answer to our files, as in a recovery; the
 * merchant's media, `merchant`, are never matched). A media that FAILED processing is a problem line with Shopify's reason and is kept apart
 * from `mediaIds`: a FAILED media never becomes READY, so its image is sent from its source again (the failure may have
 * been the source being down), and productSet's list replacement deletes the failed media.
 */
export function matchMedia(
  imageUrls: string[],
  knownIds: Record<string, string>,
  nodes: StorefrontMediaNode[],
  options: { newInOrder?: boolean; merchant?: string[] } = {},
): MatchedMedia {
  const present = new Map(nodes.map((n) => [n.id, n]));
  // The merchant's media (sent back by id with ours) are never one of our images.
  const taken = new Set<string>(options.merchant ?? []);
  const matched: Record<string, string> = {};
  const assign = (url: string, node: StorefrontMediaNode) => {
    matched[url] = node.id;
    taken.add(node.id);
  };
  for (const url of imageUrls) {
    const node = knownIds[url] ? present.get(knownIds[url]) : undefined;
    if (node) assign(url, node);
  }
  for (const url of imageUrls) {
    if (matched[url]) continue;
    const key = mediaKeyIn(mediaFilename(url));
    const node = nodes.find((n) => !taken.has(n.id) && mediaKeyOf(n) === key);
    if (node) assign(url, node);
  }
  if (options.newInOrder !== false) {
    const fresh = nodes.filter((n) => !taken.has(n.id) && mediaKeyOf(n) === null);
    for (const [i, url] of imageUrls.filter((u) => !matched[u]).entries()) if (fresh[i]) assign(url, fresh[i]);
  }

  const result: MatchedMedia = { mediaIds: {}, failed: {}, problems: [] };
  for (const url of imageUrls) {
    const id = matched[url];
    if (!id) continue;
    const node = present.get(id)!;
    if (node.status !== 'FAILED') {
      result.mediaIds[url] = id;
      continue;
    }
    result.failed[url] = id;
    const reason = (node.mediaErrors ?? []).map((e) => `${e.message} (${e.code})`).join('; ') || 'no reason given';
    result.problems.push(`image ${url}: the shop could not process it: ${reason}`);
  }
  return result;
}

/**
 * Expected cost of ProductSetSync: `10 + 0.2·variants + 0.6·variant files + 1.9·files + 0.4·product metafields` plus its
 * selection (product 1, variants 2 + 1×m(v), media 2 + 1×m(f), userErrors 1).
 */
export function productSetCost(variants: number, files: number, metafields: number, images = files, variantFiles = 0): number {
  const v = Math.min(250, Math.max(1, variants));
  const m = Math.min(250, Math.max(1, images));
  // product 1; variants 2 + (variant 1 + inventoryItem 1) × m(v) + pageInfo 1; media 2 + (media 1 + mediaErrors 1 + image 1) × m(m); userErrors 1.
  return (
    Math.ceil(10 + 0.2 * variants + 0.6 * variantFiles + 1.9 * files + 0.4 * metafields) +
    1 +
    2 +
    2 * connectionMultiplier(v) +
    1 +
    2 +
    3 * connectionMultiplier(m) +
    1
  );
}

/** productSet failed in a way that may have been applied (5xx, timeout): upsertProduct looks again before retrying. */
export class AmbiguousFailure extends Error {
  constructor(
    readonly failure: StorefrontError,
    /** The attempt was creating (no product found before it). */
    readonly creating: boolean,
  ) {
    super(failure.message);
  }
}

/** productSet refused ids we sent from our records: a variant or file id not (any more) the product's, a location gone. */
export class StaleIds extends Error {
  constructor(
    readonly refusal: StorefrontValidationError,
    readonly locations: boolean,
  ) {
    super(refusal.message);
  }
}

export function staleIdKinds(userErrors: { field: string[] | null; code: string | null }[]): { any: boolean; locations: boolean } {
  let any = false;
  let locations = false;
  for (const e of userErrors) {
    const f = e.field ?? [];
    const last = f[f.length - 1];
    if (last === 'locationId') any = locations = true;
    else if (
      e.code === 'PRODUCT_DOES_NOT_EXIST' ||
      e.code === 'PRODUCT_VARIANT_DOES_NOT_EXIST' ||
      (last === 'id' && (f.includes('variants') || f.includes('files')))
    )
      any = true;
  }
  return { any, locations };
}
