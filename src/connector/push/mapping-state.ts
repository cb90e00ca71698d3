// What an upsert leaves on the product's mapping and what the adapter is given back from it: shared by a push, sync.product
// and the full sync.
import type { KnownStorefrontProduct } from '../../storefront/port/known-product.js';
import type { PimProductSnapshot } from '../../storefront/port/pim-product.js';
import type { ProductUpsertResult } from '../../storefront/port/upsert-result.js';
import type { IntegrationRepository } from '../integrations/integration.repository.js';
import type { MappingRow } from '../mappings/mapping.repository.js';
import type { SyncedMapping } from '../mappings/mapping-writes.js';
import { clip } from './push-results.js';

/** What the upsert found of the shop's locales for the product's translations, kept for GET /api/status (when it looked). */
export async function recordMissingLocales(
  repo: Pick<IntegrationRepository, 'noteMissingLocales'>,
  integrationId: number,
  product: PimProductSnapshot,
  r: ProductUpsertResult,
): Promise<void> {
  if (r.missingLocales) await repo.noteMissingLocales(integrationId, Object.keys(product.translations ?? {}), r.missingLocales);
}

/**
 * The mapping an upsert leaves. The product is on the storefront: its ids are kept whatever else happened. A step the
 * shop refused after the upsert (a publish, an image it could not process, a quantity) leaves the mapping in `error`
 * with the reason, and the PIM version is not recorded, so the next sync tries again.
 */
export function syncedMappingOf(pimProductId: number, r: ProductUpsertResult, at: Date, pimUpdatedAt: Date | null): SyncedMapping & { error: string | null } {
  const error = r.problems.length > 0 ? clip(`PIM product ${pimProductId} is on the storefront, but: ${r.problems.join('; ')}`) : null;
  return {
    storefrontProductId: r.productNumericId,
    storefrontVariantId: r.firstVariantNumericId,
    metadata: {
      storefront_handle: r.handle,
      storefront_title: r.title,
      variant_count: r.variantCount,
      image_count: r.imageCount,
      last_push_method: r.method,
      ...(r.warnings.length > 0 ? { warnings: r.warnings } : {}),
    },
    state: storefrontStateOf(r),
    at,
    pimUpdatedAt: error ? null : pimUpdatedAt,
    error,
  };
}

/** A snapshot's `updated_at` as the mapping's PIM version (null when it has none). */
export function pimVersion(updatedAt: unknown): Date | null {
  const ms = typeof updatedAt === 'string' ? Date.parse(updatedAt) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** What the mapping keeps of an upsert's result (KnownStorefrontProduct, read back by knownOf). */
export function storefrontStateOf(r: ProductUpsertResult): KnownStorefrontProduct {
  return {
    productId: r.productId,
    variantIds: r.variantIds,
    mediaIds: r.mediaIds,
    ...(r.imagesUnconfirmed.length > 0 ? { imagesUnconfirmed: r.imagesUnconfirmed } : {}),
    owned: r.owned,
    inventoryItemIds: r.inventoryItemIds,
    stock: r.stock,
    publications: r.publications,
    ...(r.written ? { written: r.written } : {}),
    ...(r.merchantVariants?.length ? { merchantVariants: r.merchantVariants } : {}),
  };
}

/** What a mapping knows of the storefront side (sent back to the adapter). */
export function knownOf(mapping: MappingRow | undefined): KnownStorefrontProduct {
  const s = (mapping?.storefrontState ?? {}) as Partial<KnownStorefrontProduct>;
  const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const record = (v: unknown) => (isRecord(v) ? (v as Record<string, string>) : {});
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((t) => typeof t === 'string');
  return {
    productId: typeof s.productId === 'string' ? s.productId : null,
    variantIds: record(s.variantIds),
    mediaIds: record(s.mediaIds),
    ...(strings(s.imagesUnconfirmed) ? { imagesUnconfirmed: s.imagesUnconfirmed } : {}),
    ...(isRecord(s.owned) ? { owned: s.owned as KnownStorefrontProduct['owned'] } : {}),
    ...(isRecord(s.inventoryItemIds) ? { inventoryItemIds: record(s.inventoryItemIds) } : {}),
    ...(isRecord(s.stock) ? { stock: s.stock as KnownStorefrontProduct['stock'] } : {}),
    ...(strings(s.publications) ? { publications: s.publications } : {}),
    ...(Array.isArray(s.merchantVariants) && s.merchantVariants.length > 0
      ? { merchantVariants: s.merchantVariants.filter((m) => isRecord(m) && typeof m.id === 'string' && Array.isArray(m.options)) }
      : {}),
  };
}

/**
 * Deleted in the shop (a products/delete webhook marked the mapping) while the integration says not to create it again
 * (recreate_deleted_products false): the reason it is not sent, for a push and for a full sync alike; else null.
 */
export function keptDeletedInShop(
  pimProductId: number,
  mapping: { storefrontProductId: number | null; metadata: unknown } | undefined,
  placement: { recreateDeletedProducts?: boolean },
): string | null {
  if (!mapping || mapping.storefrontProductId !== null || placement.recreateDeletedProducts !== false) return null;
  if (!(mapping.metadata as { deleted_in_shop?: unknown } | null)?.deleted_in_shop) return null;
  return `PIM product ${pimProductId} was deleted in the shop and recreate_deleted_products is off: not created again`;
}
