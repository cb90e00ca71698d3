// The three status views: the caller's own integration (live checks, cached), the public per-integration view (stored
// state only: never an outbound call) and the system status.
import { DEFAULT_CHANNEL_PUBLICATIONS, parseSettings, PIM_CHANNELS, type IntegrationSettings } from '../integrations/integration-settings.js';
import { ConnectorError } from '../connector.errors.js';
import { iso8601, ymdHis } from '../timestamps.js';
import type { AccessView } from '../shop-auth/shop-access.service.js';
import type { Db } from '../../db/client.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { StorefrontPort } from '../../storefront/storefront.port.js';
import { ConnectivityChecker, storedChecks, systemClock, type Clock, type PimProbe, type PimStatus, type StorefrontStatus } from './connectivity.js';
import { healthScore, type CheckState, type HealthScore } from './health-score.js';
import { InlineQueueStats, type QueueStats, type QueueStatsSource } from './queue-stats.js';
import { StatusRepository, type IntegrationState, type SyncLogRow } from './status.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const RECENT_SYNCS = 10;
/** Always present in product_mapping_stats, 0 when there are none. */
const MAPPING_STATUSES = ['synced', 'pending', 'error'] as const;
const MAX_INT4 = 2_147_483_647;

export interface RecentSync {
  id: number;
  operation: string;
  status: string;
  records_processed: number;
  records_failed: number;
  duration: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface OwnStatus {
  integration_id: number;
  shop_domain: string;
  pim_base_url: string;
  status: 'active' | 'inactive';
  is_active: boolean;
  created_at: string | null;
  last_sync_at: string | null;
  updated_at: string | null;
  product_mapping_stats: Record<string, number>;
  recent_syncs: RecentSync[];
  pim_status: PimStatus;
  storefront_status: StorefrontStatus;
  active_tokens: number;
  queue_stats: QueueStats;
  health_score: HealthScore;
  /**
   * Beyond the spec: where each PIM channel is published, from the stored settings (no live call): publication ids
   * mapped explicitly, or the default publication's title (`Online Store`, `Shop`); [] = published nowhere.
   */
  channel_mapping: Record<string, { source: 'default' | 'custom'; publications: string[] }>;
  /**
   * Beyond the spec: the PIM translation locales the shop has not enabled, as recent pushes found them (a locale leaves
   * the list once a push finds it enabled); nothing is registered for them, and no product fails for them.
   */
  translations: { missing_locales: string[] };
  /**
   * Beyond the spec: how the shop is connected (legacy token, client credentials, install), whether it needs
   * reauthorization, when its token expires, and the scopes it granted and lacks (connector/shop-auth).
   */
  storefront_access: AccessView | null;
}

export interface PublicStatus {
  integration_id: number;
  shop_domain: string;
  is_active: boolean;
  is_connected: boolean;
  last_error: string | null;
  created_at: string | null;
  last_sync_at: string | null;
  sync_stats: {
    last_24h: { total_syncs: number; successful_syncs: number; failed_syncs: number };
    product_mappings: { total: number; synced: number; pending: number; failed: number };
  };
  queue_stats: QueueStats;
  health_score: HealthScore;
}

export interface SystemStatus {
  status: 'operational' | 'degraded';
  timestamp: string | null;
  stats: {
    total_integrations: number;
    active_integrations: number;
    recent_syncs: { total_syncs_24h: number; successful_syncs_24h: number; failed_syncs_24h: number };
    system_health: { database: 'healthy' | 'unhealthy'; php_version: string; memory_usage: string; memory_peak: string };
  };
}

/** Thrown by publicStatus for an unknown (or non-integer) id; the route answers the spec's raw 404. */
export class IntegrationNotFound extends Error {}

export interface StatusServiceDeps {
  repository: StatusRepository;
  connectivity: ConnectivityChecker;
  queue: QueueStatsSource;
  /** A real query against the database (Database.ping). */
  ping: () => Promise<boolean>;
  /** How the integration's shop is connected (stored state, no live call). */
  access?: (integrationId: number) => Promise<AccessView | null>;
  clock?: Clock;
}

/** `1536000` → `1.5 MB`; binary units, one decimal. */
export function humanBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Seconds between start and end (now for a running sync), two decimals and an `s`. */
export function syncDuration(startedAt: Date, completedAt: Date | null, now: Date): string {
  const ms = Math.max(0, (completedAt ?? now).getTime() - startedAt.getTime());
  return `${(ms / 1000).toFixed(2)}s`;
}

/** The channel mapping as stored: explicit publication ids, else the default publication's title. */
function channelMappingOf(settings: IntegrationSettings): OwnStatus['channel_mapping'] {
  return Object.fromEntries(
    PIM_CHANNELS.map((c) => {
      const explicit = settings.channels?.[c];
      if (explicit) return [c, { source: 'custom' as const, publications: explicit }];
      const title = DEFAULT_CHANNEL_PUBLICATIONS[c];
      return [c, { source: 'default' as const, publications: title ? [title] : [] }];
    }),
  );
}

const checkState = (check: { status: string } | undefined): CheckState =>
  check === undefined ? 'unknown' : check.status === 'connected' ? 'connected' : 'error';

export class StatusService {
  private readonly clock: Clock;
  private peakRss = 0;

  constructor(private readonly deps: StatusServiceDeps) {
    this.clock = deps.clock ?? systemClock;
  }

  /** GET /api/status: the caller's own integration, with live (cached) connectivity checks. */
  async ownStatus(integrationId: number): Promise<OwnStatus> {
    const { repository } = this.deps;
    const state = await repository.integration(integrationId);
    if (!state) throw new ConnectorError('INTERNAL_ERROR', 'Integration of this token no longer exists');
    // The live checks first: they read the granted scopes again, which the access view then shows.
    const checks = await this.deps.connectivity.current(state);
    const [access, counts, syncs, failed24h, tokens, queue] = await Promise.all([
      this.deps.access ? this.deps.access(integrationId) : null,
      repository.mappingCounts(integrationId),
      repository.recentSyncs(integrationId, RECENT_SYNCS),
      repository.syncCounts(integrationId, this.since24h()),
      repository.activeTokenCount(integrationId),
      this.deps.queue.stats(integrationId),
    ]);
    const now = this.clock.now();
    const mappingStats: Record<string, number> = Object.fromEntries(MAPPING_STATUSES.map((s) => [s, 0]));
    Object.assign(mappingStats, counts);
    return {
      integration_id: state.id,
      shop_domain: state.shopDomain,
      pim_base_url: state.pimBaseUrl,
      status: state.isActive ? 'active' : 'inactive',
      is_active: state.isActive,
      created_at: ymdHis(state.createdAt),
      last_sync_at: ymdHis(state.lastSyncAt),
      updated_at: ymdHis(state.updatedAt),
      product_mapping_stats: mappingStats,
      recent_syncs: syncs.map((s) => this.recentSync(s, now)),
      pim_status: checks.pim,
      storefront_status: checks.storefront,
      active_tokens: tokens,
      queue_stats: queue,
      health_score: this.score(state, checkState(checks.pim), checkState(checks.storefront), failed24h.failed, counts, queue, now, access),
      channel_mapping: channelMappingOf(parseSettings(state.settings)),
      translations: { missing_locales: Array.isArray(state.missingLocales) ? state.missingLocales : [] },
      storefront_access: access,
    };
  }

  /** GET /api/sync/logs: the syncs of the last `hours` (at most `limit`), newest first, each with its error. */
  async syncLogs(integrationId: number, hours: number, limit: number) {
    const rows = await this.deps.repository.syncLogsSince(integrationId, hours, limit);
    const now = this.clock.now();
    return { hours, sync_logs: rows.map((row) => ({ ...this.recentSync(row, now), error: row.error ?? null })) };
  }

  /** GET /api/status/{integrationId}: stored state and stored checks only, never a live call. */
  async publicStatus(rawId: string): Promise<PublicStatus> {
    const id = /^\d{1,10}$/.test(rawId) ? Number(rawId) : NaN;
    if (!Number.isInteger(id) || id < 1 || id > MAX_INT4) throw new IntegrationNotFound();
    const { repository } = this.deps;
    const state = await repository.integration(id);
    if (!state) throw new IntegrationNotFound();
    const [counts, last24h, failedSync, queue, access] = await Promise.all([
      repository.mappingCounts(id),
      repository.syncCounts(id, this.since24h()),
      repository.latestFailedSync(id),
      this.deps.queue.stats(id),
      this.deps.access ? this.deps.access(id) : null,
    ]);
    const now = this.clock.now();
    const stored = storedChecks(state);
    const pim = checkState(stored?.pim);
    const storefront = checkState(stored?.storefront);
    const checkError = state.lastError && state.lastErrorAt ? { error: state.lastError, at: state.lastErrorAt } : null;
    const latestError = [checkError, failedSync].filter((e) => e !== null).sort((a, b) => b.at.getTime() - a.at.getTime())[0] ?? null;
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return {
      integration_id: state.id,
      shop_domain: state.shopDomain,
      is_active: state.isActive,
      // Connected means: active, and the last stored checks saw both sides answer. Never checked is not connected.
      is_connected: state.isActive && pim === 'connected' && storefront === 'connected',
      last_error: latestError?.error ?? null,
      created_at: iso8601(state.createdAt),
      last_sync_at: iso8601(state.lastSyncAt),
      sync_stats: {
        last_24h: { total_syncs: last24h.total, successful_syncs: last24h.successful, failed_syncs: last24h.failed },
        product_mappings: { total, synced: counts.synced ?? 0, pending: counts.pending ?? 0, failed: counts.error ?? 0 },
      },
      queue_stats: queue,
      health_score: this.score(state, pim, storefront, last24h.failed, counts, queue, now, access),
    };
  }

  /** GET /api/system/status. A database that does not answer makes it `degraded` (counts 0: unknown), not a 500. */
  async systemStatus(): Promise<SystemStatus> {
    const healthy = await this.deps.ping().catch(() => false);
    const { repository } = this.deps;
    const [integrationCounts, syncs] = healthy
      ? await Promise.all([repository.integrationCounts(), repository.syncCounts(null, this.since24h())])
      : [
          { total: 0, active: 0 },
          { total: 0, successful: 0, failed: 0 },
        ];
    return {
      status: healthy ? 'operational' : 'degraded',
      timestamp: iso8601(this.clock.now()),
      stats: {
        total_integrations: integrationCounts.total,
        active_integrations: integrationCounts.active,
        recent_syncs: { total_syncs_24h: syncs.total, successful_syncs_24h: syncs.successful, failed_syncs_24h: syncs.failed },
        system_health: { database: healthy ? 'healthy' : 'unhealthy', php_version: `node ${process.version}`, ...this.memory() },
      },
    };
  }

  /** Resident set size now, and the largest seen by the process (the OS's max RSS, or a larger sample of ours). */
  private memory(): { memory_usage: string; memory_peak: string } {
    const rss = process.memoryUsage.rss();
    this.peakRss = Math.max(this.peakRss, rss, process.resourceUsage().maxRSS * 1024);
    return { memory_usage: humanBytes(rss), memory_peak: humanBytes(this.peakRss) };
  }

  private since24h(): Date {
    return new Date(this.clock.now().getTime() - DAY_MS);
  }

  private recentSync(s: SyncLogRow, now: Date): RecentSync {
    return {
      id: s.id,
      operation: s.operation,
      status: s.status,
      records_processed: s.recordsProcessed,
      records_failed: s.recordsFailed,
      duration: syncDuration(s.startedAt, s.completedAt, now),
      started_at: ymdHis(s.startedAt),
      completed_at: ymdHis(s.completedAt),
    };
  }

  private score(
    state: IntegrationState,
    pim: CheckState,
    storefront: CheckState,
    failedSyncs24h: number,
    counts: Record<string, number>,
    queue: QueueStats,
    now: Date,
    access: AccessView | null,
  ): HealthScore {
    return healthScore({
      access: access ? { reauthorizationRequired: access.status === 'reauthorization_required', missingScopes: access.missing_scopes } : undefined,
      isActive: state.isActive,
      pim,
      storefront,
      failedSyncs24h,
      mappingsTotal: Object.values(counts).reduce((sum, n) => sum + n, 0),
      mappingsInError: counts.error ?? 0,
      failedJobs: queue.failed_messages,
      lastSyncAt: state.lastSyncAt,
      createdAt: state.createdAt,
      now,
    });
  }
}

export interface CreateStatusServiceOptions {
  db: Db;
  /** A real query against the database; default `select 1` through the repository (tests inject a failing one). */
  ping?: () => Promise<boolean>;
  secretBox: SecretBox;
  storefront: StorefrontPort;
  /** The PIM side: `new PimClientProbe(new PimClient({ …, timeoutMs: 3000 }))`. */
  pim: PimProbe;
  /** Defaults to InlineQueueStats until the job queue exists. */
  queue?: QueueStatsSource;
  clock?: Clock;
  ttlMs?: number;
  timeoutMs?: number;
}

/** Wires the status service: one repository, the connectivity checker and the queue-stats source. */
export function createStatusService(options: CreateStatusServiceOptions): StatusService {
  const repository = new StatusRepository(options.db);
  const clock = options.clock ?? systemClock;
  const connectivity = new ConnectivityChecker({
    repository,
    secretBox: options.secretBox,
    storefront: options.storefront,
    pim: options.pim,
    clock,
    ttlMs: options.ttlMs,
    timeoutMs: options.timeoutMs,
  });
  return new StatusService({
    repository,
    connectivity,
    queue: options.queue ?? new InlineQueueStats(repository),
    ping: options.ping ?? (() => repository.ping()),
    clock,
  });
}
