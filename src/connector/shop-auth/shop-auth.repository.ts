// The only place with SQL for a shop's access: its owner, how its token was obtained, the sealed tokens and their
// expiry, the renewal lease, and the scopes it granted; and the installs in progress (shop_installs). (The operator's
// register of shops, the admin API's way to this table, is shop-registry.repository.ts; the row both read, shop-columns.ts.)
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { integrations, shopInstalls, shops } from '../connector.tables.js';
import { type AuthMethod, grantStored, type SealedGrant, type ShopAuthRow, shopAuthColumns as columns } from './shop-columns.js';

export class ShopAuthRepository {
  constructor(private readonly db: Db) {}

  async find(shopId: number): Promise<ShopAuthRow | null> {
    const [row] = await this.db.select(columns).from(shops).where(eq(shops.id, shopId));
    return row ?? null;
  }

  async findByDomain(domain: string): Promise<ShopAuthRow | null> {
    const [row] = await this.db.select(columns).from(shops).where(eq(shops.domain, domain));
    return row ?? null;
  }

  async findByIntegration(integrationId: number): Promise<ShopAuthRow | null> {
    const [row] = await this.db
      .select(columns)
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(eq(integrations.id, integrationId));
    return row ?? null;
  }

  /** A new shop with its first grant; null when the domain is taken (the unique index decides races). */
  async create(input: {
    domain: string;
    platform: string;
    apiBaseUrl: string | null;
    organizationId: number;
    authMethod: AuthMethod;
    clientId: string | null;
    clientSecretEncrypted: string | null;
    grant: SealedGrant;
  }): Promise<ShopAuthRow | null> {
    const { grant, ...rest } = input;
    const rows = await this.db
      .insert(shops)
      .values({ ...rest, ...grant, tokenRenewedAt: sql`now()` })
      .onConflictDoNothing({ target: shops.domain })
      .returning(columns);
    return rows[0] ?? null;
  }

  /** A new way in for an existing shop (an install again, new app credentials): the grant replaces the old, status ok. */
  async replaceAccess(
    shopId: number,
    input: { authMethod: AuthMethod; clientId: string | null; clientSecretEncrypted: string | null; apiBaseUrl: string | null; grant: SealedGrant },
  ): Promise<void> {
    const { grant, ...rest } = input;
    await this.db
      .update(shops)
      .set({ ...rest, ...grant, ...grantStored() })
      .where(eq(shops.id, shopId));
  }

  /** Takes the shop's renewal lease for `owner` (none held, or the holder's ran out); the row under it, or null. */
  async acquireRenewal(shopId: number, owner: string, ttlMs: number): Promise<ShopAuthRow | null> {
    const rows = await this.db
      .update(shops)
      .set({ renewalOwner: owner, renewalUntil: sql`now() + ${`${ttlMs} milliseconds`}::interval` })
      .where(and(eq(shops.id, shopId), or(isNull(shops.renewalUntil), lt(shops.renewalUntil, sql`now()`))))
      .returning(columns);
    return rows[0] ?? null;
  }

  /** The renewed grant, stored while the lease is held (and released with it); false when the lease was lost. */
  async saveRenewal(shopId: number, owner: string, grant: SealedGrant): Promise<boolean> {
    const rows = await this.db
      .update(shops)
      .set({
        ...grant,
        grantedScopes: grant.grantedScopes ?? sql`${shops.grantedScopes}`,
        ...grantStored(),
        tokenRenewals: sql`${shops.tokenRenewals} + 1`,
      })
      .where(and(eq(shops.id, shopId), eq(shops.renewalOwner, owner)))
      .returning({ id: shops.id });
    return rows.length > 0;
  }

  async releaseRenewal(shopId: number, owner: string): Promise<void> {
    await this.db
      .update(shops)
      .set({ renewalOwner: null, renewalUntil: null })
      .where(and(eq(shops.id, shopId), eq(shops.renewalOwner, owner)));
  }

  /**
   * A renewal failed for good: the merchant must install or register again. Releases the lease, and drops the stored
   * connectivity check of the shop's integration (it said the shop answered), so the next status checks again.
   */
  async markReauthorizationRequired(shopId: number, error: string): Promise<void> {
    await this.db
      .update(shops)
      .set({ authStatus: 'reauthorization_required', authError: error.slice(0, 1000), renewalOwner: null, renewalUntil: null })
      .where(eq(shops.id, shopId));
    await this.db.update(integrations).set({ checkedAt: null }).where(eq(integrations.shopId, shopId));
  }

  async saveGrantedScopes(shopId: number, scopes: string[]): Promise<void> {
    await this.db.update(shops).set({ grantedScopes: scopes }).where(eq(shops.id, shopId));
  }

  async setOwner(shopId: number, organizationId: number): Promise<void> {
    await this.db.update(shops).set({ organizationId }).where(eq(shops.id, shopId));
  }

  // Installs in progress.

  async createInstall(input: { stateHash: string; browserHash: string; organizationId: number; domain: string; expiresAt: Date }): Promise<void> {
    await this.db.insert(shopInstalls).values(input);
    // Installs nobody finished are of no use once expired.
    await this.db.delete(shopInstalls).where(lt(shopInstalls.expiresAt, sql`now() - interval '1 hour'`));
  }

  /** Takes (deletes) the live install of this state: single use. */
  async takeInstall(stateHash: string): Promise<{ browserHash: string; organizationId: number; domain: string } | null> {
    const rows = await this.db
      .delete(shopInstalls)
      .where(and(eq(shopInstalls.stateHash, stateHash), gt(shopInstalls.expiresAt, sql`now()`)))
      .returning({ browserHash: shopInstalls.browserHash, organizationId: shopInstalls.organizationId, domain: shopInstalls.domain });
    return rows[0] ?? null;
  }
}
