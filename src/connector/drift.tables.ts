// What the shop changed behind the bridge's back: the webhook deliveries acted on, the drift they found, and the drift
// reports that compare the whole shop with what the bridge last wrote.
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { integrations } from './connector.tables.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Shopify webhook deliveries the bridge acted on (connector/webhooks/), one row per X-Shopify-Webhook-Id: a delivery
 * whose id is here already is answered 200 and not acted on again. Rows older than 30 days are removed by later
 * deliveries (Shopify retries for 4 hours).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    /** X-Shopify-Webhook-Id. */
    webhookId: text('webhook_id').notNull(),
    shopDomain: text('shop_domain').notNull(),
    /** X-Shopify-Topic, e.g. `products/delete`. */
    topic: text('topic').notNull(),
    /** The active integration of the shop when it arrived; null: none (the delivery was acknowledged and ignored). */
    integrationId: integer('integration_id').references(() => integrations.id, { onDelete: 'cascade' }),
    /** What it did: `mapping_deleted`, `drift`, `no_drift`, `deactivated`, `ignored`, … */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_deliveries_webhook_id_uq').on(t.webhookId), index('webhook_deliveries_received_idx').on(t.receivedAt)],
);

/**
 * Drift: a field the bridge owns changed in the shop (a products/update webhook whose values differ from what the last
 * push wrote). One row per field and delivery; read by the drift report (docs/sync.md, "Webhooks").
 */
export const driftEvents = pgTable(
  'drift_events',
  {
    id: serial('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    pimProductId: integer('pim_product_id').notNull(),
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }).notNull(),
    /** `title`, `handle`, `variant_skus`. */
    field: text('field').notNull(),
    /** What the last push wrote, and what the shop has now (JSON text for lists). */
    expected: text('expected'),
    actual: text('actual'),
    /** `webhook:products/update`. */
    source: text('source').notNull(),
    webhookId: text('webhook_id'),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('drift_events_integration_idx').on(t.integrationId, t.detectedAt)],
);

/**
 * A drift report (POST /api/drift): the shop read with one bulk query and compared with what the bridge last wrote
 * (each mapping's storefront_state.written). Its id is the id of its `catalogue.drift` job; the bulk query is recorded
 * before it is waited on, so a restarted job follows it. The items are in drift_report_items.
 */
export const driftReports = pgTable(
  'drift_reports',
  {
    id: uuid('id').primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** `queued`, `running`, `completed` or `failed`. */
    state: text('state').notNull().default('queued'),
    /** The storefront's bulk query (GID), once started. */
    operationId: text('operation_id'),
    /** Counts once completed: {mapped, compared, not_compared, shop_products, changed, missing_in_shop, orphan_in_shop}. */
    counts: jsonb('counts'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [index('drift_reports_integration_idx').on(t.integrationId, t.createdAt)],
);

/** One product of a drift report: changed in the shop, gone from the shop, or in the shop only (ours, unmapped). */
export const driftReportItems = pgTable(
  'drift_report_items',
  {
    reportId: uuid('report_id')
      .notNull()
      .references(() => driftReports.id, { onDelete: 'cascade' }),
    /** Order in the report (by kind, then PIM / storefront id). */
    seq: integer('seq').notNull(),
    /** `changed`, `missing_in_shop` or `orphan_in_shop`. */
    kind: text('kind').notNull(),
    pimProductId: integer('pim_product_id'),
    storefrontProductId: bigint('storefront_product_id', { mode: 'number' }),
    handle: text('handle'),
    title: text('title'),
    /** For `changed`: [{field, storefront, written}]. */
    fields: jsonb('fields'),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.seq] }), index('drift_report_items_kind_idx').on(t.reportId, t.kind, t.seq)],
);
