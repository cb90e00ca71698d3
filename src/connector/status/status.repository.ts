// Every read the status endpoints make, and the one write: storing the latest live checks on the integration.
import { and, count, desc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { connectorTokens, integrations, shops } from '../connector.tables.js';
import { productMappings } from '../mapping.tables.js';
import { syncLogs } from '../sync.tables.js';

export interface IntegrationState {
  id: number;
  shopDomain: string;
  pimBaseUrl: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
  lastSyncAt: Date | null;
  /** The stored last checks (the spec's pim_status / storefront_status objects), null before the first check. */
  pimStatus: unknown;
  storefrontStatus: unknown;
  checkedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** The bridge settings as stored (connector/integrations/integration-settings.ts). */
  settings: unknown;
  /** PIM locales recent pushes found the shop lacking (IntegrationRepository.noteMissingLocales). */
  missingLocales: string[];
}

/** What a live check needs: sealed secrets, opened by the caller; and the stored checks, re-read just before calling out. */
export interface CheckTarget extends Pick<IntegrationState, 'pimStatus' | 'storefrontStatus' | 'checkedAt' | 'updatedAt'> {
  pimBaseUrl: string;
  pimApiKeyEncrypted: string;
  pimApiSecretEncrypted: string;
  shopDomain: string;
  shopApiBaseUrl: string | null;
  shopAccessTokenEncrypted: string;
}

export interface SyncLogRow {
  id: number;
  operation: string;
  status: string;
  recordsProcessed: number;
  recordsFailed: number;
  startedAt: Date;
  completedAt: Date | null;
  error: string | null;
}

/** A sync log as the status views show it. */
const SYNC_LOG = {
  id: syncLogs.id,
  operation: syncLogs.operation,
  status: syncLogs.status,
  recordsProcessed: syncLogs.recordsProcessed,
  recordsFailed: syncLogs.recordsFailed,
  startedAt: syncLogs.startedAt,
  completedAt: syncLogs.completedAt,
  error: syncLogs.error,
};

export interface SyncCounts {
  total: number;
  successful: number;
  failed: number;
}

export interface StoredCheck {
  pimStatus: object;
  storefrontStatus: object;
  checkedAt: Date;
  /** Set when either check failed; goes to last_error / last_error_at. */
  error: string | null;
}

/** Sync log statuses counted as failed: `error`, and `partial` (some records failed). */
export const FAILED_SYNC_STATUSES = ['error', 'partial'];

export class StatusRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): StatusRepository {
    return new StatusRepository(tx);
  }

  /** A real round trip to the database: true when it answers. */
  async ping(): Promise<boolean> {
    try {
      await this.db.execute(sql`select 1`);
      return true;
    } catch {
      return false;
    }
  }

  async integration(id: number): Promise<IntegrationState | null> {
    const [row] = await this.db
      .select({
        id: integrations.id,
        shopDomain: shops.domain,
        pimBaseUrl: integrations.pimBaseUrl,
        isActive: integrations.isActive,
        createdAt: integrations.createdAt,
        updatedAt: integrations.updatedAt,
        lastSyncAt: integrations.lastSyncAt,
        pimStatus: integrations.pimStatus,
        storefrontStatus: integrations.storefrontStatus,
        checkedAt: integrations.checkedAt,
        lastError: integrations.lastError,
        lastErrorAt: integrations.lastErrorAt,
        settings: integrations.settings,
        missingLocales: integrations.missingLocales,
      })
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(eq(integrations.id, id));
    return row ?? null;
  }

  async checkTarget(id: number): Promise<CheckTarget | null> {
    const [row] = await this.db
      .select({
        pimBaseUrl: integrations.pimBaseUrl,
        pimApiKeyEncrypted: integrations.pimApiKeyEncrypted,
        pimApiSecretEncrypted: integrations.pimApiSecretEncrypted,
        shopDomain: shops.domain,
        shopApiBaseUrl: shops.apiBaseUrl,
        shopAccessTokenEncrypted: shops.accessTokenEncrypted,
        pimStatus: integrations.pimStatus,
        storefrontStatus: integrations.storefrontStatus,
        checkedAt: integrations.checkedAt,
        updatedAt: integrations.updatedAt,
      })
      .from(integrations)
      .innerJoin(shops, eq(shops.id, integrations.shopId))
      .where(eq(integrations.id, id));
    return row ?? null;
  }

  async saveCheck(id: number, check: StoredCheck): Promise<void> {
    await this.db
      .update(integrations)
      .set({
        pimStatus: check.pimStatus,
        storefrontStatus: check.storefrontStatus,
        checkedAt: check.checkedAt,
        ...(check.error === null ? {} : { lastError: check.error, lastErrorAt: check.checkedAt }),
      })
      .where(eq(integrations.id, id));
  }

  /** Mapping counts by sync_status. */
  async mappingCounts(integrationId: number): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ status: productMappings.syncStatus, n: sql<number>`count(*)::int` })
      .from(productMappings)
      .where(eq(productMappings.integrationId, integrationId))
      .groupBy(productMappings.syncStatus);
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  recentSyncs(integrationId: number, limit: number): Promise<SyncLogRow[]> {
    return this.db
      .select(SYNC_LOG)
      .from(syncLogs)
      .where(eq(syncLogs.integrationId, integrationId))
      .orderBy(desc(syncLogs.startedAt), desc(syncLogs.id))
      .limit(limit);
  }

  /** The syncs started in the last `hours`, newest first (sync_logs_integration_started_idx), with their errors. */
  syncLogsSince(integrationId: number, hours: number, limit: number): Promise<SyncLogRow[]> {
    return this.db
      .select(SYNC_LOG)
      .from(syncLogs)
      .where(and(eq(syncLogs.integrationId, integrationId), gte(syncLogs.startedAt, sql`now() - make_interval(hours => ${hours}::int)`)))
      .orderBy(desc(syncLogs.startedAt), desc(syncLogs.id))
      .limit(limit);
  }

  /** Syncs started since `since`, for one integration or (null) all of them. */
  async syncCounts(integrationId: number | null, since: Date): Promise<SyncCounts> {
    const [row] = await this.db
      .select({
        total: sql<number>`count(*)::int`,
        successful: sql<number>`(count(*) filter (where ${syncLogs.status} = 'success'))::int`,
        failed: sql<number>`(count(*) filter (where ${inArray(syncLogs.status, FAILED_SYNC_STATUSES)}))::int`,
      })
      .from(syncLogs)
      .where(and(gte(syncLogs.startedAt, since), integrationId === null ? undefined : eq(syncLogs.integrationId, integrationId)));
    return { total: Number(row.total), successful: Number(row.successful), failed: Number(row.failed) };
  }

  /** The latest sync that ended in `error` and what it said. */
  async latestFailedSync(integrationId: number): Promise<{ error: string; at: Date } | null> {
    const [row] = await this.db
      .select({ error: syncLogs.error, operation: syncLogs.operation, startedAt: syncLogs.startedAt, completedAt: syncLogs.completedAt })
      .from(syncLogs)
      .where(and(eq(syncLogs.integrationId, integrationId), eq(syncLogs.status, 'error')))
      .orderBy(desc(sql`coalesce(${syncLogs.completedAt}, ${syncLogs.startedAt})`), desc(syncLogs.id))
      .limit(1);
    if (!row) return null;
    return { error: row.error ?? `${row.operation} failed`, at: row.completedAt ?? row.startedAt };
  }

  async activeTokenCount(integrationId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(connectorTokens)
      .where(and(eq(connectorTokens.integrationId, integrationId), isNull(connectorTokens.revokedAt)));
    return Number(row.n);
  }

  /** Sync logs still `running`, for one integration or (null) all. */
  async runningSyncCount(integrationId: number | null): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(syncLogs)
      .where(and(eq(syncLogs.status, 'running'), integrationId === null ? undefined : eq(syncLogs.integrationId, integrationId)));
    return Number(row.n);
  }

  async integrationCounts(): Promise<{ total: number; active: number }> {
    const [row] = await this.db
      .select({ total: sql<number>`count(*)::int`, active: sql<number>`(count(*) filter (where ${integrations.isActive}))::int` })
      .from(integrations);
    return { total: Number(row.total), active: Number(row.active) };
  }
}
