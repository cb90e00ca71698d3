// A push's dry run (StorefrontPort.previewUpserts): the same pre-flight and mapping as upsertProduct, then the current
// storefront products read by id in batches (`nodes(ids:)`, read calls only, each under the shop's throttle) and
// compared field by field with the input a push would send (product-diff.ts). Nothing is written.
import { StorefrontError, type BulkUpsertItem, type ProductPreview, type StorefrontShop, type SyncPlacement } from '../storefront.port.js';
import {
  ProductPreviewRead,
  ProductPreviewVariants,
  type PreviewVariantNode,
  type ProductPreviewReadData,
  type ProductPreviewVariantsData,
} from './operations.js';
import { preflight, type ShopCurrency, type ShopLimits } from './preflight.js';
import { previewChanges, type ShopProductView } from './product-diff.js';
import { bridgeCollectionIds, deterministicHandle, imageUrlsOf, mapProduct, NOTHING_KNOWN, type StorefrontTags } from './product-mapper.js';

export interface PreviewDeps {
  call<T>(shop: StorefrontShop, document: string, variables: Record<string, unknown>, expectedCost: number): Promise<T>;
  rules(shop: StorefrontShop, placement: SyncPlacement): Promise<{ limits?: ShopLimits; currency?: ShopCurrency }>;
}

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

export async function previewUpserts(deps: PreviewDeps, shop: StorefrontShop, items: BulkUpsertItem[]): Promise<ProductPreview[]> {
  // Pre-flight first, as a push: a product Shopify would refuse needs no read.
  const early: (string[] | null)[] = [];
  for (const item of items) {
    const rules = await deps.rules(shop, item.placement);
    const problems = preflight(
      item.product,
      mapProduct(item.product, item.known, { locations: [], placement: item.placement, current: null }).input,
      rules.limits,
      rules.currency,
    );
    early.push(problems.length > 0 ? problems : null);
  }
  const wanted = items.flatMap((item, i) => (early[i] === null && item.known.productId ? [{ id: item.known.productId, item }] : []));
  const read = await readProducts(deps, shop, wanted);

  const out: ProductPreview[] = [];
  for (const [i, item] of items.entries()) {
    if (early[i]) {
      out.push({ ok: false, errors: early[i]! });
      continue;
    }
    const current = item.known.productId ? (read.get(item.known.productId) ?? null) : null;
    const known = current ? item.known : NOTHING_KNOWN;
    const handle = current ? undefined : deterministicHandle(item.product);
    // Stock is not compared (the shop's count moves with its sales): no locations needed.
    const mapped = mapProduct(item.product, known, { locations: [], placement: item.placement, current: current?.tags ?? null, handle });
    const rules = await deps.rules(shop, item.placement);
    const problems = preflight(item.product, mapped.input, rules.limits, rules.currency);
    if (problems.length > 0) {
      out.push({ ok: false, errors: problems });
      continue;
    }
    out.push({
      ok: true,
      method: current ? 'update' : 'create',
      productNumericId: current ? numericId(current.view.id) : null,
      handle: current ? current.view.handle : (handle ?? null),
      changes: previewChanges(mapped.input, imageUrlsOf(item.product), current?.view ?? null, known.mediaIds, collectionTitles(item, known, current)),
    });
  }
  return out;
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
async function readProducts(deps: PreviewDeps, shop: StorefrontShop, wanted: { id: string; item: BulkUpsertItem }[]): Promise<Map<string, ReadProduct>> {
  const found = new Map<string, ReadProduct>();
  const unique = [...new Map(wanted.map((w) => [w.id, w])).values()];
  let batch: typeof unique = [];
  let variants = 1;
  let media = 1;
  const flush = async () => {
    if (batch.length === 0) return;
    const ids = batch.map((b) => b.id);
    const data = await deps.call<ProductPreviewReadData>(shop, ProductPreviewRead, { ids, variants, media }, costOf(ids.length, variants, media));
    if (!Array.isArray(data.nodes)) throw new StorefrontError('invalid_response', `${shop.domain} answered nodes(ids:) without a list`);
    for (const node of data.nodes) {
      if (!node || typeof node.id !== 'string' || !node.id.startsWith('gid://shopify/Product/')) continue;
      const nodes = [...node.variants.nodes];
      let page = node.variants.pageInfo;
      while (page.hasNextPage && page.endCursor) {
        const more = await deps.call<ProductPreviewVariantsData>(shop, ProductPreviewVariants, { id: node.id, after: page.endCursor }, 3 + 2 * multiplier(250));
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
 * Requested cost of one ProductPreviewRead, counted per product (as a list of n objects): product 1, seo 1, metafield 1,
 * collections 2 + 1 × m(250), variants 2 + (variant 1 + selectedOptions 1) × m(v) + pageInfo, media 2 + (media 1 +
 * image 1) × m(f).
 */
export function costOf(products: number, variants: number, media: number): number {
  return products * (3 + 2 + multiplier(250) + 2 + 2 * multiplier(variants) + 2 + 2 * multiplier(media));
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
    variants: variants.map((v) => ({
      id: v.id,
      sku: typeof v.sku === 'string' && v.sku.trim() !== '' ? v.sku : null,
      price: v.price ?? null,
      compareAtPrice: v.compareAtPrice ?? null,
      barcode: typeof v.barcode === 'string' && v.barcode !== '' ? v.barcode : null,
      options: (v.selectedOptions ?? []).map((o) => ({ name: String(o.name), value: String(o.value) })),
    })),
    images: (node.media?.nodes ?? []).map((m) => ({ mediaId: m.id, url: typeof m.image?.url === 'string' ? m.image.url : null })),
    collections: (node.collections?.nodes ?? []).map((c) => ({ id: c.id, title: c.title })),
  };
}

function tagsOf(node: NonNullable<ProductPreviewReadData['nodes'][number]>): StorefrontTags {
  let previous: string[] | null = null;
  if (node.categoryTags?.value) {
    try {
      const parsed: unknown = JSON.parse(node.categoryTags.value);
      if (Array.isArray(parsed)) previous = parsed.filter((t): t is string => typeof t === 'string');
    } catch {
      previous = null;
    }
  }
  return {
    tags: Array.isArray(node.tags) ? node.tags : [],
    previousCategoryTags: previous,
    collections: (node.collections?.nodes ?? []).map((c) => c.id),
  };
}
