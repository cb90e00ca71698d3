// One product at a time: the lookups before a push (what it must merge with, who holds it), productSet, and what is
// read after it (variants past the first page, media being processed).
import { MediaImageUrl, MediaState, MetafieldValue, PimProductId, ProductSetAnswer, VariantIds } from './fragments.js';

/** What both lookups read of a product: what a push must merge with (tags and metafields). Spreads MetafieldValue. */
const ProductMergeFields = /* GraphQL */ `
  fragment ProductMergeFields on Product {
    id
    handle
    title
    tags
    metafields(first: 250) {
      nodes {
        ...MetafieldValue
      }
    }
    collections(first: 250, query: "collection_type:custom") {
      nodes {
        id
      }
    }
  }
`;

/** A product's media (id, status, an image's URL): what the lookups before sending `files` match ours by (mediaKeyIn). Spreads MediaImageUrl. */
const ProductMediaList = /* GraphQL */ `
  fragment ProductMediaList on Product {
    media(first: 250) {
      nodes {
        id
        status
        ...MediaImageUrl
      }
    }
  }
`;

/**
 * Before every push of a mapped product: its current tags and metafields (with the category tags we sent last time),
 * so the merchant's tags and metafields survive the push (productSet replaces those lists). Also tells us the product
 * still exists. `metafields(first: 250)` is charged 13 requested but refunded to what is returned (usually 3).
 */
export const ProductLookup = /* GraphQL */ `
  query ProductLookup($identifier: ProductIdentifierInput!) {
    productByIdentifier(identifier: $identifier) {
      ...ProductMergeFields
    }
  }
  ${ProductMergeFields}
  ${MetafieldValue}`;

export interface ProductLookupData {
  productByIdentifier: {
    id: string;
    handle: string;
    /** Names the product in a problem (a handle it holds that a push wanted). */
    title: string;
    tags: string[];
    metafields: { nodes: { namespace: string; key: string; type: string; value: string }[] };
    /** Its custom collections (a smart collection's membership is its rules'): the merchant's are kept by a push. */
    collections?: { nodes: { id: string }[] };
    variants?: ProductSetProductData['variants'];
    media?: { nodes: StorefrontMediaNode[] };
  } | null;
}

/**
 * Before a push that sends `files` to a mapped product (its images changed): ProductLookup's fields and the product's
 * media, so the merchant's media go back in the list productSet replaces (only media the bridge made are ever removed).
 */
export const ProductLookupMedia = /* GraphQL */ `
  query ProductLookupMedia($identifier: ProductIdentifierInput!) {
    productByIdentifier(identifier: $identifier) {
      ...ProductMergeFields
      ...ProductMediaList
    }
  }
  ${ProductMergeFields}
  ${MetafieldValue}
  ${ProductMediaList}
  ${MediaImageUrl}`;

/**
 * Products by a search (`products(query:)`), with what says whose they are: our `pimbridge.pim_product_id` metafield.
 * Two uses (product-identity.ts): a product whose mapping was lost, by that metafield
 * (`metafields.pimbridge.pim_product_id:"42"`) when the shop has no unique definition for customId; and who holds the
 * handles a dry run would create (`handle:a,b`). Requested cost 2 + 2 per product asked for.
 */
export const ProductIdentities = /* GraphQL */ `
  query ProductIdentities($query: String!, $first: Int!) {
    products(first: $first, query: $query) {
      nodes {
        id
        handle
        title
        ...PimProductId
      }
    }
  }
  ${PimProductId}`;

export interface ProductIdentitiesData {
  products: { nodes: { id: string; handle: string; title: string; pimProductId: { value: string } | null }[] } | null;
}

/**
 * A product without a mapping (a crash lost it, or it is new): found by customId (or by id after a search by our
 * metafield), or the holder of the handle a create was refused, with its variants and media, so the retry keeps the
 * variant ids and sends existing images by id instead of uploading them again.
 * A separate document from ProductLookup: the requested cost counts the connections (52 against 15).
 */
export const ProductRecoveryLookup = /* GraphQL */ `
  query ProductRecoveryLookup($identifier: ProductIdentifierInput!) {
    productByIdentifier(identifier: $identifier) {
      ...ProductMergeFields
      variants(first: 250) {
        nodes {
          id
          sku
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      ...ProductMediaList
    }
  }
  ${ProductMergeFields}
  ${MetafieldValue}
  ${ProductMediaList}
  ${MediaImageUrl}`;

/**
 * A product's media with their processing state: after images were sent again, whether Shopify processed them or
 * FAILED them once more (media are processed after productSet answers).
 */
export const ProductMedia = /* GraphQL */ `
  query ProductMedia($id: ID!, $media: Int!) {
    product(id: $id) {
      media(first: $media) {
        nodes {
          ...MediaState
        }
      }
    }
  }
  ${MediaState}
  ${MediaImageUrl}`;

export interface ProductMediaData {
  product: { media: { nodes: StorefrontMediaNode[] } } | null;
}

/**
 * The upsert. The selection is kept small (it is charged): ids and SKUs of the variants with their inventory items, media
 * ids in the order of the files sent (Shopify keeps that order) with their processing state (a FAILED image is reported
 * on the mapping) and URLs (which carry our file name once READY), `$variants`/`$media` sized to what was sent.
 */
export const ProductSetSync = /* GraphQL */ `
  mutation ProductSetSync($identifier: ProductSetIdentifiers, $input: ProductSetInput!, $variants: Int!, $media: Int!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        ...ProductSetAnswer
        media(first: $media) {
          nodes {
            ...MediaState
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
  ${ProductSetAnswer}
  ${VariantIds}
  ${MediaState}
  ${MediaImageUrl}`;

export interface ProductSetProductData {
  id: string;
  handle: string;
  title: string;
  variants: {
    nodes: { id: string; sku: string | null; inventoryItem: { id: string } | null }[];
    pageInfo?: { hasNextPage: boolean; endCursor: string | null };
  };
  media: { nodes: StorefrontMediaNode[] };
}

/**
 * A product's media as the push reads it: status and errors (Shopify processes media asynchronously), and its CDN URL
 * (null until processed), which ends with the file name we gave it.
 */
export interface StorefrontMediaNode {
  id: string;
  status?: string;
  mediaErrors?: { code: string; message: string }[];
  image?: { url: string | null } | null;
}

export interface ProductSetSyncData {
  productSet: {
    product: ProductSetProductData | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

/** Variants past the first 250 of a product (Shopify caps `first` at 250): read page by page after the upsert. */
export const ProductVariantsPage = /* GraphQL */ `
  query ProductVariantsPage($id: ID!, $after: String) {
    product(id: $id) {
      variants(first: 250, after: $after) {
        nodes {
          ...VariantIds
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${VariantIds}`;

export interface ProductVariantsPageData {
  product: { variants: ProductSetProductData['variants'] } | null;
}
