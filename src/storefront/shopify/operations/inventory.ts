// Stock levels: where inventory items are stocked, and compare-and-swap writes of their quantities.

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
