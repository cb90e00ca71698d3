// A sandbox store's webhook subscriptions and the deliveries it sent or is retrying.
import { bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { storeId } from './store.tables.js';

const ts = (name: string) => timestamp(name, { withTimezone: true }).notNull().defaultNow();

/** A store's webhook subscriptions (webhookSubscriptionCreate / webhookSubscriptions / webhookSubscriptionDelete). */
export const sandboxWebhookSubscriptions = pgTable(
  'sandbox_webhook_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** WebhookSubscriptionTopic, e.g. PRODUCTS_UPDATE. */
    topic: text('topic').notNull(),
    uri: text('uri').notNull(),
    /** WebhookSubscriptionFormat: JSON (XML is refused). */
    format: text('format').notNull().default('JSON'),
    name: text('name'),
    createdAt: ts('created_at'),
    updatedAt: ts('updated_at'),
  },
  (t) => [uniqueIndex('sandbox_webhook_subscriptions_topic_uri_uq').on(t.storeId, t.topic, t.uri)],
);

/** Each webhook the store sent or is retrying: its id (X-Shopify-Webhook-Id), body as signed, and its attempts. */
export const sandboxWebhookDeliveries = pgTable(
  'sandbox_webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    storeId: storeId(),
    /** X-Shopify-Webhook-Id (a UUID); the same on every retry of this delivery. */
    webhookId: text('webhook_id').notNull(),
    /** X-Shopify-Event-Id: the event, shared by its deliveries to every subscription. */
    eventId: text('event_id').notNull(),
    topic: text('topic').notNull(),
    uri: text('uri').notNull(),
    body: text('body').notNull(),
    /** `pending` (an attempt is due), `delivered`, `failed` (no retry left). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    triggeredAt: ts('triggered_at'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sandbox_webhook_deliveries_webhook_id_uq').on(t.webhookId), index('sandbox_webhook_deliveries_store_idx').on(t.storeId, t.id)],
);
