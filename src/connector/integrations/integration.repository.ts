// The only place with SQL for integrations (and the shop lookups the connector needs).
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, shops } from '../connector.tables.js';

export interface IntegrationRow {
  id: number;
  shopId: number;
  shopDomain: string;
  pimBaseUrl: string;
  pimApiKeyEncrypted: string;
  pimApiSecretEncrypted: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SealedConnection {
  pimBaseUrl: string;
  pimApiKeyEncrypted: string;
  pimApiSecretEncrypted: string;
  /** SHA-256 of the PIM API key (which PIM account the integration uses). */
  pimKeyHash: string;
}

/** An integration as the console lists it for a PIM account. */
export interface AccountIntegration {
  id: number;
  shopDomain: string;
  /** `shopify`, or `sandbox` for a shop of the built-in sandbox (no Shopify admin to link to). */
  platform: string;
  isActive: boolean;
  lastSyncAt: Date | null;
  createdAt: Date;
}

const columns = {
  id: integrations.id,
  shopId: integrations.shopId,
  shopDomain: shops.domain,
  pimBaseUrl: integrations.pimBaseUrl,
  pimApiKeyEncrypted: integrations.pimApiKeyEncrypted,
  pimApiSecretEncrypted: integrations.pimApiSecretEncrypted,
  isActive: integrations.isActive,
  createdAt: integrations.createdAt,
  updatedAt: integrations.updatedAt,
};

export class IntegrationRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): IntegrationRepository {
    return new IntegrationRepository(tx);
  }

  /** The integrations whose PIM key is one of `keyHashes` (one PIM account's keys), newest first. */
  async listForPimKeys(keyHashes: string[]): Promise<AccountIntegration[]> {
    if (keyHashes.length === 0) return [];
    return this.db
      .select({
        id: integrations.id,
        shopDomain: shops.domain,
        platform: shops.platform,
        isActive: integrations.isActive,
        lastSyncAt: integrations.lastSyncAt,
        createdAt: integrations.createdAt,
      })
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(inArray(integrations.pimKeyHash, keyHashes))
      .orderBy(desc(integrations.id));
  }

  /** Rows from before pim_key_hash existed: their sealed keys, to be hashed once. */
  async withoutPimKeyHash(): Promise<{ id: number; pimApiKeyEncrypted: string }[]> {
    return this.db
      .select({ id: integrations.id, pimApiKeyEncrypted: integrations.pimApiKeyEncrypted })
      .from(integrations)
      .where(isNull(integrations.pimKeyHash));
  }

  async setPimKeyHash(id: number, pimKeyHash: string): Promise<void> {
    await this.db.update(integrations).set({ pimKeyHash }).where(eq(integrations.id, id));
  }

  async findShopByDomain(domain: string): Promise<{ id: number; domain: string; organizationId: number | null } | null> {
    const [row] = await this.db
      .select({ id: shops.id, domain: shops.domain, organizationId: shops.organizationId })
      .from(shops)
      .where(eq(shops.domain, domain));
    return row ?? null;
  }

  async find(id: number): Promise<IntegrationRow | null> {
    const [row] = await this.db.select(columns).from(integrations).innerJoin(shops, eq(shops.id, integrations.shopId)).where(eq(integrations.id, id));
    return row ?? null;
  }

  async findByShop(shopId: number): Promise<IntegrationRow | null> {
    const [row] = await this.db.select(columns).from(integrations).innerJoin(shops, eq(shops.id, integrations.shopId)).where(eq(integrations.shopId, shopId));
    return row ?? null;
  }

  /** Locks the integration row until the transaction ends (update, disconnect, reactivation). */
  async lock(id: number): Promise<IntegrationRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(eq(integrations.id, id))
      .for('update', { of: integrations });
    return row ?? null;
  }

  /** A new active integration; null when the shop already has one (the unique index decided a race). */
  async insert(shopId: number, connection: SealedConnection): Promise<{ id: number; createdAt: Date } | null> {
    const rows = await this.db
      .insert(integrations)
      .values({ shopId, ...connection, isActive: true })
      .onConflictDoNothing({ target: integrations.shopId })
      .returning({ id: integrations.id, createdAt: integrations.createdAt });
    return rows[0] ?? null;
  }

  /** Reactivates an inactive integration with new connection data; null when it is not (or no longer) inactive. */
  async reactivate(id: number, connection: SealedConnection): Promise<{ id: number; createdAt: Date } | null> {
    const rows = await this.db
      .update(integrations)
      .set({ ...connection, isActive: true, updatedAt: sql`now()` })
      .where(and(eq(integrations.id, id), eq(integrations.isActive, false)))
      .returning({ id: integrations.id, createdAt: integrations.createdAt });
    return rows[0] ?? null;
  }

  async updateConnection(id: number, connection: SealedConnection): Promise<Date> {
    const [row] = await this.db
      .update(integrations)
      .set({ ...connection, updatedAt: sql`now()` })
      .where(eq(integrations.id, id))
      .returning({ updatedAt: integrations.updatedAt });
    return row.updatedAt;
  }

  /** Marks the integration inactive; returns when, or null when it was not active. */
  async deactivate(id: number): Promise<Date | null> {
    const rows = await this.db
      .update(integrations)
      .set({ isActive: false, updatedAt: sql`now()` })
      .where(and(eq(integrations.id, id), eq(integrations.isActive, true)))
      .returning({ updatedAt: integrations.updatedAt });
    return rows[0]?.updatedAt ?? null;
  }

  /** The integration's bridge settings as stored (integration-settings.ts parses them). */
  async settings(id: number): Promise<unknown> {
    const [row] = await this.db.select({ settings: integrations.settings }).from(integrations).where(eq(integrations.id, id));
    return row?.settings ?? null;
  }

  async saveSettings(id: number, settings: object): Promise<void> {
    await this.db.update(integrations).set({ settings, updatedAt: sql`now()` }).where(eq(integrations.id, id));
  }

  /**
   * The integration's missing locales (GET /api/status, `translations.missing_locales`) after one product's push: the
   * product's PIM locales (`checked`) leave the set unless the push found the shop lacking them (`missing`), which join
   * it. So the set is what the latest push of each locale found, and a locale leaves it once a push finds it enabled.
   * One statement; it writes only when the set changes.
   */
  async noteMissingLocales(integrationId: number, checked: string[], missing: string[]): Promise<void> {
    if (checked.length === 0 && missing.length === 0) return;
    await this.db.execute(sql`
      UPDATE integrations i SET missing_locales = n.locales
      FROM (
        SELECT coalesce(jsonb_agg(l ORDER BY l), '[]'::jsonb) AS locales FROM (
          SELECT e AS l FROM integrations x, jsonb_array_elements_text(x.missing_locales) e
          WHERE x.id = ${integrationId} AND NOT (${JSON.stringify(checked)}::jsonb ? e)
          UNION
          SELECT jsonb_array_elements_text(${JSON.stringify(missing)}::jsonb)
        ) s
      ) n
      WHERE i.id = ${integrationId} AND i.missing_locales IS DISTINCT FROM n.locales`);
  }
}
