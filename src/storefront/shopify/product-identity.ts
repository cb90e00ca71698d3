// Which storefront product is a PIM product's, when no mapping says so, and the handle a new one is created with.
//
// Identity is our `pimbridge.pim_product_id` metafield, never the handle: the merchant may change a handle in Shopify,
// and a product holding the PIM slug as its handle may be the merchant's own. With the shop's unique-values definition
// the product is `productByIdentifier(customId:)`; without one it is searched by the metafield's value
// (findByPimId). A new product's handle is the PIM slug, exactly (handleOf). Shopify refuses a handle that another
// product holds: "the handle field … in productSetInput for productSet will be validated for uniqueness. This means that
// you will no longer be able to input a duplicate handle" (https://shopify.dev/changelog/new-validation-against-duplicate-handles-in-productcreate-productupdate-and-productset-mutation-inputs,
// Admin API 2025-01 on; only a title-derived handle gets a suffix, ProductSetInput.handle in the 2026-10 schema), with
// HANDLE_NOT_UNIQUE. So the create is sent as is — no read before it — and only a refusal costs a read of the holder:
// ours for this very PIM product (a mapping lost where the search cannot find it) is taken over, anything else is
// that product's problem, naming the holder (handleTakenProblem).
import { slugify } from '../../lib/slug.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { StorefrontShop } from '../port/shop.js';
import { ProductIdentities, type ProductIdentitiesData } from './operations.js';
import { METAFIELD_NAMESPACE, PIM_ID_KEY } from './tags-metafields-collections.js';
import type { ShopifyClient } from './shopify-client.js';

/** A storefront product as a problem names it, with the PIM product id our metafield on it carries (null: none). */
export interface ProductIdentity {
  id: string;
  handle: string;
  title: string;
  pimId: string | null;
}

/** Products a search answers at most (a value our metafield carries once, a few handles in a dry run's batch). */
const SEARCH_PAGE = 10;
/** Handles per dry-run search (`handle:a,b,…`), as many as a page answers. */
export const HANDLES_PER_SEARCH = 50;

/**
 * The handle a new storefront product is created with: the PIM slug, exactly, Unicode included (a snapshot without a
 * slug, from another PIM, gets its name's slug). Sent on create only: a handle changed in Shopify later is kept.
 */
export function handleOf(product: Pick<PimProductSnapshot, 'slug' | 'name'>): string {
  return product.slug || slugify(product.name);
}

/** The `customId` identifier of a PIM product on the shop's unique `pimbridge.pim_product_id` definition. */
export function customIdOf(pimProductId: number): { customId: { namespace: string; key: string; value: string } } {
  return { customId: { namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY, value: String(pimProductId) } };
}

/** The PIM product id our metafield carries on a looked-up product (null: none, so not the bridge's). */
export function pimIdOf(found: { metafields?: { nodes: { namespace: string; key: string; value: string }[] } | null }): string | null {
  const nodes = Array.isArray(found.metafields?.nodes) ? found.metafields.nodes : [];
  return nodes.find((m) => m.namespace === METAFIELD_NAMESPACE && m.key === PIM_ID_KEY)?.value ?? null;
}

/**
 * The storefront product carrying our metafield with this PIM id, found by searching its value, for a shop without the
 * unique definition (customId). Shopify applies `metafields.{namespace}.{key}:{value}` only for a metafield whose
 * definition has filtering enabled ("first the metafield you want to query by must have filtering enabled",
 * https://shopify.dev/docs/apps/build/custom-data/metafields/query-by-metafield-value); each product answered is checked
 * against its own value, so a shop that does not filter finds nothing rather than a wrong product. Null: none found.
 */
export async function findByPimId(client: ShopifyClient, shop: StorefrontShop, pimProductId: number, signal?: AbortSignal): Promise<string | null> {
  const value = String(pimProductId);
  const data = await client.call<ProductIdentitiesData>(
    shop,
    ProductIdentities,
    { query: `metafields.${METAFIELD_NAMESPACE}.${PIM_ID_KEY}:"${value}"`, first: SEARCH_PAGE },
    2 + 2 * SEARCH_PAGE,
    { signal },
  );
  return (data.products?.nodes ?? []).find((n) => n.pimProductId?.value === value)?.id ?? null;
}

/** Who holds each of these handles in the shop (a dry run's creates), in searches of HANDLES_PER_SEARCH handles. */
export async function handleHolders(client: ShopifyClient, shop: StorefrontShop, handles: string[]): Promise<Map<string, ProductIdentity>> {
  const holders = new Map<string, ProductIdentity>();
  const wanted = [...new Set(handles)];
  for (let i = 0; i < wanted.length; i += HANDLES_PER_SEARCH) {
    const batch = wanted.slice(i, i + HANDLES_PER_SEARCH);
    // "Filter by a comma-separated list of product handles" (products, argument `query`, filter `handle`, 2026-10).
    const data = await client.call<ProductIdentitiesData>(
      shop,
      ProductIdentities,
      { query: `handle:${batch.join(',')}`, first: batch.length },
      2 + 2 * batch.length,
    );
    for (const n of data.products?.nodes ?? []) {
      if (batch.includes(n.handle)) holders.set(n.handle, { id: n.id, handle: n.handle, title: n.title, pimId: n.pimProductId?.value ?? null });
    }
  }
  return holders;
}

/** The identity of a looked-up product (ProductLookup, ProductRecoveryLookup). */
export function identityOf(found: { id: string; handle: string; title?: string | null } & Parameters<typeof pimIdOf>[0]): ProductIdentity {
  return { id: found.id, handle: found.handle, title: found.title ?? '', pimId: pimIdOf(found) };
}

/**
 * A created product whose handle is not the one sent: Shopify refuses a taken handle rather than suffixing it, so this
 * is not expected; should a shop ever answer another handle (a suffix, a normalisation), the push says so — the product
 * is on the storefront, its mapping kept, with this problem — rather than let the URL differ silently. None when no
 * handle was sent (an update).
 */
export function handleProblems(sent: string | undefined, answered: string | null | undefined): string[] {
  if (sent === undefined || answered == null || answered === sent) return [];
  return [`handle: Shopify gave the new product the handle '${answered}', not the PIM slug '${sent}'`];
}

/**
 * The product's problem when the shop refused its handle (HANDLE_NOT_UNIQUE): which product holds it, and what to do.
 * `holder` null: the shop refused the handle but no product with it could be read (deleted meanwhile).
 */
export function handleTakenProblem(handle: string, holder: ProductIdentity | null, pimProductId: number): string {
  if (!holder)
    return `handle: '${handle}' (the PIM slug) is taken in the shop, but no product with that handle could be read: push again, or change the slug in the PIM`;
  const numeric = /\/(\d+)$/.exec(holder.id)?.[1] ?? holder.id;
  const named = `Shopify product ${numeric} "${holder.title}" (${holder.id}, handle '${holder.handle}')`;
  if (holder.pimId === String(pimProductId)) {
    // The bridge's own product for this PIM product, whose mapping was lost where the metafield search cannot find it:
    // a push of this product alone takes it over (the bulk path cannot within its operation).
    return `handle: '${handle}' (the PIM slug) is held by ${named}, which the bridge made for this PIM product before its mapping was lost: push this product again to link it`;
  }
  if (holder.pimId !== null) {
    return `handle: '${handle}' (the PIM slug) is taken in the shop by ${named}, which the bridge pushed for PIM product ${holder.pimId}: change this product's slug in the PIM, or that product's handle in Shopify`;
  }
  return `handle: '${handle}' (the PIM slug) is taken in the shop by ${named}, which the bridge does not own: adopt it (POST /api/adopt: its handle matches this PIM product's slug), or change this product's slug in the PIM`;
}
