// The app's webhook subscriptions on a shop (StorefrontWebhooks): listed first, then the missing topics created and
// those at another address deleted, so that running it again changes nothing and a new PUBLIC_URL moves them.
// WebhookSubscriptionInput takes `uri` (its `callbackUrl` is deprecated in 2026-10; schema: WebhookSubscriptionInput).
import { StorefrontValidationError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import type { StorefrontWebhooks, StorefrontWebhookSubscription, StorefrontWebhookTopic } from '../port/webhooks.js';
import {
  WebhookSubscriptionCreate,
  WebhookSubscriptionDelete,
  WebhookSubscriptionsList,
  type WebhookSubscriptionCreateData,
  type WebhookSubscriptionDeleteData,
  type WebhookSubscriptionsListData,
} from './operations.js';
import type { ShopifyClient } from './shopify-client.js';

export class ShopifyWebhookSubscriptions implements StorefrontWebhooks {
  constructor(private readonly client: ShopifyClient) {}

  async webhookSubscriptions(shop: StorefrontShop): Promise<StorefrontWebhookSubscription[]> {
    const out: StorefrontWebhookSubscription[] = [];
    let after: string | null = null;
    do {
      const data: WebhookSubscriptionsListData = await this.client.call<WebhookSubscriptionsListData>(
        shop,
        WebhookSubscriptionsList,
        { first: 100, after },
        12,
      );
      out.push(...data.webhookSubscriptions.nodes);
      after = data.webhookSubscriptions.pageInfo.hasNextPage ? data.webhookSubscriptions.pageInfo.endCursor : null;
    } while (after);
    return out;
  }

  async ensureWebhookSubscriptions(shop: StorefrontShop, uri: string, topics: readonly StorefrontWebhookTopic[]) {
    const existing = await this.webhookSubscriptions(shop);
    const wanted = new Set<string>(topics);
    const created: string[] = [];
    const deleted: string[] = [];
    const kept = existing.filter((s) => !wanted.has(s.topic) || s.uri === uri);
    for (const stale of existing.filter((s) => wanted.has(s.topic) && s.uri !== uri)) {
      const data = await this.client.call<WebhookSubscriptionDeleteData>(shop, WebhookSubscriptionDelete, { id: stale.id }, 10);
      const errors = data.webhookSubscriptionDelete.userErrors;
      if (errors.length > 0) throw new StorefrontValidationError(errors.map((e) => `webhookSubscriptionDelete: ${e.message}`));
      deleted.push(stale.id);
    }
    for (const topic of topics) {
      if (kept.some((s) => s.topic === topic && s.uri === uri)) continue;
      const data = await this.client.call<WebhookSubscriptionCreateData>(shop, WebhookSubscriptionCreate, { topic, uri }, 10);
      const { webhookSubscription, userErrors } = data.webhookSubscriptionCreate;
      if (userErrors.length > 0 || !webhookSubscription)
        throw new StorefrontValidationError(userErrors.map((e) => `webhookSubscriptionCreate ${topic}: ${e.message}`));
      kept.push(webhookSubscription);
      created.push(webhookSubscription.id);
    }
    return { subscriptions: kept, created, deleted };
  }
}
