// The documents run as bulk queries, and the lines of their result files.
import { MediaImageUrl, MetafieldValue, PimProductId, ProductFields, VariantFields } from './fragments.js';
import type { StorefrontMediaNode } from './products.js';

/**
 * The shop's whole catalogue for an adoption (POST /api/adopt), in one bulk query: every product with the fields the
 * matching and a Shopify-CSV-like import need, our `pimbridge.pim_product_id` metafield (a product an earlier push of
 * ours made), its variants and its images. Within Shopify's rules for bulk queries (schema 2026-10,
 * Mutation.bulkOperationRunQuery; https://shopify.dev/docs/api/usage/bulk-operations/queries): three connections
 * (products, variants, media), two levels deep, every connection through `edges { node }`, and each parent of a nested
 * connection selecting its `id` (the children's `__parentId` in the result file). No `first`: a bulk query reads
 * whole connections.
 */
export const CatalogueProducts = /* GraphQL */ `
  query CatalogueProducts {
    products {
      edges {
        node {
          id
          ...ProductFields
          category {
            fullName
          }
          ...PimProductId
          variants {
            edges {
              node {
                id
                ...VariantFields
                inventoryQuantity
                inventoryItem {
                  id
                }
              }
            }
          }
          media {
            edges {
              node {
                id
                alt
                ...MediaImageUrl
              }
            }
          }
        }
      }
    }
  }
  ${ProductFields}
  ${PimProductId}
  ${VariantFields}
  ${MediaImageUrl}`;

/** One line of CatalogueProducts' result file: a product, or a variant or media with `__parentId` (its product). */
export type CatalogueLine =
  | {
      id: string;
      handle: string;
      title: string;
      descriptionHtml: string | null;
      vendor: string | null;
      productType: string | null;
      status: string;
      tags: string[] | null;
      seo?: { title: string | null; description: string | null } | null;
      isGiftCard?: boolean | null;
      category?: { id: string; fullName: string } | null;
      pimProductId: { value: string } | null;
      __parentId?: undefined;
    }
  | {
      id: string;
      sku: string | null;
      barcode: string | null;
      price: string | null;
      compareAtPrice: string | null;
      inventoryQuantity: number | null;
      inventoryPolicy?: string | null;
      taxable?: boolean | null;
      selectedOptions: { name: string; value: string }[] | null;
      inventoryItem: {
        id: string;
        tracked?: boolean | null;
        requiresShipping?: boolean | null;
        measurement?: { weight: { value: number; unit: string } | null } | null;
      } | null;
      __parentId: string;
    }
  | { id: string; alt?: string | null; image?: { url: string | null } | null; __parentId: string };

/**
 * The bridge's products in one bulk query (ours-in-bulk.ts), for a bulk upsert many of whose products have no storefront
 * id although an earlier run may have made them (a rerun after a failed operation or a dead worker): every product with
 * our `pimbridge.pim_product_id` metafield and what ProductRecoveryLookup reads of it — tags, metafields, custom
 * collections, variants and media — so each line is built as after a lookup of its own, without one. Within Shopify's
 * rules for bulk queries (https://shopify.dev/docs/api/usage/bulk-operations/queries, "Operation restrictions"): five
 * connections at most (products, metafields, collections, variants, media), two levels deep, `edges { node }`, the
 * parent selecting its `id`.
 */
export const OurProducts = /* GraphQL */ `
  query OurProducts {
    products {
      edges {
        node {
          id
          handle
          title
          tags
          ...PimProductId
          metafields {
            edges {
              node {
                id
                ...MetafieldValue
              }
            }
          }
          collections(query: "collection_type:custom") {
            edges {
              node {
                id
              }
            }
          }
          variants {
            edges {
              node {
                id
                sku
              }
            }
          }
          media {
            edges {
              node {
                id
                status
                ...MediaImageUrl
              }
            }
          }
        }
      }
    }
  }
  ${PimProductId}
  ${MetafieldValue}
  ${MediaImageUrl}`;

/** One line of OurProducts' result file: a product, or one of its metafields, collections, variants or media. */
export type OurProductLine =
  | { id: string; handle: string; title: string; tags: string[] | null; pimProductId: { value: string } | null; __parentId?: undefined }
  | { id: string; namespace: string; key: string; type: string; value: string; __parentId: string }
  | { id: string; sku: string | null; __parentId: string }
  | ({ __parentId: string } & StorefrontMediaNode);
