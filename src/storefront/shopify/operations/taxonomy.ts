// Shopify's Standard Product Taxonomy.

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
