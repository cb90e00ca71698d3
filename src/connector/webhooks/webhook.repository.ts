// SQL for Shopify webhook deliveries (webhook_deliveries: de-duplication by X-Shopify-Webhook-Id) and drift events
// (drift_events: a field the bridge owns changed in the shop).
import { and, count, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, shops } from '../connector.tables.js';
import { driftEvents, webhookDeliveries } from '../drift.tables.js';

export interface DriftEventInput {
  integrationId: number;
  pimProductId: number;
  storefrontProductId: number;
  field: string;
  expected: string | null;
  actual: string | null;
  source: string;
  webhookId: string | null;
  detectedAt: Date;
}

/** Deliveries are kept this long (Shopify retries for 4 hours): older rows are removed now and then. */
const KEEP_DAYS = 30;

export class WebhookRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): WebhookRepository {
    return new WebhookRepository(tx);
  }

  /**
   * The shop (by lower-cased domain) with its integration, if it has one, and the sealed secret of the app installed on
   * it (null for a legacy token's shop); null for a shop not installed here.
   */
  async shopByDomain(
    domain: string,
  ): Promise<{ shopId: number; platform: string; integrationId: number | null; isActive: boolean; clientSecretEncrypted: string | null } | null> {
    const [row] = await this.db
      .select({
        shopId: shops.id,
        platform: shops.platform,
        integrationId: integrations.id,
        isActive: integrations.isActive,
        clientSecretEncrypted: shops.clientSecretEncrypted,
      })
      .from(shops)
      .leftJoin(integrations, eq(integrations.shopId, shops.id))
      .where(eq(shops.domain, domain));
    return row
      ? {
          shopId: row.shopId,
          platform: row.platform,
          integrationId: row.integrationId ?? null,
          isActive: row.isActive === true,
          clientSecretEncrypted: row.clientSecretEncrypted,
        }
      : null;
  }

  /** shop/redact: the shop and everything kept of it (integration, tokens, mappings, sync logs, drift) are deleted. */
  async eraseShop(shopId: number): Promise<void> {
    await this.db.delete(shops).where(eq(shops.id, shopId));
  }

  /** The integration's shop's platform, and whether the shop keeps an app secret of its own to verify deliveries with. */
  async platformOf(integrationId: number): Promise<{ platform: string; ownSecret: boolean } | null> {
    const [row] = await this.db
      .select({ platform: shops.platform, secret: shops.clientSecretEncrypted })
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(eq(integrations.id, integrationId));
    return row ? { platform: row.platform, ownSecret: row.secret !== null } : null;
  }

  async seen(webhookId: string): Promise<boolean> {
    const [row] = await this.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
    return row !== undefined;
  }

  /** Records a delivery; false when its id was recorded already (a repeat: do nothing). */
  async record(values: { webhookId: string; shopDomain: string; topic: string; integrationId: number | null; outcome: string; at: Date }): Promise<boolean> {
    const { at, ...rest } = values;
    const rows = await this.db
      .insert(webhookDeliveries)
      .values({ ...rest, receivedAt: at })
      .onConflictDoNothing({ target: webhookDeliveries.webhookId })
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0;
  }

  async prune(now: Date): Promise<void> {
    await this.db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, new Date(now.getTime() - KEEP_DAYS * 86_400_000)));
  }

  async insertDrift(rows: DriftEventInput[]): Promise<void> {
    if (rows.length > 0) await this.db.insert(driftEvents).values(rows);
  }

  /** A page of the integration's drift events, newest first, and how many there are (drift_events_integration_idx). */
  async driftPage(integrationId: number, page: { limit: number; offset: number; pimProductId?: number }) {
    const where = and(
      eq(driftEvents.integrationId, integrationId),
      page.pimProductId === undefined ? undefined : eq(driftEvents.pimProductId, page.pimProductId),
    );
    const [items, [{ total }]] = await Promise.all([
      this.db.select().from(driftEvents).where(where).orderBy(desc(driftEvents.detectedAt), desc(driftEvents.id)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(driftEvents).where(where),
    ]);
    return { items, total: Number(total) };
  }
}
