// The shop's sales channels and a product's place on them.

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
