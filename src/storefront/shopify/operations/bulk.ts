// Bulk operations: the bulk productSet, staged uploads, starting a bulk mutation or query, following it, and the
// shop's recent ones (what a start whose answer was lost may have made).
import { ProductSetAnswer, VariantIds } from './fragments.js';
import type { ProductSetProductData } from './products.js';

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
        ...ProductSetAnswer
        createdAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
  ${ProductSetAnswer}
  ${VariantIds}`;

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
