// The connector as a module: its repositories built here and passed into its services (integrations, tokens, shop
// access, webhooks, push, full and delta syncs, adoption, drift, category collections, status), its HTTP scopes (the
// connector API, the install pages, Shopify's webhook deliveries), its job handlers and the delta-sync ticker. It
// reaches the PIM over HTTP only (pim/pim-client.ts) and the shop through the storefront port; what it needs of the rest
// (who owns a PIM key, a new PIM key for a shop installed from the console, the app a shop installs) the app passes in.
import type { Db } from '../db/client.js';
import type { App } from '../http/app-type.js';
import type { PathPatterns } from '../http/path-patterns.js';
import { secureCookies } from '../http/secure-cookies.js';
import { JOB } from '../jobs/job-types.js';
import { executorOf, type PgBossQueue } from '../jobs/queue.js';
import type { JobHandlers } from '../jobs/workers.js';
import type { Metrics } from '../lib/metrics.js';
import type { Redis } from 'ioredis';
import type { Logger } from '../jobs/job-runner.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { StorefrontAuthorization } from '../storefront/port/authorization.js';
import type { StorefrontCatalogueReader } from '../storefront/port/catalogue.js';
import type { StorefrontCollections } from '../storefront/port/collections.js';
import type { StorefrontWebhooks } from '../storefront/port/webhooks.js';
import type { StorefrontPort } from '../storefront/storefront.port.js';
import { adoptionHandler } from './adopt/adoption.handler.js';
import { AdoptionRepository } from './adopt/adoption.repository.js';
import { type AdoptionOptions, AdoptionService } from './adopt/adoption.service.js';
import { catalogueCsvEncoder, PimCsvImporter } from './adopt/unmatched-import.js';
import { ConnectorAuthService } from './auth/connector-auth.service.js';
import { ConsoleAccess } from './auth/console-access.js';
import { TokenRepository } from './auth/token.repository.js';
import { CategoryCollectionRepository } from './collections/category-collection.repository.js';
import { CategoryCollectionService } from './collections/category-collection.service.js';
import { connectorPlugin } from './connector.plugin.js';
import { driftHandler } from './drift/drift.handler.js';
import { DriftRepository } from './drift/drift.repository.js';
import { type DriftOptions, DriftService } from './drift/drift.service.js';
import { IntegrationRepository } from './integrations/integration.repository.js';
import { IntegrationService, type IntegrationServiceDeps } from './integrations/integration.service.js';
import { IntegrationSettingsService } from './integrations/integration-settings.service.js';
import { MappingRepository } from './mappings/mapping.repository.js';
import { MappingService } from './mappings/mapping.service.js';
import { PimClient } from './pim/pim-client.js';
import { PushService } from './push/push.service.js';
import { SyncLogRepository } from './push/sync-log.repository.js';
import { installRoutes } from './shop-auth/install.routes.js';
import { ShopAccessService } from './shop-auth/shop-access.service.js';
import { ShopAuthRepository } from './shop-auth/shop-auth.repository.js';
import { type InstallApp, ShopInstallService } from './shop-auth/shop-install.service.js';
import { ShopRegistryRepository } from './shop-auth/shop-registry.repository.js';
import { ShopTokens } from './shop-auth/shop-tokens.js';
import { ConnectivityChecker, PimClientProbe } from './status/connectivity.js';
import { JobQueueStats } from './status/queue-stats.js';
import { StatusRepository } from './status/status.repository.js';
import { StatusService } from './status/status.service.js';
import { DeltaPoller } from './sync/delta-poller.js';
import { type CatalogueChangeFeed, DeltaWake } from './sync/delta-wake.js';
import { SyncStatesService } from './live/sync-states.service.js';
import { type SyncStreamOptions, SyncStreamService } from './live/sync-stream.service.js';
import type { Notifications } from '../db/notifications.js';
import { DeltaSyncRepository } from './sync/delta-sync.repository.js';
import { DeltaSyncService } from './sync/delta-sync.service.js';
import { fullSyncHandler, syncBulkHandler } from './sync/full-sync.handlers.js';
import { FullSyncRepository } from './sync/full-sync.repository.js';
import { type FullSyncOptions, FullSyncService } from './sync/full-sync.service.js';
import { syncPollHandler } from './sync/sync-poll.handler.js';
import { syncProductHandler } from './sync/sync-product.handler.js';
import { webhookReceiverRoutes } from './webhooks/webhook-receiver.routes.js';
import { WebhookRepository } from './webhooks/webhook.repository.js';
import { WEBHOOK_PATH, WebhookService } from './webhooks/webhook.service.js';

export { sendConnectorError } from './connector.plugin.js';
export { ConnectorErrorEnvelope } from './connector.schemas.js';
export type { InstallApp } from './shop-auth/shop-install.service.js';

/** The settings the connector reads (named as in the app's config, which is passed as is). */
export interface ConnectorSettings {
  publicUrl: string;
  connectorAllowPrivateNetworks: boolean;
  authRateLimit: number;
  connectorPublicRateLimit: number;
  syncConcurrency: number;
  syncPollSeconds: number;
  syncOnPimChange: boolean;
  syncBulkThreshold: number;
  syncBulkChunk: number;
  /** Set: Shopify shops are subscribed to webhooks (signed with it); unset, only sandbox shops are. */
  shopifyApiSecret?: string | null;
  webhookMaxAgeSeconds?: number;
}

/** Settings put in place of the defaults (tests, benchmarks). */
export interface ConnectorOverrides {
  /** Where pushes, sync.product jobs and full syncs write products: the storefront unless given (a counting double). */
  syncStorefront?: StorefrontPort;
  /** The PIM client's per-call timeout (5 s). */
  pimTimeoutMs?: number;
  /** Full-sync settings beyond SYNC_BULK_THRESHOLD and SYNC_BULK_CHUNK (e.g. shorter polls of a bulk operation). */
  fullSync?: Partial<FullSyncOptions>;
  adoption?: Partial<AdoptionOptions>;
  /** Drift reports' settings (e.g. shorter polls of the shop's bulk query). */
  drift?: Partial<DriftOptions>;
  /** The console's event streams (heartbeat, lifetime, cap per organization). */
  syncStream?: Partial<SyncStreamOptions>;
}

export interface ConnectorModuleDeps {
  db: Db;
  /** Where the rate limiters count, shared by the nodes (null: in this process). */
  redis: Redis | null;
  queue: PgBossQueue;
  box: SecretBox;
  /** The storefront: products through the port, and its catalogue reads, webhook subscriptions and collections. */
  storefront: StorefrontPort & StorefrontCatalogueReader & StorefrontWebhooks & StorefrontCollections;
  /** The storefront's OAuth (installs, expiring tokens, scopes). */
  storefrontAuth: StorefrontAuthorization;
  /** The secret webhooks are signed with (the app's client secret). */
  webhookSecret: string;
  /** Who asks to connect: the organization of a PIM key and secret of this server's. */
  accounts: IntegrationServiceDeps['accounts'];
  /** A new PIM API key for an organization (a shop installed from the console gets one). */
  mintPimKey(organizationId: number, name: string): Promise<{ apiKey: string; apiSecret: string }>;
  /** The app a shop domain installs; null when none can be installed there. */
  appFor(domain: string): Promise<InstallApp | null>;
  metrics: Metrics;
  log?: Logger & { info(obj: object, msg: string): void };
  /** LISTEN/NOTIFY: the console's event streams hear the mappings' sync states from every process. */
  notifications: Pick<Notifications, 'listen'>;
  /** This server's PIM's catalogue changes, by organization, and the key hashes of an organization (live/, sync/delta-wake.ts). */
  catalogueChanges?: { feed: CatalogueChangeFeed; keyHashesOf(organizationId: number): Promise<string[]> };
}

export type ConnectorModule = ReturnType<typeof createConnector>;

export function createConnector(deps: ConnectorModuleDeps, settings: ConnectorSettings, overrides: ConnectorOverrides = {}) {
  const { db, queue, log } = deps;
  // Built in this order, each step from the ones before it.
  const connection = connectionParts(deps, settings, overrides);
  const sync = syncParts(deps, settings, overrides, connection);
  const services = serviceSet(deps, settings, overrides, connection, sync);
  const handlers = jobHandlers(deps, settings, sync, connection);
  const { integrations, webhooks } = connection;
  const secure = secureCookies(settings.publicUrl);
  const { catalogueChanges } = deps;
  // This server's PIM's changes wake the delta sync of the organization's integrations at once (sync/delta-wake.ts).
  const wake =
    catalogueChanges && settings.syncOnPimChange
      ? new DeltaWake({
          changes: catalogueChanges.feed,
          keyHashesOf: catalogueChanges.keyHashesOf,
          integrationsOf: (keyHashes) => integrations.listForAccount(keyHashes),
          queue,
          log,
        })
      : null;
  return {
    services,
    handlers,
    /** Sends one sync.poll per active integration every SYNC_POLL_SECONDS (run by worker nodes). */
    deltaTicker: new DeltaPoller(sync.deltaRepo, queue, settings.syncPollSeconds, log, wake),
    /** The shops this server knows (the admin API registers, lists and removes them: `shops` is the connector's table). */
    shopRegistry: new ShopRegistryRepository(db),
    /** Integrations made before their PIM key was fingerprinted get it (the console finds an account's integrations by it). */
    backfill: () => integrations.fillPimKeyHashes(),
    /** `paths` learns every connector route's URL (the app answers unknown routes under them in the connector's envelope). */
    async routes(app: App, paths: PathPatterns): Promise<void> {
      await app.register(async (scope) => connectorPlugin(scope as App, services, paths));
      // Installing the app on a shop (GET /shopify/install, /shopify/callback): pages the merchant's browser goes through.
      await app.register(async (scope) => installRoutes(scope as App, { installs: services.installs, secure }));
      // Shopify's webhook deliveries (POST /webhooks/shopify): a scope of its own, whose parser keeps the raw body for the HMAC.
      await app.register(async (scope) => webhookReceiverRoutes(scope as App, webhooks));
    },
  };
}

/**
 * The integrations and their shops: the PIM client, the repositories the other parts share, the shop's access (OAuth
 * grants, expiring tokens, scopes), the integrations and the shop's webhooks (each calls into the other).
 */
function connectionParts(deps: ConnectorModuleDeps, settings: ConnectorSettings, overrides: ConnectorOverrides) {
  const { db, box, storefront, log } = deps;
  const pim = new PimClient({ allowPrivateNetworks: settings.connectorAllowPrivateNetworks, publicUrl: settings.publicUrl, timeoutMs: overrides.pimTimeoutMs });
  const integrationRepo = new IntegrationRepository(db);
  const mappingRepo = new MappingRepository(db);
  const syncLogs = new SyncLogRepository(db);
  const tokens = new TokenRepository(db);
  // A shop's access: Shopify's OAuth grants, expiring tokens renewed once per shop across processes, the scopes granted.
  const shopAuthRepo = new ShopAuthRepository(db);
  const shopTokens = new ShopTokens({ repo: shopAuthRepo, box, auth: deps.storefrontAuth, log });
  const shopAccess = new ShopAccessService({ repo: shopAuthRepo, tokens: shopTokens, box, auth: deps.storefrontAuth, storefront, log });
  const integrations: IntegrationService = new IntegrationService({
    db,
    integrations: integrationRepo,
    tokens,
    pim,
    box,
    // The shop's webhook subscriptions and granted scopes, once connected; `webhooks` is built just below.
    afterConnect: async (integrationId) => {
      await webhooks.subscribeAfterConnect(integrationId);
      await shopAccess.checkScopesAfterConnect(integrationId);
    },
    accounts: deps.accounts,
    shops: shopAccess,
  });
  const webhooks: WebhookService = new WebhookService(
    {
      db,
      repo: new WebhookRepository(db),
      mappings: mappingRepo,
      integrations: integrationRepo,
      shopOf: (integrationId) => integrations.storefrontShopOf(integrationId),
      disconnect: (integrationId) => integrations.disconnect(integrationId),
      box,
      storefront,
      log,
    },
    {
      secret: deps.webhookSecret,
      callbackUrl: `${settings.publicUrl}${WEBHOOK_PATH}`,
      subscribeShopifyShops: settings.shopifyApiSecret != null,
      maxAgeSeconds: settings.webhookMaxAgeSeconds,
    },
  );
  return { pim, integrationRepo, mappingRepo, syncLogs, tokens, shopAuthRepo, shopTokens, shopAccess, integrations, webhooks };
}

type ConnectionParts = ReturnType<typeof connectionParts>;

/** What moves products: the integration's settings, category collections, pushes, full and delta syncs, adoption, drift. */
function syncParts(deps: ConnectorModuleDeps, settings: ConnectorSettings, overrides: ConnectorOverrides, connection: ConnectionParts) {
  const { db, queue, storefront, log, metrics } = deps;
  const { pim, integrationRepo, mappingRepo, syncLogs, integrations } = connection;
  const syncStorefront = overrides.syncStorefront ?? storefront;
  const integrationSettings = new IntegrationSettingsService(integrationRepo, integrations, storefront, {
    reader: pim,
    connectionOf: (id) => integrations.pimConnectionOf(id),
  });
  // Categories → the shop's custom collections, made as their products are pushed (collections/).
  const collections = new CategoryCollectionService({ repo: new CategoryCollectionRepository(db), storefront, integrations, pim, log });
  const push = new PushService({
    db,
    integrations,
    settings: integrationSettings,
    pim,
    mappings: mappingRepo,
    syncLogs,
    storefront: syncStorefront,
    queue,
    collections,
    metrics,
  });
  /** Jobs of an integration queued or running: a full sync or an adoption starts only when none is. */
  const liveJobs = async (integrationId: number) => {
    const c = await queue.counts(integrationId);
    return c.pending + c.processing;
  };
  const fullSync = new FullSyncService(
    {
      db,
      repo: new FullSyncRepository(db),
      queue,
      txExecutor: executorOf,
      liveJobs,
      integrations,
      pim,
      mappings: mappingRepo,
      syncLogs,
      storefront: syncStorefront,
      settings: integrationSettings,
      collections,
      log,
      metrics,
    },
    { bulkThreshold: settings.syncBulkThreshold, chunkSize: settings.syncBulkChunk, ...overrides.fullSync },
  );
  const deltaRepo = new DeltaSyncRepository(db);
  const delta = new DeltaSyncService({ db, repo: deltaRepo, integrations, pim, mappings: mappingRepo, queue, executorOf });
  // POST /api/adopt: the shop's products read in one bulk query, matched to the PIM's and linked (adopt/).
  const adoptions = new AdoptionService(
    {
      db,
      repo: new AdoptionRepository(db),
      queue,
      txExecutor: executorOf,
      liveJobs,
      integrations,
      pim,
      mappings: mappingRepo,
      storefront,
      // import_unmatched: one catalogue file (our format, written by catalogue-csv) through the PIM's import API.
      importer: new PimCsvImporter(pim, catalogueCsvEncoder('ours')),
    },
    overrides.adoption,
  );
  // POST /api/drift: the shop read in one bulk query and compared with what the bridge last wrote (drift/).
  const drift = new DriftService({ db, repo: new DriftRepository(db), queue, txExecutor: executorOf, liveJobs, integrations, storefront }, overrides.drift);
  return { integrationSettings, collections, push, fullSync, deltaRepo, delta, adoptions, drift };
}

type SyncParts = ReturnType<typeof syncParts>;

/** The services the connector's routes call: the two parts above, and auth, installs, mappings and status over them. */
function serviceSet(deps: ConnectorModuleDeps, settings: ConnectorSettings, overrides: ConnectorOverrides, connection: ConnectionParts, sync: SyncParts) {
  const { db, queue, box, storefront, log } = deps;
  const { pim, integrationRepo, mappingRepo, tokens, shopAuthRepo, shopTokens, shopAccess, integrations, webhooks } = connection;
  const { integrationSettings, push, fullSync, delta, adoptions, drift, collections } = sync;
  const statusRepo = new StatusRepository(db);
  const accountIntegrationIds = async (keyHashes: string[]) => (await integrations.listForAccount(keyHashes)).map((i) => i.id);
  return {
    pimClient: pim,
    webhooks,
    auth: new ConnectorAuthService(
      tokens,
      createRateLimiter({ name: 'connector-auth', points: settings.authRateLimit, durationSeconds: 60, redis: deps.redis }),
      createRateLimiter({ name: 'connector-public', points: settings.connectorPublicRateLimit, durationSeconds: 60, redis: deps.redis }),
    ),
    integrations,
    shopAccess,
    installs: new ShopInstallService(
      {
        repo: shopAuthRepo,
        tokens: shopTokens,
        box,
        auth: deps.storefrontAuth,
        storefront,
        appFor: deps.appFor,
        connect: (input, proof) => integrations.connect(input, proof),
        integrationOf: (shopId) => integrationRepo.findByShop(shopId),
        mintPimKey: deps.mintPimKey,
      },
      { publicUrl: settings.publicUrl },
    ),
    settings: integrationSettings,
    push,
    fullSync,
    delta,
    adoptions,
    drift,
    collections,
    // The console's live view: sync states as they change (an SSE stream per tab) and where a page of products stands.
    live: {
      streams: new SyncStreamService({ notifications: deps.notifications, integrationsOf: accountIntegrationIds, log }, overrides.syncStream),
      states: new SyncStatesService(mappingRepo, accountIntegrationIds),
    },
    console: new ConsoleAccess(integrations, (integrationId) => shopAccess.viewForIntegration(integrationId)),
    mappings: new MappingService(mappingRepo),
    // GET /api/status's live checks: 3 s timeouts, results cached 30 s on the integration row.
    status: new StatusService({
      repository: statusRepo,
      connectivity: new ConnectivityChecker({ repository: statusRepo, secretBox: box, storefront, shops: shopAccess, pim: new PimClientProbe(pim) }),
      queue: new JobQueueStats(queue),
      ping: () => statusRepo.ping(),
      access: (integrationId) => shopAccess.viewForIntegration(integrationId),
    }),
  };
}

/** The connector's job handlers, each with how many run at once on a worker node. */
function jobHandlers(deps: ConnectorModuleDeps, settings: ConnectorSettings, sync: SyncParts, { syncLogs }: ConnectionParts): JobHandlers {
  const { log, metrics } = deps;
  const { push, fullSync, delta, collections, adoptions, drift } = sync;
  return {
    [JOB.syncProduct]: { handler: syncProductHandler({ push, fullSync, log, metrics, syncLogs }), concurrency: settings.syncConcurrency },
    // Fan-outs are light (PIM pages, inserts); bulk jobs run up to five per shop (one per slot singletonKey), as Shopify allows.
    [JOB.syncFull]: { handler: fullSyncHandler(fullSync), concurrency: 2 },
    [JOB.syncBulk]: { handler: syncBulkHandler(fullSync), concurrency: 5 },
    [JOB.syncPoll]: { handler: syncPollHandler({ delta, collections, log, syncLogs }), concurrency: 2 },
    // An adoption waits on the shop's bulk query and the PIM's pages: light, a few at once.
    [JOB.catalogueAdopt]: { handler: adoptionHandler(adoptions), concurrency: 2 },
    // A drift report waits on the shop's bulk query, then compares in memory: light.
    [JOB.catalogueDrift]: { handler: driftHandler(drift), concurrency: 2 },
  };
}
