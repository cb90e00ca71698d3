// What the adapter reads and sets up once per shop: its identity, plan and limits, its locations, and the bridge's
// product metafield definitions.

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
