// The only place with SQL for shops (storefronts where the app is installed).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { shops } from '../db/schema/index.js';

export interface ShopRow {
  id: number;
  domain: string;
  platform: string;
  apiBaseUrl: string | null;
  createdAt: Date;
}

const columns = { id: shops.id, domain: shops.domain, platform: shops.platform, apiBaseUrl: shops.apiBaseUrl, createdAt: shops.createdAt };

export class ShopRepository {
  constructor(private readonly db: Db) {}

  /** A new shop; null when the domain is taken (the unique index decides races). */
  async create(input: { domain: string; platform: string; apiBaseUrl: string | null; accessTokenEncrypted: string }): Promise<ShopRow | null> {
    const rows = await this.db.insert(shops).values(input).onConflictDoNothing({ target: shops.domain }).returning(columns);
    return rows[0] ?? null;
  }

  async findByDomain(domain: string): Promise<ShopRow | null> {
    const [row] = await this.db.select(columns).from(shops).where(eq(shops.domain, domain));
    return row ?? null;
  }

  list(): Promise<ShopRow[]> {
    return this.db.select(columns).from(shops).orderBy(asc(shops.id));
  }

  /** Deletes the shop; its integration, tokens, mappings and sync logs go with it (ON DELETE CASCADE). */
  async delete(id: number): Promise<ShopRow | null> {
    const rows = await this.db.delete(shops).where(eq(shops.id, id)).returning(columns);
    return rows[0] ?? null;
  }
}
