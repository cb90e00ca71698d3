// The operator's register of shops (storefronts where the app is installed), on the connector's `shops` table: the
// admin API registers a shop, lists them, changes a shop's owner or way in, removes one (admin/shop.service.ts, which
// receives this repository from the app). Public to the admin module for its types (.dependency-cruiser.cjs, PUBLIC):
// the table is the connector's (connector.tables.ts), and this is the admin API's only way to it. The connector's own
// SQL for a shop's access (installs, renewals, scopes) is shop-auth.repository.ts.
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { shops } from '../connector.tables.js';

export interface ShopRow {
  id: number;
  domain: string;
  platform: string;
  apiBaseUrl: string | null;
  organizationId: number | null;
  authMethod: string;
  accessTokenExpiresAt: Date | null;
  tokenRenewals: number;
  authStatus: string;
  createdAt: Date;
}

/** A shop's way in, as stored: how the token was obtained, the app's credentials and the tokens (sealed). */
export interface ShopAccess {
  authMethod: 'access_token' | 'client_credentials' | 'authorization_code';
  clientId: string | null;
  clientSecretEncrypted: string | null;
  accessTokenEncrypted: string;
  accessTokenExpiresAt: Date | null;
  refreshTokenEncrypted: string | null;
  refreshTokenExpiresAt: Date | null;
  grantedScopes: string[] | null;
}

const columns = {
  id: shops.id,
  domain: shops.domain,
  platform: shops.platform,
  apiBaseUrl: shops.apiBaseUrl,
  organizationId: shops.organizationId,
  authMethod: shops.authMethod,
  accessTokenExpiresAt: shops.accessTokenExpiresAt,
  tokenRenewals: shops.tokenRenewals,
  authStatus: shops.authStatus,
  createdAt: shops.createdAt,
};

export class ShopRegistryRepository {
  constructor(private readonly db: Db) {}

  /** A new shop; null when the domain is taken (the unique index decides races). */
  async create(input: { domain: string; platform: string; apiBaseUrl: string | null; organizationId: number } & ShopAccess): Promise<ShopRow | null> {
    const rows = await this.db
      .insert(shops)
      .values({ ...input, tokenRenewedAt: sql`now()` })
      .onConflictDoNothing({ target: shops.domain })
      .returning(columns);
    return rows[0] ?? null;
  }

  async find(id: number): Promise<ShopRow | null> {
    const [row] = await this.db.select(columns).from(shops).where(eq(shops.id, id));
    return row ?? null;
  }

  async findByDomain(domain: string): Promise<ShopRow | null> {
    const [row] = await this.db.select(columns).from(shops).where(eq(shops.domain, domain));
    return row ?? null;
  }

  list(): Promise<ShopRow[]> {
    return this.db.select(columns).from(shops).orderBy(asc(shops.id));
  }

  /** A new owner and/or way in; the shop as it is afterwards, null when unknown. */
  async update(id: number, change: { organizationId?: number; access?: ShopAccess }): Promise<ShopRow | null> {
    const rows = await this.db
      .update(shops)
      .set({
        ...(change.organizationId !== undefined && { organizationId: change.organizationId }),
        ...(change.access && { ...change.access, tokenRenewedAt: sql`now()`, authStatus: 'ok', authError: null, renewalOwner: null, renewalUntil: null }),
      })
      .where(eq(shops.id, id))
      .returning(columns);
    return rows[0] ?? null;
  }

  /** Deletes the shop; its integration, tokens, mappings and sync logs go with it (ON DELETE CASCADE). */
  async delete(id: number): Promise<ShopRow | null> {
    const rows = await this.db.delete(shops).where(eq(shops.id, id)).returning(columns);
    return rows[0] ?? null;
  }
}
