// The app's webhook subscriptions.

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
