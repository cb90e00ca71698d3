// SQL for the sandbox's stores (its own table, sandbox_stores; issue 5 adds its product tables beside it).
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { sandboxStores } from '../../db/schema/index.js';

export interface SandboxStore {
  id: number;
  domain: string;
  name: string;
  accessTokenHash: string;
  planName: string;
  currencyCode: string;
  createdAt: Date;
}

const columns = {
  id: sandboxStores.id,
  domain: sandboxStores.domain,
  name: sandboxStores.name,
  accessTokenHash: sandboxStores.accessTokenHash,
  planName: sandboxStores.planName,
  currencyCode: sandboxStores.currencyCode,
  createdAt: sandboxStores.createdAt,
};

export class SandboxStoreRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxStoreRepository {
    return new SandboxStoreRepository(tx);
  }

  /** Creates the store, or gives an existing one a new token (same id, same data). */
  async upsert(values: { domain: string; name: string; accessTokenHash: string; planName?: string }): Promise<SandboxStore> {
    const [row] = await this.db
      .insert(sandboxStores)
      .values(values)
      .onConflictDoUpdate({ target: sandboxStores.domain, set: { accessTokenHash: sql`excluded.access_token_hash` } })
      .returning(columns);
    return row;
  }

  async findByDomain(domain: string): Promise<SandboxStore | null> {
    const [row] = await this.db.select(columns).from(sandboxStores).where(eq(sandboxStores.domain, domain));
    return row ?? null;
  }

  async deleteByDomain(domain: string): Promise<boolean> {
    const rows = await this.db.delete(sandboxStores).where(eq(sandboxStores.domain, domain)).returning({ id: sandboxStores.id });
    return rows.length > 0;
  }

  async setPlan(domain: string, planName: string): Promise<boolean> {
    const rows = await this.db.update(sandboxStores).set({ planName }).where(eq(sandboxStores.domain, domain)).returning({ id: sandboxStores.id });
    return rows.length > 0;
  }
}
