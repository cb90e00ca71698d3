// The selections more than one document makes of a product, its variants, media and metafields, each written once as a
// GraphQL fragment. A document spreads one (`...ProductFields`) and appends its text, and the text of every fragment
// that one spreads in turn (as each says below): the schema test (test/shopify-operations.test.ts) refuses a document
// that misses one or appends one twice, and checks that every fragment here is used. Fragments are allowed in bulk
// queries and bulk mutations alike; what the bulk rules ask of a bulk query (each connection through `edges { node }`,
// the `id` of each parent of one) its document writes itself, outside the fragments. Not re-exported by operations.ts:
// these are parts of documents, not documents.

/**
 * A product's fields that the bridge owns, as the dry run and the drift report compare them (field-ownership.ts): what
 * the push preview reads (ProductPreviewRead) and the catalogue's bulk query reads of every product (CatalogueProducts).
 */
export const ProductFields = /* GraphQL */ `
  fragment ProductFields on Product {
    handle
    title
    descriptionHtml
    vendor
    productType
    status
    tags
    seo {
      title
      description
    }
    isGiftCard
    category {
      id
    }
  }
`;

/** A variant's fields that the bridge owns (field-ownership.ts's variant rows): the preview's and the catalogue's. */
export const VariantFields = /* GraphQL */ `
  fragment VariantFields on ProductVariant {
    sku
    price
    compareAtPrice
    barcode
    inventoryPolicy
    taxable
    selectedOptions {
      name
      value
    }
    inventoryItem {
      tracked
      requiresShipping
      measurement {
        weight {
          value
          unit
        }
      }
    }
  }
`;

/** What a push maps a variant by: its id and SKU, and its inventory item (whose stock the push sets). */
export const VariantIds = /* GraphQL */ `
  fragment VariantIds on ProductVariant {
    id
    sku
    inventoryItem {
      id
    }
  }
`;

/**
 * What a productSet answers, per call (ProductSetSync, which adds the media) and per bulk line (ProductSetBulk, which
 * adds `createdAt`): the product's identity and its variants (`$variants` sized to what was sent). Spreads VariantIds.
 */
export const ProductSetAnswer = /* GraphQL */ `
  fragment ProductSetAnswer on Product {
    id
    handle
    title
    variants(first: $variants) {
      nodes {
        ...VariantIds
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** An image's URL (null until Shopify processed it; it ends with the file name we gave it), on any media. */
export const MediaImageUrl = /* GraphQL */ `
  fragment MediaImageUrl on Media {
    ... on MediaImage {
      image {
        url
      }
    }
  }
`;

/** A media's processing state, errors and URL: after a productSet, whether Shopify processed the images sent. Spreads MediaImageUrl. */
export const MediaState = /* GraphQL */ `
  fragment MediaState on Media {
    id
    status
    mediaErrors {
      code
      message
    }
    ...MediaImageUrl
  }
`;

/** A metafield as a push merges it (the merchant's survive, productSet replaces the list). */
export const MetafieldValue = /* GraphQL */ `
  fragment MetafieldValue on Metafield {
    namespace
    key
    type
    value
  }
`;

/** Our identifier metafield (tags-metafields-collections.ts writes it): which PIM product a shop's product is. */
export const PimProductId = /* GraphQL */ `
  fragment PimProductId on Product {
    pimProductId: metafield(namespace: "pimbridge", key: "pim_product_id") {
      value
    }
  }
`;
