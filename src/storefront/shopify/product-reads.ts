// The reads both upsert paths (product-upserter.ts, bulk-upsert.ts) make before a write: a product by id, handle or
// our metafield, and what a lost mapping knew, recovered from the storefront product.
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { StorefrontShop } from '../port/shop.js';
import { connectionMultiplier } from './graphql-answer.js';
import {
  ProductLookup,
  ProductLookupMedia,
  ProductRecoveryLookup,
  ProductVariantsPage,
  type ProductLookupData,
  type ProductSetProductData,
  type ProductVariantsPageData,
} from './operations.js';
import { customIdOf, findByPimId } from './product-identity.js';
import { CATEGORY_TAGS_KEY, METAFIELD_NAMESPACE, PIM_TAGS_KEY, previousTagsOf } from './tags-metafields-collections.js';
import { imageUrlsOf } from './product-media.js';
import { sortedVariants } from './product-options.js';
import type { StorefrontTags } from './product-set-input.js';
import { matchMedia } from './product-set-result.js';
import type { IdentifierMode } from './metafield-definitions.js';
import type { ShopifyClient } from './shopify-client.js';

export type Found = NonNullable<ProductLookupData['productByIdentifier']>;

/** Looks at a product's media while Shopify still processes them (with the retry back-off between): after a recovery, or images sent again. */
export const RECOVERY_MEDIA_LOOKS = 6;

export interface LookupOptions {
  /** With its variants and media (a lost mapping, a retry). */
  recover?: boolean;
  /** With its media (files will be sent). */
  media?: boolean;
  signal?: AbortSignal;
}

export class ProductReads {
  constructor(private readonly client: ShopifyClient) {}

  async lookup(shop: StorefrontShop, identifier: Record<string, unknown>, options: LookupOptions = {}): Promise<Found | null> {
    const { recover = false, media = false, signal } = options;
    // product 1 + metafields 2 + 1×11 + collections 2 + 1×11; with recovery also variants 2 + 1×11 + pageInfo 1 and
    // media 2 + 2×11; with media, media 2 + 2×11.
    const data = recover
      ? await this.client.call<ProductLookupData>(shop, ProductRecoveryLookup, { identifier }, 27 + 14 + 24, { signal })
      : media
        ? await this.client.call<ProductLookupData>(shop, ProductLookupMedia, { identifier }, 27 + 24, { signal })
        : await this.client.call<ProductLookupData>(shop, ProductLookup, { identifier }, 27, { signal });
    return data.productByIdentifier ?? null;
  }

  /**
   * The bridge's product for this PIM product, by our metafield (with its variants and media, for recovery): customId on
   * the unique definition, else a search by the metafield's value then the product by id. Null: none.
   */
  async findOurs(shop: StorefrontShop, pimProductId: number, mode: IdentifierMode, signal?: AbortSignal): Promise<Found | null> {
    if (mode === 'customId') return this.lookup(shop, customIdOf(pimProductId), { recover: true, signal });
    const id = await findByPimId(this.client, shop, pimProductId, signal);
    return id ? this.lookup(shop, { id }, { recover: true, signal }) : null;
  }

  /**
   * What a lost mapping knew, recovered from the storefront product: variant ids by SKU (all pages), media ids by our
   * file name in their URLs, and ids we knew that are still there.
   */
  async recovered(
    shop: StorefrontShop,
    found: Found,
    product: PimProductSnapshot,
    known?: KnownStorefrontProduct,
    signal?: AbortSignal,
  ): Promise<KnownStorefrontProduct> {
    const variants = await this.remainingVariants(shop, found.id, found.variants ?? { nodes: [] }, signal);
    const variantIds: Record<string, string> = {};
    for (const v of variants) if (v.sku) variantIds[v.sku] = v.id;
    // Variants whose SKU the PIM made up were sent without one: our product's variants without a SKU, in order.
    const generated = (
      product.variants.length === 0
        ? product.sku_generated
          ? [product.sku]
          : []
        : sortedVariants(product)
            .filter((v) => v.sku_generated)
            .map((v) => v.sku)
    ).filter((key) => !variantIds[key]);
    const unnamed = variants.filter((v) => !v.sku);
    generated.forEach((key, i) => {
      if (unnamed[i]) variantIds[key] = unnamed[i].id;
    });
    const images = imageUrlsOf(product);
    // Media still being processed show no URL (so no name) yet: wait a little for them, rather than upload them again.
    let nodes = found.media?.nodes ?? [];
    for (let attempt = 1; attempt < RECOVERY_MEDIA_LOOKS && nodes.some((n) => n.status === 'UPLOADED' || n.status === 'PROCESSING'); attempt++) {
      await this.client.throttle.backoff(attempt);
      nodes = (await this.lookup(shop, { id: found.id }, { recover: true, signal }))?.media?.nodes ?? [];
    }
    // Ids we knew that are still there, then our file names; never by position (these nodes answer no files of ours).
    const { mediaIds } = matchMedia(images, known?.mediaIds ?? {}, nodes, { newInOrder: false });
    // What we wrote and pushed before is unknown: the PIM's counts and publications are set as on a first push. The
    // merchant's variants we keep stay kept, those still there (one deleted in the shop meanwhile is gone for good).
    const merchantVariants = known?.merchantVariants?.filter((m) => variants.some((v) => v.id === m.id));
    return {
      productId: found.id,
      variantIds,
      mediaIds,
      ...(known?.owned ? { owned: known.owned } : {}),
      ...(merchantVariants?.length ? { merchantVariants } : {}),
    };
  }

  /** The variants of a productSet answer, with those past the first page read page by page. */
  async remainingVariants(
    shop: StorefrontShop,
    productId: string,
    first: ProductSetProductData['variants'],
    signal?: AbortSignal,
  ): Promise<ProductSetProductData['variants']['nodes']> {
    const nodes = [...(first?.nodes ?? [])];
    let pageInfo = first?.pageInfo;
    while (pageInfo?.hasNextPage && pageInfo.endCursor) {
      const data: ProductVariantsPageData = await this.client.call<ProductVariantsPageData>(
        shop,
        ProductVariantsPage,
        { id: productId, after: pageInfo.endCursor },
        2 + 3 * connectionMultiplier(250),
        { signal },
      );
      const page: ProductSetProductData['variants'] | undefined = data.product?.variants;
      nodes.push(...(page?.nodes ?? []));
      pageInfo = page?.pageInfo;
    }
    return nodes;
  }
}

/** What a looked-up product carries that the mapping merges with: its tags, our metafields, collections and media. */
export function tagsOf(found: Found): StorefrontTags {
  const metafields = Array.isArray(found.metafields?.nodes) ? found.metafields.nodes : [];
  const ourValue = (key: string) => metafields.find((m) => m.namespace === METAFIELD_NAMESPACE && m.key === key)?.value;
  const collections = found.collections?.nodes?.map((c) => c.id);
  const media = found.media?.nodes?.map((m) => ({ id: m.id, url: m.image?.url ?? null }));
  return {
    tags: Array.isArray(found.tags) ? found.tags : [],
    previousTags: previousTagsOf(ourValue(PIM_TAGS_KEY), ourValue(CATEGORY_TAGS_KEY)),
    metafields,
    ...(collections ? { collections } : {}),
    ...(media ? { media } : {}),
  };
}
