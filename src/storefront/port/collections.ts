// The shop collections the bridge makes for PIM categories.
import type { StorefrontShop } from './shop.js';

/** A custom collection the bridge made in the shop for a PIM category. */
export interface StorefrontCollection {
  /** Shopify GID, e.g. `gid://shopify/Collection/1`. */
  id: string;
  handle: string;
  title: string;
}

/**
 * The shop's collections for PIM categories (Shopify: collectionCreate, collectionUpdate, collectionDelete,
 * publishablePublish). Kept apart from StorefrontPort: only the connector's category collections need it. Products join
 * and leave them through the upsert (SyncPlacement.categoryCollections), not through these calls.
 */
export interface StorefrontCollections {
  /**
   * The category's custom collection: the one an earlier call made (found by our metafield `pimbridge.pim_category_id`,
   * so a create whose answer was lost is not made twice), else a new one titled by the category and published on
   * `publications`. Throws StorefrontError, or StorefrontValidationError with the shop's userErrors.
   */
  ensureCategoryCollection(shop: StorefrontShop, category: { id: number; name: string }, publications: string[]): Promise<StorefrontCollection>;
  /** Gives the collection a new title (its handle stays: links keep working); null when it is gone from the shop. */
  renameCollection(shop: StorefrontShop, id: string, title: string): Promise<StorefrontCollection | null>;
  /** Deletes the collection (its products stay in the shop); a collection already gone is no error. */
  deleteCollection(shop: StorefrontShop, id: string): Promise<void>;
}
