// The custom collections the bridge makes for PIM categories.

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
