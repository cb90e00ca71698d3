// A push's dry run (StorefrontPort.previewUpserts): the same pre-flight and mapping as upsertProduct, then the current
// storefront products read by id in batches (`nodes(ids:)`, read calls only, each under the shop's throttle) and
// compared field by field with the input a push would send (product-diff.ts). A product the push would create shows
// the handle it would get, the PIM slug exactly; who holds those handles already is searched in batches
// (product-identity.ts, handleHolders), so a create the shop would refuse is the same error as the push's. Nothing is
// written.
import type { BulkUpsertItem } from '../port/bulk.js';
import { StorefrontError, StorefrontValidationError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import type { ProductPreview } from '../port/upsert-result.js';
import {
  ProductPreviewRead,
  ProductPreviewVariants,
  type PreviewVariantNode,
  type ProductPreviewReadData,
  type ProductPreviewVariantsData,
} from './operations.js';
import { preflight } from './preflight.js';
import { previewChanges, type ShopProductView } from './product-diff.js';
import { handleHolders, handleOf, handleTakenProblem, type ProductIdentity } from './product-identity.js';
import { bridgeCollectionIds, previousTagsOf } from './tags-metafields-collections.js';
import { imageUrlsOf } from './product-media.js';
import { mapProduct, NOTHING_KNOWN } from './product-mapper.js';
import type { StorefrontTags } from './product-set-input.js';
import type { ShopifyClient } from './shopify-client.js';
import type { TaxonomyCategories } from './taxonomy.js';

/** Requested cost one read call may reach (Shopify refuses above 1000). */
const MAX_CALL_COST = 900;
/** Ids per `nodes(ids:)` (input arrays are capped at 250). */
const MAX_IDS = 250;

const multiplier = (n: number) => Math.floor(2 * Math.log(Math.max(2, Math.min(n, 250))));
const numericId = (gid: string) => Number(/\/(\d+)(?:\?.*)?$/.exec(gid)?.[1] ?? NaN);

interface ReadProduct {
  view: ShopProductView;
  tags: StorefrontTags;
}

export async function previewUpserts(
  client: ShopifyClient,
  taxonomy: TaxonomyCategories,
  shop: StorefrontShop,
  items: BulkUpsertItem[],
): Promise<ProductPreview[]> {
  const { early, categories } = await preflighted(client, taxonomy, shop, items);
  const wanted = items.flatMap((item, i) => (early[i] === null && item.known.productId ? [{ id: item.known.productId, item }] : []));
  const read = await readProducts(client, shop, wanted);

  // The products a push would create (no mapping, or its product deleted in the shop), and who holds their handles. A
  // holder carrying our metafield for that very PIM product is what the push takes over (a lost mapping): it is read
  // and compared like a mapped product.
  const creating = items.flatMap((item, i) => (early[i] === null && !(item.known.productId && read.has(item.known.productId)) ? [i] : []));
  const holders = await handleHolders(
    client,
    shop,
    creating.map((i) => handleOf(items[i].product)),
  );
  const takenOver = new Map<number, string>();
  for (const i of creating) {
    const holder = holders.get(handleOf(items[i].product));
    if (holder && holder.pimId === String(items[i].product.id)) takenOver.set(i, holder.id);
  }
  if (takenOver.size > 0) {
    const again = await readProducts(
      client,
      shop,
      [...takenOver].map(([i, id]) => ({ id, item: items[i] })),
    );
    for (const [id, product] of again) read.set(id, product);
  }

  const out: ProductPreview[] = [];
  for (const [i, item] of items.entries()) {
    if (early[i]) {
      out.push({ ok: false, errors: early[i]! });
      continue;
    }
    const byMapping = item.known.productId ? (read.get(item.known.productId) ?? null) : null;
    const current = byMapping ?? (takenOver.has(i) ? (read.get(takenOver.get(i)!) ?? null) : null);
    out.push(await previewOf(client, shop, item, { byMapping, current, holders, category: categories[i] }));
  }
  return out;
}

/** Pre-flight first, as a push: a product Shopify would refuse needs no read (`early`: its problems, else null). */
async function preflighted(
  client: ShopifyClient,
  taxonomy: TaxonomyCategories,
  shop: StorefrontShop,
  items: BulkUpsertItem[],
): Promise<{ early: (string[] | null)[]; categories: (string | undefined)[] }> {
  const early: (string[] | null)[] = [];
  const categories: (string | undefined)[] = [];
  for (const item of items) {
    const rules = await client.rules(shop, item.placement);
    const sketch = mapProduct(item.product, item.known, { locations: [], placement: item.placement, current: null });
    const problems = [...preflight(item.product, sketch.input, rules.limits, rules.currency), ...sketch.merchantVariants.refused];
    // The taxonomy category as a push resolves it (a full name Shopify lacks is the push's error too).
    let category: string | undefined;
    try {
      category = await taxonomy.resolve(shop, item.product.taxonomy_category);
    } catch (err) {
      if (!(err instanceof StorefrontValidationError)) throw err;
      problems.push(...err.errors);
    }
    categories.push(category);
    early.push(problems.length > 0 ? problems : null);
  }
  return { early, categories };
}

/** One item that passed pre-flight, against the product read for it (`current`; null: the push would create it). */
async function previewOf(
  client: ShopifyClient,
  shop: StorefrontShop,
  item: BulkUpsertItem,
  read: { byMapping: ReadProduct | null; current: ReadProduct | null; holders: Map<string, ProductIdentity>; category: string | undefined },
): Promise<ProductPreview> {
  const { byMapping, current } = read;
  // A taken-over product's ids are what the push recovers (by SKU and file name): nothing is known of them here.
  const known = byMapping ? item.known : NOTHING_KNOWN;
  const handle = current ? undefined : handleOf(item.product);
  const holder = handle === undefined ? undefined : read.holders.get(handle);
  if (handle !== undefined && holder) return { ok: false, errors: [handleTakenProblem(handle, holder, item.product.id)] };
  // Stock is not compared (the shop's count moves with its sales): no locations needed.
  const mapped = mapProduct(item.product, known, {
    locations: [],
    placement: item.placement,
    current: current?.tags ?? null,
    handle,
    category: read.category,
  });
  const rules = await client.rules(shop, item.placement);
  const problems = [...preflight(item.product, mapped.input, rules.limits, rules.currency), ...mapped.merchantVariants.refused];
  if (problems.length > 0) return { ok: false, errors: problems };
  return {
    ok: true,
    method: current ? 'update' : 'create',
    productNumericId: current ? numericId(current.view.id) : null,
    handle: current ? current.view.handle : (handle ?? null),
    changes: previewChanges(
      mapped.input,
      imageUrlsOf(item.product),
      current?.view ?? null,
      known.mediaIds,
      collectionTitles(item, known, current),
      mapped.variantKeys,
    ),
  };
}

/**
 * The titles of the custom collections a push leaves the product in: the merchant's as read, and one per PIM category
 * (named as the category now: the push renames a renamed category's collection, and makes a missing one). Undefined
 * when the integration does not manage collections.
 */
function collectionTitles(item: BulkUpsertItem, known: BulkUpsertItem['known'], current: ReadProduct | null): string[] | undefined {
  if (!item.placement.categoryCollections) return undefined;
  const bridge = bridgeCollectionIds(item.placement, known);
  const merchant = (current?.view.collections ?? []).filter((c) => !bridge.has(c.id)).map((c) => c.title);
  const ours = (item.product.categories ?? []).map((c) => c.name.trim()).filter((n) => n !== '');
  return [...new Set([...merchant, ...ours])].sort();
}

/** The current products by GID (absent: deleted in the shop), in batches whose requested cost stays under the cap. */
async function readProducts(client: ShopifyClient, shop: StorefrontShop, wanted: { id: string; item: BulkUpsertItem }[]): Promise<Map<string, ReadProduct>> {
  const found = new Map<string, ReadProduct>();
  const unique = [...new Map(wanted.map((w) => [w.id, w])).values()];
  let batch: typeof unique = [];
  let variants = 1;
  let media = 1;
  const flush = async () => {
    if (batch.length === 0) return;
    const ids = batch.map((b) => b.id);
    const data = await client.call<ProductPreviewReadData>(shop, ProductPreviewRead, { ids, variants, media }, costOf(ids.length, variants, media));
    if (!Array.isArray(data.nodes)) throw new StorefrontError('invalid_response', `${shop.domain} answered nodes(ids:) without a list`);
    for (const node of data.nodes) {
      if (!node || typeof node.id !== 'string' || !node.id.startsWith('gid://shopify/Product/')) continue;
      const nodes = [...node.variants.nodes];
      let page = node.variants.pageInfo;
      while (page.hasNextPage && page.endCursor) {
        const more = await client.call<ProductPreviewVariantsData>(
          shop,
          ProductPreviewVariants,
          { id: node.id, after: page.endCursor },
          3 + 2 * multiplier(250),
        );
        if (!more.product) break;
        nodes.push(...more.product.variants.nodes);
        page = more.product.variants.pageInfo;
      }
      found.set(node.id, { view: viewOf(node, nodes), tags: tagsOf(node) });
    }
    batch = [];
    variants = 1;
    media = 1;
  };
  for (const w of unique) {
    // Pages sized to what this product should have, plus one to see a variant or image added in the shop.
    const v = Math.min(250, Math.max(w.item.product.variants.length, Object.keys(w.item.known.variantIds).length, 1) + 1);
    const m = Math.min(250, Math.max(imageUrlsOf(w.item.product).length, Object.keys(w.item.known.mediaIds).length) + 1);
    const nextV = Math.max(variants, v);
    const nextM = Math.max(media, m);
    if (batch.length > 0 && (batch.length + 1 > MAX_IDS || costOf(batch.length + 1, nextV, nextM) > MAX_CALL_COST)) await flush();
    batch.push(w);
    variants = Math.max(variants, v);
    media = Math.max(media, m);
  }
  await flush();
  return found;
}

/**
 * Requested cost of one ProductPreviewRead, counted per product (as a list of n objects): product 1, seo 1, category 1,
 * metafields 2, collections 2 + 1 × m(250), variants 2 + (variant 1 + selectedOptions 1 + inventoryItem 1 + measurement 1
 * + weight 1) × m(v) + pageInfo, media 2 + (media 1 + image 1) × m(f).
 */
export function costOf(products: number, variants: number, media: number): number {
  return products * (5 + 2 + multiplier(250) + 2 + 5 * multiplier(variants) + 2 + 2 * multiplier(media));
}

function viewOf(node: NonNullable<ProductPreviewReadData['nodes'][number]>, variants: PreviewVariantNode[]): ShopProductView {
  return {
    id: node.id,
    handle: node.handle,
    title: node.title,
    descriptionHtml: node.descriptionHtml ?? '',
    vendor: node.vendor ?? '',
    productType: node.productType ?? '',
    status: node.status,
    tags: Array.isArray(node.tags) ? node.tags : [],
    seo: { title: node.seo?.title ?? null, description: node.seo?.description ?? null },
    giftCard: node.isGiftCard === true,
    category: node.category?.id ?? null,
    variants: variants.map((v) => ({
      id: v.id,
      sku: typeof v.sku === 'string' && v.sku.trim() !== '' ? v.sku : null,
      price: v.price ?? null,
      compareAtPrice: v.compareAtPrice ?? null,
      barcode: typeof v.barcode === 'string' && v.barcode !== '' ? v.barcode : null,
      options: (v.selectedOptions ?? []).map((o) => ({ name: String(o.name), value: String(o.value) })),
      inventoryPolicy: v.inventoryPolicy ?? null,
      taxable: v.taxable ?? null,
      tracked: v.inventoryItem?.tracked ?? null,
      requiresShipping: v.inventoryItem?.requiresShipping ?? null,
      weight: v.inventoryItem?.measurement?.weight ?? null,
    })),
    images: (node.media?.nodes ?? []).map((m) => ({ mediaId: m.id, url: typeof m.image?.url === 'string' ? m.image.url : null })),
    collections: (node.collections?.nodes ?? []).map((c) => ({ id: c.id, title: c.title })),
  };
}

function tagsOf(node: NonNullable<ProductPreviewReadData['nodes'][number]>): StorefrontTags {
  return {
    tags: Array.isArray(node.tags) ? node.tags : [],
    previousTags: previousTagsOf(node.pimTags?.value, node.categoryTags?.value),
    collections: (node.collections?.nodes ?? []).map((c) => c.id),
    // The product's media: the merchant's are sent back with ours when the push sends files.
    media: (node.media?.nodes ?? []).map((m) => ({ id: m.id, url: typeof m.image?.url === 'string' ? m.image.url : null })),
  };
}
