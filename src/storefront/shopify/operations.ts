// Every GraphQL document the Shopify adapter sends, as named constants. test/shopify-operations.test.ts validates each
// exported document against the real Admin API 2026-10 schema, deprecations included: add new operations here only.

/**
 * Shop identity, plan and the limits the push checks before sending (`shop.resourceLimits`), and the access scopes the
 * app holds (compared with SHOPIFY_SCOPES at connect and by the status checks: in the same call, so they cost none).
 */
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
    currentAppInstallation {
      accessScopes {
        handle
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
  currentAppInstallation?: { accessScopes: { handle: string }[] } | null;
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

/**
 * Whether an existing definition of `pimbridge.pim_product_id` has unique values (customId needs them; Shopify grants
 * the capability only to a definition without values yet, so one made without it stays without it).
 */
export const MetafieldDefinitionCapabilities = /* GraphQL */ `
  query MetafieldDefinitionCapabilities($identifier: MetafieldDefinitionIdentifierInput!) {
    metafieldDefinition(identifier: $identifier) {
      id
      capabilities {
        uniqueValues {
          enabled
        }
      }
    }
  }
`;

export interface MetafieldDefinitionCapabilitiesData {
  metafieldDefinition: { id: string; capabilities: { uniqueValues: { enabled: boolean } } } | null;
}

/**
 * The shop's PRODUCT metafield definitions in the bridge's attribute namespace, with their types and validations: a push
 * creates the missing ones (MetafieldDefinitionCreate) and checks each value against the shop's definition before
 * sending. Read once per shop and namespace, then kept by the adapter.
 */
export const ProductMetafieldDefinitions = /* GraphQL */ `
  query ProductMetafieldDefinitions($namespace: String!, $after: String) {
    metafieldDefinitions(ownerType: PRODUCT, namespace: $namespace, first: 250, after: $after) {
      nodes {
        id
        namespace
        key
        type {
          name
        }
        validations {
          name
          value
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface ProductMetafieldDefinitionsData {
  metafieldDefinitions: {
    nodes: { id: string; namespace: string; key: string; type: { name: string }; validations: { name: string; value: string | null }[] }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** What both lookups read of a product: what a push must merge with (tags and metafields). */
const ProductMergeFields = /* GraphQL */ `
  fragment ProductMergeFields on Product {
    id
    handle
    title
    tags
    metafields(first: 250) {
      nodes {
        namespace
        key
        type
        value
      }
    }
    collections(first: 250, query: "collection_type:custom") {
      nodes {
        id
      }
    }
  }
`;

/** A product's media (id, status, an image's URL): what the lookups before sending `files` match ours by (mediaKeyIn). */
const ProductMediaList = /* GraphQL */ `
  fragment ProductMediaList on Product {
    media(first: 250) {
      nodes {
        id
        status
        ... on MediaImage {
          image {
            url
          }
        }
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
  ${ProductMediaList}`;

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
        pimId: metafield(namespace: "pimbridge", key: "pim_product_id") {
          value
        }
      }
    }
  }
`;

export interface ProductIdentitiesData {
  products: { nodes: { id: string; handle: string; title: string; pimId: { value: string } | null }[] } | null;
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
  ${ProductMediaList}`;

/** A media's processing state, errors and URL (null until processed; it ends with the file name we gave it). */
const MediaStateFields = /* GraphQL */ `
  fragment MediaState on Media {
    id
    status
    mediaErrors {
      code
      message
    }
    ... on MediaImage {
      image {
        url
      }
    }
  }
`;

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
  ${MediaStateFields}`;

export interface ProductMediaData {
  product: { media: { nodes: StorefrontMediaNode[] } } | null;
}

/**
 * What a productSet answers, per call and per bulk line: variant ids with their inventory items, and the media with
 * their processing state (a FAILED image is reported on the mapping) and URLs (which carry our file name once READY).
 */
const ProductSetAnswerFields = /* GraphQL */ `
  fragment ProductSetAnswer on Product {
    id
    handle
    title
    variants(first: $variants) {
      nodes {
        id
        sku
        inventoryItem {
          id
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    media(first: $media) {
      nodes {
        ...MediaState
      }
    }
  }
  ${MediaStateFields}`;

/**
 * The upsert. The selection is kept small (it is charged): ids and SKUs of the variants, media ids in the order of the
 * files sent (Shopify keeps that order), `$variants`/`$media` sized to what was sent.
 */
export const ProductSetSync = /* GraphQL */ `
  mutation ProductSetSync($identifier: ProductSetIdentifiers, $input: ProductSetInput!, $variants: Int!, $media: Int!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        ...ProductSetAnswer
      }
      userErrors {
        field
        message
        code
      }
    }
  }
  ${ProductSetAnswerFields}`;

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
          id
          sku
          inventoryItem {
            id
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`;

export interface ProductVariantsPageData {
  product: { variants: ProductSetProductData['variants'] } | null;
}

/** The shop's publications (sales channels), titled by their catalog (Publication.name is deprecated in 2026-10). */
export const Publications = /* GraphQL */ `
  query Publications($first: Int!, $after: String) {
    publications(first: $first, after: $after) {
      nodes {
        id
        catalog {
          title
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface PublicationsData {
  publications: { nodes: { id: string; catalog: { title: string } | null }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** Publishes a product on publications: an ACTIVE product reaches a sales channel only this way. */
export const PublishablePublish = /* GraphQL */ `
  mutation PublishablePublish($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) {
      userErrors {
        field
        message
      }
    }
  }
`;

export const PublishableUnpublish = /* GraphQL */ `
  mutation PublishableUnpublish($id: ID!, $input: [PublicationInput!]!) {
    publishableUnpublish(id: $id, input: $input) {
      userErrors {
        field
        message
      }
    }
  }
`;

export interface PublishableData {
  publishablePublish?: { userErrors: { field: string[] | null; message: string }[] } | null;
  publishableUnpublish?: { userErrors: { field: string[] | null; message: string }[] } | null;
}

/** Where inventory items are stocked and how many are available there (before a compare-and-swap). */
export const InventoryLevels = /* GraphQL */ `
  query InventoryLevels($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on InventoryItem {
        id
        inventoryLevels(first: 50) {
          nodes {
            location {
              id
            }
            quantities(names: ["available"]) {
              name
              quantity
            }
          }
        }
      }
    }
  }
`;

export interface InventoryLevelsData {
  nodes: ({ id: string; inventoryLevels: { nodes: { location: { id: string }; quantities: { name: string; quantity: number }[] }[] } } | null)[];
}

/**
 * Sets available quantities with compare-and-swap (`changeFromQuantity`): a sale made in the shop between our read and
 * this write fails it with CHANGE_FROM_QUANTITY_STALE instead of being overwritten. The idempotency key is required
 * from 2026-04 (the mutation's description).
 */
export const InventorySetQuantities = /* GraphQL */ `
  mutation InventorySetQuantities($input: InventorySetQuantitiesInput!, $key: String!) {
    inventorySetQuantities(input: $input) @idempotent(key: $key) {
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface InventorySetQuantitiesData {
  inventorySetQuantities: { userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
}

/** Stocks an existing inventory item at a location (Shopify takes quantities only where an item is stocked). */
export const InventoryActivate = /* GraphQL */ `
  mutation InventoryActivate($inventoryItemId: ID!, $locationId: ID!, $available: Int, $key: String!) {
    inventoryActivate(inventoryItemId: $inventoryItemId, locationId: $locationId, available: $available) @idempotent(key: $key) {
      inventoryLevel {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export interface InventoryActivateData {
  inventoryActivate: { inventoryLevel: { id: string } | null; userErrors: { field: string[] | null; message: string }[] } | null;
}

/**
 * Bulk upserts: the productSet every line of the JSONL runs (variables as ProductSetSync's, one product per line).
 * A bulk mutation may select one connection only ("limited to one connection field",
 * https://shopify.dev/docs/api/usage/bulk-operations/imports): the variants, with their inventory items, and the
 * product's `createdAt`, which tells a create from an update in the result file. The media are not read back: the
 * images a line sent stay unconfirmed on the mapping until a per-call push reads their ids (by our file names).
 */
export const ProductSetBulk = /* GraphQL */ `
  mutation ProductSetBulk($identifier: ProductSetIdentifiers, $input: ProductSetInput!, $variants: Int!) {
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
            inventoryItem {
              id
            }
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }`;

/**
 * A bulk operation's document under an operation name of its own (`ProductSetBulk_{tag}`, `CatalogueProducts_{tag}`):
 * the document a bulk operation reports in `BulkOperation.query` then tells which start made it, though several of
 * ours run at once (a start whose answer was lost is adopted only if its document is exactly this one).
 */
export function bulkTagged(document: string, tag: string): string {
  if (!/^[A-Za-z0-9_]+$/.test(tag)) throw new Error(`not a GraphQL name part: ${tag}`);
  const tagged = document.replace(/\b(mutation|query) (\w+)(\s*[({])/, (_all, kind: string, name: string, next: string) => `${kind} ${name}_${tag}${next}`);
  if (tagged === document) throw new Error('not a named operation');
  return tagged;
}

/** One line of a bulk publishablePublish's result file. */
export interface PublishableBulkLine {
  data?: { publishablePublish: { userErrors: { field: string[] | null; message: string }[] } | null };
  errors?: { message?: string }[];
  __lineNumber?: number;
}

export interface ProductSetBulkLine {
  data?: {
    productSet: {
      product: (Omit<ProductSetProductData, 'media'> & { createdAt: string }) | null;
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

/** Runs a mutation once per line of the staged file, in the background (up to five per app and shop at once from 2026-01). */
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
 * The shop's recent bulk mutations, newest first (the connection's default order): did a start whose answer was lost
 * create one? Ten covers the five an app may run at once (https://shopify.dev/docs/api/usage/bulk-operations/imports)
 * and a few just finished. (currentBulkOperation is deprecated in 2026-10 in favour of this.)
 */
export const RecentBulkMutations = /* GraphQL */ `
  query RecentBulkMutations {
    bulkOperations(first: 10, query: "operation_type:mutation") {
      nodes {
        ...BulkOperationFields
      }
    }
  }
  ${BulkOperationFields}`;

export interface RecentBulkMutationsData {
  bulkOperations: { nodes: BulkOperationNode[] };
}

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
            fullName
          }
          pimProductId: metafield(namespace: "pimbridge", key: "pim_product_id") {
            value
          }
          variants {
            edges {
              node {
                id
                sku
                barcode
                price
                compareAtPrice
                inventoryQuantity
                inventoryPolicy
                taxable
                selectedOptions {
                  name
                  value
                }
                inventoryItem {
                  id
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
            }
          }
          media {
            edges {
              node {
                id
                alt
                ... on MediaImage {
                  image {
                    url
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

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
          pimProductId: metafield(namespace: "pimbridge", key: "pim_product_id") {
            value
          }
          metafields {
            edges {
              node {
                id
                namespace
                key
                type
                value
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
                ... on MediaImage {
                  image {
                    url
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

/** One line of OurProducts' result file: a product, or one of its metafields, collections, variants or media. */
export type OurProductLine =
  | { id: string; handle: string; title: string; tags: string[] | null; pimProductId: { value: string } | null; __parentId?: undefined }
  | { id: string; namespace: string; key: string; type: string; value: string; __parentId: string }
  | { id: string; sku: string | null; __parentId: string }
  | ({ __parentId: string } & StorefrontMediaNode);

/**
 * Runs a query in bulk, in the background; its result file is at the operation's `url` once COMPLETED (polled with
 * BulkOperationState). `groupObjects` is left at its default (false from 2026-01): the reader does not need children
 * next to their parent, and grouping makes the operation slower.
 */
export const BulkOperationRunQuery = /* GraphQL */ `
  mutation BulkOperationRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
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

export interface BulkOperationRunQueryData {
  bulkOperationRunQuery: {
    bulkOperation: BulkOperationNode | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

/** The shop's recent bulk queries, newest first: did a start whose answer was lost create one? */
export const RecentBulkQueries = /* GraphQL */ `
  query RecentBulkQueries {
    bulkOperations(first: 10, query: "operation_type:query") {
      nodes {
        ...BulkOperationFields
      }
    }
  }
  ${BulkOperationFields}`;

/** A variant as the dry run compares it (field-ownership.ts's variant rows): one fragment for both preview reads. */
const PreviewVariantFields = /* GraphQL */ `
  fragment PreviewVariant on ProductVariant {
    id
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

/**
 * The dry run's read of the current storefront products (a push preview): many products in one call by id, with the
 * fields the bridge owns, our category-tags metafield (which tags are ours to remove), the first page of variants and
 * the media. `$variants` / `$media` are sized to the batch so the requested cost stays small.
 */
export const ProductPreviewRead = /* GraphQL */ `
  query ProductPreviewRead($ids: [ID!]!, $variants: Int!, $media: Int!) {
    nodes(ids: $ids) {
      ... on Product {
        id
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
        pimTags: metafield(namespace: "pimbridge", key: "pim_tags") {
          value
        }
        categoryTags: metafield(namespace: "pimbridge", key: "category_tags") {
          value
        }
        collections(first: 250, query: "collection_type:custom") {
          nodes {
            id
            title
          }
        }
        variants(first: $variants) {
          nodes {
            ...PreviewVariant
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
        media(first: $media) {
          nodes {
            id
            ... on MediaImage {
              image {
                url
              }
            }
          }
        }
      }
    }
  }
  ${PreviewVariantFields}`;

/** The variants of one product past ProductPreviewRead's first page. */
export const ProductPreviewVariants = /* GraphQL */ `
  query ProductPreviewVariants($id: ID!, $after: String) {
    product(id: $id) {
      variants(first: 250, after: $after) {
        nodes {
          ...PreviewVariant
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${PreviewVariantFields}`;

export interface PreviewVariantNode {
  id: string;
  sku: string | null;
  price: string | null;
  compareAtPrice: string | null;
  barcode: string | null;
  inventoryPolicy: string | null;
  taxable: boolean | null;
  selectedOptions: { name: string; value: string }[];
  inventoryItem: {
    tracked: boolean | null;
    requiresShipping: boolean | null;
    measurement: { weight: { value: number; unit: string } | null } | null;
  } | null;
}

type PreviewVariantPage = { nodes: PreviewVariantNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

export interface ProductPreviewReadData {
  nodes: ({
    id: string;
    handle: string;
    title: string;
    descriptionHtml: string | null;
    vendor: string | null;
    productType: string | null;
    status: string;
    tags: string[];
    seo: { title: string | null; description: string | null } | null;
    isGiftCard: boolean | null;
    category: { id: string } | null;
    /** The PIM tags our last push sent, and the category names an older push sent as tags (JSON lists). */
    pimTags: { value: string } | null;
    categoryTags: { value: string } | null;
    /** Its custom collections (the bridge's and the merchant's). */
    collections: { nodes: { id: string; title: string }[] };
    variants: PreviewVariantPage;
    media: { nodes: { id: string; image?: { url: string | null } | null }[] };
  } | null)[];
}

export interface ProductPreviewVariantsData {
  product: { variants: PreviewVariantPage } | null;
}

/**
 * Shopify's Standard Product Taxonomy searched by name (`taxonomy.categories(search:)`: "If a `search` argument is
 * provided, then all categories that match the search query globally are returned", schema 2026-10): a PIM category
 * given by its full name (`Apparel & Accessories > Clothing > Clothing Tops > T-Shirts`) is searched by its last part and
 * the node whose `fullName` is the PIM's is taken (taxonomy.ts). Requested cost 2 + 1 × 25's multiplier.
 */
export const TaxonomyCategorySearch = /* GraphQL */ `
  query TaxonomyCategorySearch($search: String!) {
    taxonomy {
      categories(first: 25, search: $search) {
        nodes {
          id
          name
          fullName
        }
      }
    }
  }
`;

export interface TaxonomyCategorySearchData {
  taxonomy: { categories: { nodes: { id: string; name: string; fullName: string }[] } } | null;
}

/** The app's webhook subscriptions on the shop (`uri`, not the deprecated `callbackUrl`/`endpoint`). */
export const WebhookSubscriptionsList = /* GraphQL */ `
  query WebhookSubscriptionsList($first: Int!, $after: String, $topics: [WebhookSubscriptionTopic!]) {
    webhookSubscriptions(first: $first, after: $after, topics: $topics) {
      nodes {
        id
        topic
        uri
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export interface WebhookSubscriptionsListData {
  webhookSubscriptions: {
    nodes: { id: string; topic: string; uri: string }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** One subscription: `webhookSubscription: {uri}` (WebhookSubscriptionInput.callbackUrl is deprecated in 2026-10). */
export const WebhookSubscriptionCreate = /* GraphQL */ `
  mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $uri: String!) {
    webhookSubscriptionCreate(topic: $topic, webhookSubscription: { uri: $uri, format: JSON }) {
      webhookSubscription {
        id
        topic
        uri
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export interface WebhookSubscriptionCreateData {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string; topic: string; uri: string } | null;
    userErrors: { field: string[] | null; message: string }[];
  };
}

export const WebhookSubscriptionDelete = /* GraphQL */ `
  mutation WebhookSubscriptionDelete($id: ID!) {
    webhookSubscriptionDelete(id: $id) {
      deletedWebhookSubscriptionId
      userErrors {
        field
        message
      }
    }
  }
`;

export interface WebhookSubscriptionDeleteData {
  webhookSubscriptionDelete: { deletedWebhookSubscriptionId: string | null; userErrors: { field: string[] | null; message: string }[] };
}

/** Fields of a collection the bridge made for a PIM category. */
const CategoryCollectionFields = /* GraphQL */ `
  fragment CategoryCollectionFields on Collection {
    id
    handle
    title
  }
`;

/**
 * The collections that may be the one made for a PIM category (a title search), each with our category id metafield:
 * the one carrying the category's id is ours, whatever its title search matched.
 */
export const CategoryCollectionLookup = /* GraphQL */ `
  query CategoryCollectionLookup($query: String!) {
    collections(first: 25, query: $query) {
      nodes {
        ...CategoryCollectionFields
        metafield(namespace: "pimbridge", key: "pim_category_id") {
          value
        }
      }
    }
  }
  ${CategoryCollectionFields}`;

export interface CategoryCollectionLookupData {
  collections: { nodes: { id: string; handle: string; title: string; metafield: { value: string } | null }[] };
}

/** A custom collection: `collection` with no condition sources (the deprecated `input`/`ruleSet` are not used). */
export const CollectionCreate = /* GraphQL */ `
  mutation CollectionCreate($collection: CollectionCreateInput!) {
    collectionCreate(collection: $collection) {
      collection {
        ...CategoryCollectionFields
      }
      userErrors {
        field
        message
      }
    }
  }
  ${CategoryCollectionFields}`;

/** What collectionCreate and collectionUpdate answer of a category collection. */
interface CategoryCollectionPayload {
  collection: { id: string; handle: string; title: string } | null;
  userErrors: { field: string[] | null; message: string }[];
}

export interface CollectionCreateData {
  collectionCreate: CategoryCollectionPayload | null;
}

export const CollectionRename = /* GraphQL */ `
  mutation CollectionRename($collection: CollectionUpdateInput!) {
    collectionUpdate(collection: $collection) {
      collection {
        ...CategoryCollectionFields
      }
      userErrors {
        field
        message
      }
    }
  }
  ${CategoryCollectionFields}`;

export interface CollectionRenameData {
  collectionUpdate: CategoryCollectionPayload | null;
}

export const CollectionDelete = /* GraphQL */ `
  mutation CollectionDelete($input: CollectionDeleteInput!) {
    collectionDelete(input: $input) {
      deletedCollectionId
      userErrors {
        field
        message
      }
    }
  }
`;

export interface CollectionDeleteData {
  collectionDelete: { deletedCollectionId: string | null; userErrors: { field: string[] | null; message: string }[] } | null;
}

/** The shop's enabled locales (translation-sync.ts; read once per shop and cached for a few minutes). */
export const ShopLocales = /* GraphQL */ `
  query ShopLocales {
    shopLocales {
      locale
      primary
      published
    }
  }
`;

export interface ShopLocalesData {
  shopLocales: { locale: string; primary: boolean; published: boolean }[];
}

/** A product's translatable content with the digests translationsRegister needs (one query per product registered). */
export const TranslatableProductContent = /* GraphQL */ `
  query TranslatableProductContent($resourceId: ID!) {
    translatableResource(resourceId: $resourceId) {
      resourceId
      translatableContent {
        key
        digest
      }
    }
  }
`;

export interface TranslatableProductContentData {
  translatableResource: { resourceId: string; translatableContent: { key: string; digest: string | null }[] } | null;
}

/** Every translation of one product in one call, all locales at once. */
export const TranslationsRegister = /* GraphQL */ `
  mutation TranslationsRegister($resourceId: ID!, $translations: [TranslationInput!]!) {
    translationsRegister(resourceId: $resourceId, translations: $translations) {
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** Translations the bridge registered before and the PIM no longer has (keys × locales). */
export const TranslationsRemove = /* GraphQL */ `
  mutation TranslationsRemove($resourceId: ID!, $translationKeys: [String!]!, $locales: [String!]!) {
    translationsRemove(resourceId: $resourceId, translationKeys: $translationKeys, locales: $locales) {
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface TranslationsMutationData {
  translationsRegister?: { userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
  translationsRemove?: { userErrors: { field: string[] | null; message: string; code: string | null }[] } | null;
}
