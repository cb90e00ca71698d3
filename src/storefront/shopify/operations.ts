// Every GraphQL document the Shopify adapter sends, as named constants. test/shopify-operations.test.ts validates each
// exported document against the real Admin API 2026-10 schema, deprecations included: add new operations here only.

/** Shop identity, plan and the limits the push checks before sending (`shop.resourceLimits`). */
export const ShopHealth = /* GraphQL */ `
  query ShopHealth {
    shop {
      id
      name
      myshopifyDomain
      currencyCode
      plan {
        publicDisplayName
        shopifyPlus
        partnerDevelopment
      }
      resourceLimits {
        maxProductVariants
        maxProductOptions
      }
    }
  }
`;

export interface ShopHealthData {
  shop: {
    id: string;
    name: string;
    myshopifyDomain: string;
    currencyCode: string;
    plan: { publicDisplayName: string; shopifyPlus: boolean; partnerDevelopment: boolean };
    resourceLimits: { maxProductVariants: number; maxProductOptions: number };
  };
}

/** The shop's locations (inventory goes to active ones), read once per shop and cached by the adapter. */
export const Locations = /* GraphQL */ `
  query Locations($first: Int!, $after: String) {
    locations(first: $first, after: $after) {
      nodes {
        id
        name
        isActive
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface LocationsData {
  locations: { nodes: { id: string; name: string; isActive: boolean }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/**
 * Makes `pimbridge.pim_product_id` a unique-values product metafield, so productSet can use it as `customId` (the stable
 * identifier of a product whose mapping was lost). Sent once per shop; `TAKEN` means it already exists.
 */
export const MetafieldDefinitionCreate = /* GraphQL */ `
  mutation MetafieldDefinitionCreate($definition: MetafieldDefinitionInput!) {
    metafieldDefinitionCreate(definition: $definition) {
      createdDefinition {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface MetafieldDefinitionCreateData {
  metafieldDefinitionCreate: {
    createdDefinition: { id: string } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

/** What both lookups read of a product: what a push must merge with (tags and metafields). */
const ProductMergeFields = /* GraphQL */ `
  fragment ProductMergeFields on Product {
    id
    handle
    tags
    metafields(first: 250) {
      nodes {
        namespace
        key
        type
        value
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
  ${ProductMergeFields}`;

export interface ProductLookupData {
  productByIdentifier: {
    id: string;
    handle: string;
    tags: string[];
    metafields: { nodes: { namespace: string; key: string; type: string; value: string }[] };
    variants?: { nodes: { id: string; sku: string | null }[] };
    media?: { nodes: { id: string; originalSource?: { url: string | null } | null }[] };
  } | null;
}

/**
 * A product without a mapping (a crash lost it, or it is new): found by customId or handle, with its variants and
 * media, so the retry keeps the variant ids and sends existing images by id instead of uploading them again.
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
      }
      media(first: 250) {
        nodes {
          id
          ... on MediaImage {
            originalSource {
              url
            }
          }
        }
      }
    }
  }
  ${ProductMergeFields}`;

/**
 * The upsert. The selection is kept small (it is charged): ids and SKUs of the variants, media ids in the order of the
 * files sent (Shopify keeps that order), `$variants`/`$media` sized to what was sent.
 */
export const ProductSetSync = /* GraphQL */ `
  mutation ProductSetSync($identifier: ProductSetIdentifiers, $input: ProductSetInput!, $variants: Int!, $media: Int!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        id
        handle
        title
        variants(first: $variants) {
          nodes {
            id
            sku
          }
        }
        media(first: $media) {
          nodes {
            id
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
`;

export interface ProductSetSyncData {
  productSet: {
    product: {
      id: string;
      handle: string;
      title: string;
      variants: { nodes: { id: string; sku: string | null }[] };
      media: { nodes: { id: string }[] };
    } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}
