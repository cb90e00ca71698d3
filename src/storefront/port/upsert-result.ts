// What a push of one product did (ProductUpsertResult) or would do (ProductPreview, a dry run).
import type { KnownStorefrontProduct, MerchantVariant, WrittenFields } from './known-product.js';

/** One field a push would change (dry run): the shop's value now (null: none, or the product is created) and the PIM's. */
export interface FieldChange {
  field: string;
  storefront: unknown;
  pim: unknown;
}

/** What a push of one product would do (dry run), or why it would be refused (pre-flight). */
export type ProductPreview =
  | { ok: true; method: 'create' | 'update'; productNumericId: number | null; handle: string | null; changes: FieldChange[] }
  | { ok: false; errors: string[] };

export interface ProductUpsertResult {
  method: 'create' | 'update';
  /** Shopify GID, e.g. `gid://shopify/Product/1001`, and its numeric part. */
  productId: string;
  productNumericId: number;
  handle: string;
  title: string;
  /** The first variant's numeric id (the spec's mapping has one storefront_variant_id). */
  firstVariantNumericId: number | null;
  variantIds: Record<string, string>;
  mediaIds: Record<string, string>;
  /** Images sent whose media ids the answer did not carry (KnownStorefrontProduct.imagesUnconfirmed). */
  imagesUnconfirmed: string[];
  variantCount: number;
  imageCount: number;
  owned: NonNullable<KnownStorefrontProduct['owned']>;
  inventoryItemIds: Record<string, string>;
  stock: Record<string, Record<string, number>>;
  publications: string[];
  /**
   * What the storefront took but could not finish for this product (a publish refused, an image it failed to process):
   * the product is on the storefront with its ids, and its mapping is `error` with these lines until a push clears them.
   */
  problems: string[];
  /** Values Shopify accepts but shortens or ignores (e.g. an SEO title past the admin's 70-character hint). */
  warnings: string[];
  /**
   * The product's PIM translation locales the shop has not enabled (nothing is registered for them): for the
   * integration's status, never an error of the product. Absent when the product's translations were not looked at.
   */
  missingLocales?: string[];
  /** What this push wrote of the fields the bridge owns (kept with the mapping for the drift report). */
  written?: WrittenFields;
  /** The merchant's variants the push sent back unchanged (KnownStorefrontProduct.merchantVariants), still kept. */
  merchantVariants?: MerchantVariant[];
}
