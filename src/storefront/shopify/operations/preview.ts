// The dry run's reads of the current storefront products (a push preview).

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
