// The storefront events the bridge subscribes to, and the subscriptions' calls.
import type { StorefrontShop } from './shop.js';

/** The storefront events the bridge subscribes to (Shopify: WebhookSubscriptionTopic). */
export const STOREFRONT_WEBHOOK_TOPICS = ['PRODUCTS_UPDATE', 'PRODUCTS_DELETE', 'INVENTORY_LEVELS_UPDATE', 'APP_UNINSTALLED'] as const;
export type StorefrontWebhookTopic = (typeof STOREFRONT_WEBHOOK_TOPICS)[number];

/** One webhook subscription of the app on the shop. */
export interface StorefrontWebhookSubscription {
  /** Shopify GID. */
  id: string;
  topic: string;
  uri: string;
}

/**
 * The shop's webhook subscriptions (Shopify: webhookSubscriptions, webhookSubscriptionCreate, webhookSubscriptionDelete).
 * Kept apart from StorefrontPort: only the connector's webhook setup needs it.
 */
export interface StorefrontWebhooks {
  /** Every subscription the app has on the shop. Throws StorefrontError. */
  webhookSubscriptions(shop: StorefrontShop): Promise<StorefrontWebhookSubscription[]>;
  /**
   * Idempotently subscribes the shop to `topics` at `uri`: lists the subscriptions first, creates the missing ones and
   * deletes those of these topics at another address (e.g. an old PUBLIC_URL). Throws StorefrontError, or
   * StorefrontValidationError with the shop's userErrors.
   */
  ensureWebhookSubscriptions(
    shop: StorefrontShop,
    uri: string,
    topics: readonly StorefrontWebhookTopic[],
  ): Promise<{ subscriptions: StorefrontWebhookSubscription[]; created: string[]; deleted: string[] }>;
}
