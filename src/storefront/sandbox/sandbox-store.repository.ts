// SQL for the sandbox's stores (its own table, sandbox_stores, with each store's throttle and fault settings).
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
  /** Throttle and fault settings (null bucket values: the plan's). */
  bucketSize: number | null;
  restoreRate: number | null;
  errorRate: number;
  timeoutRate: number;
  failAfterCommitRate: number;
  latencyMs: number;
  faultSeed: number;
  configVersion: number;
  createdAt: Date;
}

export type SandboxSettings = Pick<SandboxStore, 'bucketSize' | 'restoreRate' | 'errorRate' | 'timeoutRate' | 'failAfterCommitRate' | 'latencyMs' | 'faultSeed'>;

const columns = {
  id: sandboxStores.id,
  domain: sandboxStores.domain,
  name: sandboxStores.name,
  accessTokenHash: sandboxStores.accessTokenHash,
  planName: sandboxStores.planName,
  currencyCode: sandboxStores.currencyCode,
  bucketSize: sandboxStores.bucketSize,
  restoreRate: sandboxStores.restoreRate,
  errorRate: sandboxStores.errorRate,
  timeoutRate: sandboxStores.timeoutRate,
  failAfterCommitRate: sandboxStores.failAfterCommitRate,
  latencyMs: sandboxStores.latencyMs,
  faultSeed: sandboxStores.faultSeed,
  configVersion: sandboxStores.configVersion,
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

  /** Changes throttle and fault settings (and bumps config_version); null when the store does not exist. */
  async configure(domain: string, settings: Partial<SandboxSettings>): Promise<SandboxStore | null> {
    const [row] = await this.db
      .update(sandboxStores)
      .set({ ...settings, configVersion: sql`${sandboxStores.configVersion} + 1` })
      .where(eq(sandboxStores.domain, domain))
      .returning(columns);
    return row ?? null;
  }

  async setPlan(domain: string, planName: string): Promise<boolean> {
    const rows = await this.db.update(sandboxStores).set({ planName }).where(eq(sandboxStores.domain, domain)).returning({ id: sandboxStores.id });
    return rows.length > 0;
  }
}
