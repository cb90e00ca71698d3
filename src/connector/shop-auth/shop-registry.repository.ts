// The operator's register of shops (storefronts where the app is installed), on the connector's `shops` table: the
// admin API registers a shop, lists them, changes a shop's owner or way in, removes one (admin/shop.service.ts, which
// receives this repository from the app). Public to the admin module for its types (.dependency-cruiser.cjs, PUBLIC):
// the table is the connector's (connector.tables.ts), and this is the admin API's only way to it. The connector's own
// SQL for a shop's access (installs, renewals, scopes) is shop-auth.repository.ts.
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { shops } from '../connector.tables.js';
import { grantStored, type ShopAccess, type ShopRow, shopColumns as columns } from './shop-columns.js';

// The admin API takes the row's type from here, its one public file in the connector.
export type { ShopRow };

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
        ...(change.access && { ...change.access, ...grantStored() }),
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
