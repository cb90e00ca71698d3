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
