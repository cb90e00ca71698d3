// Reading a shop's whole catalogue (adoption, the drift report), and how a product found there differs from what the
// bridge last wrote.
import type { WrittenFields } from './known-product.js';
import type { StorefrontShop } from './shop.js';

/** A variant of a shop product as the catalogue read found it. */
export interface StorefrontCatalogueVariant {
  /** Shopify GID. */
  id: string;
  sku: string | null;
  barcode: string | null;
  /** Decimal strings, in the shop's currency. */
  price: string | null;
  compareAtPrice: string | null;
  inventoryQuantity: number | null;
  /** Option values, in the product's option order (Shopify's default "Title" / "Default Title" for a single variant). */
  options: { name: string; value: string }[];
  inventoryItemId: string | null;
  /** DENY or CONTINUE, when the read selected it. */
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  /** The inventory item's fields, when the read selected them. */
  tracked?: boolean | null;
  requiresShipping?: boolean | null;
  weight?: { value: number; unit: string } | null;
}

/** A product of the shop as the catalogue read found it (adopting a shop's existing products). */
export interface StorefrontCatalogueProduct {
  /** Shopify GID, e.g. `gid://shopify/Product/1001`, and its numeric part. */
  id: string;
  numericId: number;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  /** ACTIVE, DRAFT or ARCHIVED. */
  status: string;
  tags: string[];
  /** The PIM product id our `pimbridge.pim_product_id` metafield carries (a product an earlier push made), or null. */
  pimProductId: number | null;
  variants: StorefrontCatalogueVariant[];
  /** The product's media in order: its id and, for a processed image, its URL and alt text. */
  images: { mediaId: string; url: string | null; alt?: string | null }[];
  /** Its SEO fields, when the read selected them (the drift report's does). */
  seo?: { title: string | null; description: string | null };
  /** Whether it is a gift card, when the read selected it. */
  giftCard?: boolean;
  /** Its taxonomy category, when the read selected it (null: none). */
  category?: { id: string; fullName: string } | null;
}

export type CatalogueReadState =
  | { state: 'running'; objectCount: number }
  | { state: 'completed'; products: StorefrontCatalogueProduct[] }
  /** The read failed as a whole (or its result is gone): start another. */
  | { state: 'failed'; message: string };

/**
 * Reading a shop's whole catalogue (Shopify: one bulk query of products with their variants and media). Kept apart
 * from StorefrontPort: only an adoption needs it. A read runs on the storefront in the background; the caller records
 * the operation id and polls it, so a restarted job follows the same read.
 */
export interface StorefrontCatalogueReader {
  /**
   * Starts the read. Throws StorefrontError (kind `unavailable` when the shop runs as many reads as it allows: retry
   * later; `unauthorized`/`forbidden` for a refused token).
   */
  startCatalogueRead(shop: StorefrontShop): Promise<{ operationId: string }>;

  /** Where the read stands; once completed, every product of the shop. Throws StorefrontError when it cannot be asked. */
  catalogueReadState(shop: StorefrontShop, operationId: string): Promise<CatalogueReadState>;

  /**
   * The fields the bridge owns whose value in the shop product (as the catalogue read found it) differs from what the
   * last push wrote (`written`); `mediaIds` are the mapping's media ids by PIM image URL. Pure: no call. Optional: a
   * reader without it cannot report drift field by field.
   */
  compareWritten?(product: StorefrontCatalogueProduct, written: WrittenFields, mediaIds: Record<string, string>): DriftChange[];
}

/** One field that differs in the shop from what the bridge last wrote. */
export interface DriftChange {
  field: string;
  storefront: unknown;
  written: unknown;
}
