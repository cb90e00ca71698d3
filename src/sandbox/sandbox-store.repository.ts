// SQL for the sandbox's stores (its own table, sandbox_stores, with each store's throttle and fault settings).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxLocations, sandboxStores } from './store.tables.js';

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
  /** VARIANT_THROTTLE_EXCEEDED once the store holds this many variants (null: never). */
  variantThrottleLimit: number | null;
  configVersion: number;
  createdAt: Date;
  /** The store's own app (docs/sandbox/oauth.md): client id, client secret (kept as is: the store signs with it), name. */
  clientId: string;
  clientSecret: string;
  appName: string;
  /** The app's configured scopes; null: every scope. */
  appScopes: string[] | null;
  /** Scopes taken from every token of the store and from future grants. */
  revokedScopes: string[];
  /** Allowed redirection URLs; null: `{PUBLIC_URL}/shopify/callback`. */
  redirectUrls: string[] | null;
  tokenLifetimeSeconds: number | null;
  refreshTokenLifetimeSeconds: number | null;
  allowHttpWebhooks: boolean;
  complianceUrl: string | null;
  /** The media downloader may fetch loopback and private addresses too (tests); default public addresses only. */
  allowPrivateMediaSources: boolean;
}

export type SandboxSettings = Pick<
  SandboxStore,
  'bucketSize' | 'restoreRate' | 'errorRate' | 'timeoutRate' | 'failAfterCommitRate' | 'latencyMs' | 'faultSeed' | 'variantThrottleLimit'
>;

/**
 * The app's settings (docs/sandbox/oauth.md) and where the store fetches media from (docs/sandbox/media.md); changing
 * them leaves the cost bucket and the fault sequence as they are.
 */
export type SandboxAppSettings = Pick<
  SandboxStore,
  | 'appScopes'
  | 'revokedScopes'
  | 'redirectUrls'
  | 'tokenLifetimeSeconds'
  | 'refreshTokenLifetimeSeconds'
  | 'allowHttpWebhooks'
  | 'complianceUrl'
  | 'allowPrivateMediaSources'
>;

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
  variantThrottleLimit: sandboxStores.variantThrottleLimit,
  configVersion: sandboxStores.configVersion,
  createdAt: sandboxStores.createdAt,
  clientId: sandboxStores.clientId,
  clientSecret: sandboxStores.clientSecret,
  appName: sandboxStores.appName,
  appScopes: sandboxStores.appScopes,
  revokedScopes: sandboxStores.revokedScopes,
  redirectUrls: sandboxStores.redirectUrls,
  tokenLifetimeSeconds: sandboxStores.tokenLifetimeSeconds,
  refreshTokenLifetimeSeconds: sandboxStores.refreshTokenLifetimeSeconds,
  allowHttpWebhooks: sandboxStores.allowHttpWebhooks,
  complianceUrl: sandboxStores.complianceUrl,
  allowPrivateMediaSources: sandboxStores.allowPrivateMediaSources,
};

export class SandboxStoreRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxStoreRepository {
    return new SandboxStoreRepository(tx);
  }

  /** Creates the store, or gives an existing one a new token (same id, same data, same app). */
  async upsert(values: {
    domain: string;
    name: string;
    accessTokenHash: string;
    clientId: string;
    clientSecret: string;
    planName?: string;
  }): Promise<SandboxStore> {
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

  /**
   * Changes throttle and fault settings (and bumps config_version, when any is given) and the app's settings; null when
   * the store does not exist.
   */
  async configure(domain: string, settings: Partial<SandboxSettings>, app: Partial<SandboxAppSettings> = {}): Promise<SandboxStore | null> {
    // Only the app's settings: the bucket and the fault sequence go on as they were.
    const appOnly = Object.keys(settings).length === 0 && Object.keys(app).length > 0;
    const bump = appOnly ? {} : { configVersion: sql`${sandboxStores.configVersion} + 1` };
    const [row] = await this.db
      .update(sandboxStores)
      .set({ ...settings, ...app, ...bump })
      .where(eq(sandboxStores.domain, domain))
      .returning(columns);
    return row ?? null;
  }

  /**
   * Adds the named locations the store lacks (the first store location, "Shop location", is made on first use); true
   * when it added any. Under the lock the product service takes to make the first location, so that neither it nor two
   * calls at once add a location twice.
   */
  async addLocations(storeId: number, names: string[]): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sandbox-location:${storeId}`}))`);
      const rows = await tx.select({ name: sandboxLocations.name }).from(sandboxLocations).where(eq(sandboxLocations.storeId, storeId));
      const have = new Set(rows.map((l) => l.name.toLowerCase()));
      const fresh: string[] = have.size === 0 ? ['Shop location'] : [];
      for (const name of names.map((n) => n.trim())) {
        if (name && !have.has(name.toLowerCase()) && !fresh.some((f) => f.toLowerCase() === name.toLowerCase())) fresh.push(name);
      }
      if (fresh.length) await tx.insert(sandboxLocations).values(fresh.map((name) => ({ storeId, name })));
      return fresh.length > 0;
    });
  }

  async locations(storeId: number): Promise<{ id: number; name: string }[]> {
    return this.db
      .select({ id: sandboxLocations.id, name: sandboxLocations.name })
      .from(sandboxLocations)
      .where(eq(sandboxLocations.storeId, storeId))
      .orderBy(asc(sandboxLocations.id));
  }

  async setPlan(domain: string, planName: string): Promise<boolean> {
    const rows = await this.db.update(sandboxStores).set({ planName }).where(eq(sandboxStores.domain, domain)).returning({ id: sandboxStores.id });
    return rows.length > 0;
  }
}
