// What a write of a mapping carries: a product synced to the storefront, or one an adoption links (mapping.repository.ts).
import type { KnownStorefrontProduct } from '../../storefront/port/known-product.js';

export interface MappingMetadata {
  storefront_handle: string;
  storefront_title: string;
  variant_count: number;
  image_count: number;
  last_push_method: 'create' | 'update';
  /** What Shopify took but may shorten (e.g. an SEO title past the admin's hint). */
  warnings?: string[];
}

export interface SyncedMapping {
  storefrontProductId: number;
  storefrontVariantId: number | null;
  metadata: MappingMetadata;
  state: KnownStorefrontProduct;
  at: Date;
  /** The PIM product's updated_at in the snapshot synced (null: unknown, e.g. a snapshot sent in the push body). */
  pimUpdatedAt?: Date | null;
  /** The version the storefront holds now, even where a later step failed (null: unknown). */
  storefrontVersion?: Date | null;
  /** The write lease this write ends (product-lease.ts). */
  leaseOwner?: string;
  /** Set when the product is on the storefront but a step after the upsert was refused: the mapping is `error`. */
  error?: string | null;
}

/** A storefront product an adoption links to a PIM product (MappingRepository.insertAdopted). */
export interface AdoptedMapping {
  pimProductId: number;
  storefrontProductId: number;
  storefrontVariantId: number | null;
  /** storefront_handle, storefront_title, variant_count, image_count, adopted_by (the adoption), matched_by (the rule). */
  metadata: Record<string, unknown>;
  state: KnownStorefrontProduct;
}
