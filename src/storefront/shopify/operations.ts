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

/**
 * Bulk upserts: the productSet every line of the JSONL runs (variables as ProductSetSync's, one product per line).
 * ProductSetSync's selection plus the product's `createdAt`, which tells a create from an update in the result file.
 */
export const ProductSetBulk = /* GraphQL */ `
  mutation ProductSetBulk($identifier: ProductSetIdentifiers, $input: ProductSetInput!, $variants: Int!, $media: Int!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        id
        handle
        title
        createdAt
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

export interface ProductSetBulkLine {
  data?: {
    productSet: {
      product: (NonNullable<NonNullable<ProductSetSyncData['productSet']>['product']> & { createdAt: string }) | null;
      userErrors: { field: string[] | null; message: string; code: string | null }[];
    } | null;
  } | null;
  errors?: { message?: string }[];
  __lineNumber?: number;
}

/** Where to POST the JSONL of a bulk mutation (resource BULK_MUTATION_VARIABLES); the `key` parameter is its path. */
export const StagedUploadsCreate = /* GraphQL */ `
  mutation StagedUploadsCreate($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) {
      stagedTargets {
        url
        resourceUrl
        parameters {
          name
          value
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export interface StagedUploadsCreateData {
  stagedUploadsCreate: {
    stagedTargets: { url: string | null; resourceUrl: string | null; parameters: { name: string; value: string }[] }[] | null;
    userErrors: { field: string[] | null; message: string }[];
  } | null;
}

/** The fields of a bulk operation the adapter follows. */
const BulkOperationFields = /* GraphQL */ `
  fragment BulkOperationFields on BulkOperation {
    id
    status
    errorCode
    createdAt
    completedAt
    objectCount
    url
    query
  }
`;

/** Runs a mutation once per line of the staged file, in the background (one bulk mutation per shop at a time). */
export const BulkOperationRunMutation = /* GraphQL */ `
  mutation BulkOperationRunMutation($mutation: String!, $stagedUploadPath: String!) {
    bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $stagedUploadPath) {
      bulkOperation {
        ...BulkOperationFields
      }
      userErrors {
        field
        message
        code
      }
    }
  }
  ${BulkOperationFields}`;

export interface BulkOperationNode {
  id: string;
  status: 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELING' | 'CANCELED' | 'EXPIRED';
  errorCode: string | null;
  createdAt: string;
  completedAt: string | null;
  /** UnsignedInt64: a string in Shopify's JSON. */
  objectCount: string | number;
  url: string | null;
  query: string;
}

export interface BulkOperationRunMutationData {
  bulkOperationRunMutation: {
    bulkOperation: BulkOperationNode | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

/** One bulk operation by id (polled until it finishes). */
export const BulkOperationState = /* GraphQL */ `
  query BulkOperationState($id: ID!) {
    bulkOperation(id: $id) {
      ...BulkOperationFields
    }
  }
  ${BulkOperationFields}`;

export interface BulkOperationStateData {
  bulkOperation: BulkOperationNode | null;
}

/**
 * The shop's latest bulk mutation (newest first is the connection's default order): is one running, and did a start
 * whose answer was lost create one? (currentBulkOperation is deprecated in 2026-10 in favour of this.)
 */
export const LatestBulkMutation = /* GraphQL */ `
  query LatestBulkMutation {
    bulkOperations(first: 1, query: "operation_type:mutation") {
      nodes {
        ...BulkOperationFields
      }
    }
  }
  ${BulkOperationFields}`;

export interface LatestBulkMutationData {
  bulkOperations: { nodes: BulkOperationNode[] };
}
