// The storefront port: what the connector needs from a storefront, whatever the platform. The Shopify adapter
// (storefront/shopify/) is the production end; the built-in sandbox answers the same Admin GraphQL API, so the adapter
// serves both. The types it speaks in are in port/, by topic (the shop, errors, the PIM product, what a mapping knows,
// placement, upsert results, bulk), with the narrower ports only some callers need: catalogue reads, webhooks, collections.
import type { BulkUpsertItem, BulkUpsertState } from './port/bulk.js';
import type { KnownStorefrontProduct } from './port/known-product.js';
import type { PimProductSnapshot } from './port/pim-product.js';
import type { StorefrontLocation, StorefrontPublication, SyncPlacement } from './port/placement.js';
import type { ShopHealth, StorefrontShop } from './port/shop.js';
import type { ProductPreview, ProductUpsertResult } from './port/upsert-result.js';

export interface StorefrontPort {
  /** The shop's identity and plan; throws StorefrontError when the shop cannot be reached or refuses the token. */
  shopHealth(shop: StorefrontShop, options?: { timeoutMs?: number }): Promise<ShopHealth>;

  /**
   * Creates or updates one product (Shopify: one productSet), idempotently: with `known.productId` it updates that
   * product; without, it finds a product made by an earlier push whose mapping was lost (a crash between the
   * storefront's answer and our write) and updates it, so a retry never duplicates. Throws StorefrontValidationError
   * for the platform's rules (pre-flight and the storefront's userErrors) and StorefrontError for everything else;
   * waiting out throttles and retrying transient failures is the adapter's job. Once `signal` fires, no further call
   * is sent and the one in flight is abandoned; the upsert rejects with the signal's reason.
   */
  upsertProduct(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    options?: { signal?: AbortSignal },
  ): Promise<ProductUpsertResult>;

  /**
   * The platform's rules checked before sending (Shopify: title, ≤ 3 options, ≤ 2048 variants, prices); empty = sendable.
   * With `known`, also what the mapped product forbids (merchant variants a push could not keep).
   */
  preflight(product: PimProductSnapshot, known?: KnownStorefrontProduct): string[];

  /** The shop's publications (sales channels), cached a few minutes per shop; `fresh` reads them again now. */
  publications(shop: StorefrontShop, options?: { fresh?: boolean }): Promise<StorefrontPublication[]>;

  /** The shop's locations, cached a few minutes per shop; `fresh` reads them again now. */
  locations(shop: StorefrontShop, options?: { fresh?: boolean }): Promise<StorefrontLocation[]>;

  /**
   * Starts one bulk upsert of many products (Shopify: stagedUploadsCreate → JSONL of productSet variables, one line per
   * item, in order → bulkOperationRunMutation). Every item must have passed `preflight`. Identity as in upsertProduct
   * (`known.productId`, else the product's stable custom id), so running the same items again never duplicates.
   * Throws StorefrontError (e.g. another bulk operation is running on the shop: kind `unavailable`).
   */
  startBulkUpsert(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }>;

  /**
   * Where a bulk upsert stands; once completed, the outcome of every item, in the items' order (`items` must be the list
   * given to startBulkUpsert). Throws StorefrontError when the storefront cannot be asked.
   */
  bulkUpsertState(shop: StorefrontShop, operationId: string, items: BulkUpsertItem[]): Promise<BulkUpsertState>;

  /**
   * A dry run of upsertProduct for each item, in order: the same pre-flight and mapping, then the current storefront
   * product read (mapped ones, batched, read calls only, under the shop's budget) and compared field by field. Writes
   * nothing. A product without `known.productId`, or whose storefront product is gone, is a `create`. Optional: a
   * storefront without it cannot preview (the dry run fails its products).
   */
  previewUpserts?(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<ProductPreview[]>;
}
