// SQL for the sandbox's webhook subscriptions and deliveries (sandbox_webhook_subscriptions, sandbox_webhook_deliveries).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxWebhookDeliveries, sandboxWebhookSubscriptions } from './webhook.tables.js';

export type WebhookSubscriptionRow = typeof sandboxWebhookSubscriptions.$inferSelect;
export type WebhookDeliveryRow = typeof sandboxWebhookDeliveries.$inferSelect;

export class SandboxWebhookRepository {
  constructor(private readonly db: Db) {}

  /** Null when the store has a subscription of this topic at this address already. */
  async insertSubscription(values: {
    storeId: number;
    topic: string;
    uri: string;
    format: string;
    name: string | null;
  }): Promise<WebhookSubscriptionRow | null> {
    const [row] = await this.db.insert(sandboxWebhookSubscriptions).values(values).onConflictDoNothing().returning();
    return row ?? null;
  }

  async subscriptions(storeId: number, filter: { topics?: string[] | null; uri?: string | null }): Promise<WebhookSubscriptionRow[]> {
    return this.db
      .select()
      .from(sandboxWebhookSubscriptions)
      .where(
        and(
          eq(sandboxWebhookSubscriptions.storeId, storeId),
          filter.topics?.length ? inArray(sandboxWebhookSubscriptions.topic, filter.topics) : undefined,
          filter.uri ? eq(sandboxWebhookSubscriptions.uri, filter.uri) : undefined,
        ),
      )
      .orderBy(asc(sandboxWebhookSubscriptions.id));
  }

  async subscription(storeId: number, id: number): Promise<WebhookSubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxWebhookSubscriptions)
      .where(and(eq(sandboxWebhookSubscriptions.storeId, storeId), eq(sandboxWebhookSubscriptions.id, id)));
    return row ?? null;
  }

  async deleteSubscription(storeId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxWebhookSubscriptions)
      .where(and(eq(sandboxWebhookSubscriptions.storeId, storeId), eq(sandboxWebhookSubscriptions.id, id)))
      .returning({ id: sandboxWebhookSubscriptions.id });
    return rows.length > 0;
  }

  async insertDelivery(values: { storeId: number; webhookId: string; eventId: string; topic: string; uri: string; body: string }): Promise<WebhookDeliveryRow> {
    const [row] = await this.db.insert(sandboxWebhookDeliveries).values(values).returning();
    return row;
  }

  async delivery(id: number): Promise<WebhookDeliveryRow | null> {
    const [row] = await this.db.select().from(sandboxWebhookDeliveries).where(eq(sandboxWebhookDeliveries.id, id));
    return row ?? null;
  }

  async deliveries(storeId: number): Promise<WebhookDeliveryRow[]> {
    return this.db.select().from(sandboxWebhookDeliveries).where(eq(sandboxWebhookDeliveries.storeId, storeId)).orderBy(asc(sandboxWebhookDeliveries.id));
  }

  async finishDelivery(id: number, values: { status: 'pending' | 'delivered' | 'failed'; attempts: number; lastError: string | null }): Promise<void> {
    await this.db
      .update(sandboxWebhookDeliveries)
      .set({ ...values, deliveredAt: values.status === 'delivered' ? new Date() : null })
      .where(eq(sandboxWebhookDeliveries.id, id));
  }
}
