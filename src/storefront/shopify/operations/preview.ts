// The dry run's reads of the current storefront products (a push preview).
import { MediaImageUrl, ProductFields, VariantFields } from './fragments.js';

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
        ...ProductFields
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
            id
            ...VariantFields
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
        media(first: $media) {
          nodes {
            id
            ...MediaImageUrl
          }
        }
      }
    }
  }
  ${ProductFields}
  ${VariantFields}
  ${MediaImageUrl}`;

/** The variants of one product past ProductPreviewRead's first page. */
export const ProductPreviewVariants = /* GraphQL */ `
  query ProductPreviewVariants($id: ID!, $after: String) {
    product(id: $id) {
      variants(first: 250, after: $after) {
        nodes {
          id
          ...VariantFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${VariantFields}`;

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
