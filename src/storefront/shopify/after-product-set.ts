// The steps after a product's productSet, the same for both upsert paths (product-upserter.ts, bulk-upsert.ts): stock
// moved by the PIM's change (inventory-sync.ts), the product published on its channels' publications
// (publication-sync.ts) and its translations registered (translation-sync.ts).
import { StorefrontError } from '../port/errors.js';
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { SyncPlacement } from '../port/placement.js';
import type { StorefrontShop } from '../port/shop.js';
import type { ProductUpsertResult } from '../port/upsert-result.js';
import { syncInventory } from './inventory-sync.js';
import { preflightWarnings } from './preflight.js';
import { writtenOf } from './product-diff.js';
import { pimTagsOf } from './tags-metafields-collections.js';
import type { MappedProduct } from './product-set-input.js';
import { syncPublications, targetPublications } from './publication-sync.js';
import type { ShopifyClient } from './shopify-client.js';
import { syncTranslations } from './translation-sync.js';

export interface ProductSetDone {
  product: PimProductSnapshot;
  placement: SyncPlacement;
  /** What the mapping knew (or recovered) before the productSet. */
  known: KnownStorefrontProduct;
  mapped: MappedProduct;
  /** The productSet's answer as a result (product-set-result.ts). */
  base: ProductUpsertResult;
  mediaProblems: string[];
  /** The publications to add are returned in `toPublish`, not published (the bulk path publishes a batch at once). */
  deferPublish?: boolean;
  signal?: AbortSignal;
}

/**
 * A step the shop refuses is a problem on the result, not a throw: the product and its ids are on the storefront and
 * must be kept.
 */
export async function afterProductSet(
  client: ShopifyClient,
  shop: StorefrontShop,
  done: ProductSetDone,
): Promise<{ result: ProductUpsertResult; toPublish: string[] }> {
  const { product, placement, known, mapped, base, deferPublish = false, signal } = done;
  const call = client.caller(shop, signal);
  const created = new Set(mapped.variantKeys.filter((_, i) => !mapped.input.variants[i].id));
  // The product is written: a step the shop refuses for a scope it has not granted is a problem on the mapping (it
  // names the scope; the next push tries again), not a failed push.
  const inventory = await unlessDenied(
    'stock',
    () =>
      syncInventory(call, {
        pimProductId: product.id,
        target: mapped.stock,
        baseline: known.stock ?? {},
        created,
        disabled: new Set(mapped.disabled),
        inventoryItemIds: base.inventoryItemIds,
      }),
    { stock: known.stock ?? {} },
  );
  const publishing = await unlessDenied(
    'publish',
    () => syncPublications(call, base.productId, targetPublications(product, mapped.input.status, placement), known.publications ?? [], { deferPublish }),
    { publications: known.publications ?? [], toPublish: [] },
  );
  // Translations registered per product, in the bulk path too (after its productSet lines ran).
  const translating = await unlessDenied(
    'translations',
    () =>
      syncTranslations(call, () => client.shopLocales(shop, signal), {
        productId: base.productId,
        product,
        source: mapped.input,
        previous: known.owned?.translations,
      }),
    { owned: known.owned?.translations },
  );
  return {
    result: {
      ...base,
      owned: { ...mapped.owned, ...(translating.owned ? { translations: translating.owned } : {}) },
      stock: inventory.stock,
      publications: publishing.publications,
      problems: [...done.mediaProblems, ...inventory.problems, ...publishing.problems, ...translating.problems],
      ...(translating.missingLocales ? { missingLocales: translating.missingLocales } : {}),
      warnings: [...preflightWarnings(mapped.input), ...mapped.warnings],
      // The owned fields' values as written, for the drift report (kept with the mapping in the same write).
      written: writtenOf(mapped.input, pimTagsOf(product), mapped.imageUrls, mapped.variantKeys, base.variantIds),
      ...(mapped.merchantVariants.kept.length > 0 ? { merchantVariants: mapped.merchantVariants.kept } : {}),
    },
    toPublish: publishing.toPublish,
  };
}

/** A step after the product was written, whose refusal for a missing scope becomes a problem line (`kept` stays as it was). */
async function unlessDenied<R extends { problems: string[] }>(step: string, run: () => Promise<R>, kept: Omit<R, 'problems'>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StorefrontError && err.kind === 'forbidden') return { ...kept, problems: [`${step}: ${err.message}`] } as R;
    throw err;
  }
}
