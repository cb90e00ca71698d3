// Wires repositories into services. Each service receives only what it uses.
//
// One style of composition: every collaborator comes in through the constructor, never assigned afterwards. A service
// with more than three collaborators takes them as one dependency object (`new FullSyncService({ db, repo, queue, … },
// options)`), settings apart in an options object; smaller ones take them positionally. Named fields cannot be swapped
// by mistake, optional ones (a clock, metrics) need no placeholder arguments, and a test builds the service with its
// doubles by name. Doubles for the app as a whole (a storefront, short polls) go in through `overrides` here, at
// construction, never into the built services' fields.
import type { Redis } from 'ioredis';
import path from 'node:path';
import { AdminService } from '../admin/admin.service.js';
import { ApiKeyRepository } from '../admin/api-key.repository.js';
import { OrganizationRepository } from '../admin/organization.repository.js';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { AttributeRepository } from '../pim/attributes/attribute.repository.js';
import { AttributeService } from '../pim/attributes/attribute.service.js';
import { ApiKeyAuthService } from '../pim/auth/api-key-auth.service.js';
import { CredentialCache } from '../pim/auth/credential-cache.js';
import { OrganizationSettingsRepository } from '../pim/organization/organization.repository.js';
import { ChannelRepository } from '../pim/channels/channel.repository.js';
import { CategoryRepository } from '../pim/categories/category.repository.js';
import { CategoryService } from '../pim/categories/category.service.js';
import { ChannelService } from '../pim/channels/channel.service.js';
import { ImageSearchRepository } from '../pim/image-search/image-search.repository.js';
import { ImageSearchService } from '../pim/image-search/image-search.service.js';
import { MediaRepository } from '../pim/media/media.repository.js';
import { MediaService } from '../pim/media/media.service.js';
import { FileMediaStorage } from '../pim/media/storage.js';
import { ProductRepository } from '../pim/products/product.repository.js';
import { ProductService } from '../pim/products/product.service.js';
import { NamedListRepository, VatRateRepository } from '../pim/reference/reference.repository.js';
import { NamedListService, VatRateService } from '../pim/reference/reference.service.js';
import { VariantRepository } from '../pim/variants/variant.repository.js';
import { VariantService } from '../pim/variants/variant.service.js';
import { StockRepository } from '../pim/stock/stock.repository.js';
import { CatalogueRepository } from '../pim/catalogue-files/catalogue.repository.js';
import { ExportService } from '../pim/catalogue-files/export.service.js';
import { ImportRepository } from '../pim/catalogue-files/import.repository.js';
import { ImportService } from '../pim/catalogue-files/import.service.js';
import { importHandler } from '../pim/catalogue-files/import.handler.js';
import { StockService } from '../pim/stock/stock.service.js';
import { WarehouseRepository } from '../pim/warehouses/warehouse.repository.js';
import { WarehouseService } from '../pim/warehouses/warehouse.service.js';
import { anyAddress, publicAddressesOnly } from '../lib/address-policy.js';
import { SafeDownloader } from '../lib/safe-download.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import { ShopRegistryRepository } from '../connector/shop-auth/shop-registry.repository.js';
import { ShopService } from '../admin/shop.service.js';
import { SecretBox } from '../lib/secret-box.js';
import { ConnectorAuthService } from '../connector/auth/connector-auth.service.js';
import { ConsoleAccess } from '../connector/auth/console-access.js';
import { SessionRepository } from '../pim/session/session.repository.js';
import { SessionService } from '../pim/session/session.service.js';
import { TokenRepository } from '../connector/auth/token.repository.js';
import { IntegrationRepository } from '../connector/integrations/integration.repository.js';
import { IntegrationService } from '../connector/integrations/integration.service.js';
import { PimClient } from '../connector/pim/pim-client.js';
import { PimClientProbe } from '../connector/status/connectivity.js';
import { MappingRepository } from '../connector/mappings/mapping.repository.js';
import { MappingService } from '../connector/mappings/mapping.service.js';
import { IntegrationSettingsService } from '../connector/integrations/integration-settings.service.js';
import { PushService } from '../connector/push/push.service.js';
import { SyncLogRepository } from '../connector/push/sync-log.repository.js';
import { StatusService } from '../connector/status/status.service.js';
import { StatusRepository } from '../connector/status/status.repository.js';
import { ConnectivityChecker } from '../connector/status/connectivity.js';
import type { StorefrontPort } from '../storefront/storefront.port.js';
import type { AdoptionOptions } from '../connector/adopt/adoption.service.js';
import type { FullSyncOptions } from '../connector/sync/full-sync.service.js';
import { createSandbox, createSandboxShopAdmin, type SandboxGraphqlOptions } from '../sandbox/sandbox.module.js';
import { ShopifyAdapter } from '../storefront/shopify/shopify.adapter.js';
import { JOB } from '../jobs/job-types.js';
import type { PgBossQueue } from '../jobs/queue.js';
import { Workers, type JobHandlers } from '../jobs/workers.js';
import { JobQueueStats } from '../connector/status/queue-stats.js';
import { syncProductHandler } from '../connector/sync/sync-product.handler.js';
import { FullSyncRepository } from '../connector/sync/full-sync.repository.js';
import { FullSyncService } from '../connector/sync/full-sync.service.js';
import { fullSyncHandler, syncBulkHandler } from '../connector/sync/full-sync.handlers.js';
import { executorOf } from '../jobs/queue.js';
import { DeltaPoller } from '../connector/sync/delta-poller.js';
import { DeltaSyncRepository } from '../connector/sync/delta-sync.repository.js';
import { DeltaSyncService } from '../connector/sync/delta-sync.service.js';
import { ThrottleReport } from '../storefront/shopify/throttle-report.js';
import { postgresSharedBudget, redisSharedBudget } from '../storefront/shopify/shared-budget.js';
import type { Metrics } from '../lib/metrics.js';
import { AdoptionRepository } from '../connector/adopt/adoption.repository.js';
import { AdoptionService } from '../connector/adopt/adoption.service.js';
import { adoptionHandler } from '../connector/adopt/adoption.handler.js';
import { DriftRepository } from '../connector/drift/drift.repository.js';
import { CategoryCollectionRepository } from '../connector/collections/category-collection.repository.js';
import { CategoryCollectionService } from '../connector/collections/category-collection.service.js';
import { DriftService, type DriftOptions } from '../connector/drift/drift.service.js';
import { driftHandler } from '../connector/drift/drift.handler.js';
import { catalogueCsvEncoder, PimCsvImporter } from '../connector/adopt/unmatched-import.js';
import { WebhookRepository } from '../connector/webhooks/webhook.repository.js';
import { WEBHOOK_PATH, WebhookService } from '../connector/webhooks/webhook.service.js';
import { createHmac } from 'node:crypto';
import { ShopAuthRepository } from '../connector/shop-auth/shop-auth.repository.js';
import { ShopTokens } from '../connector/shop-auth/shop-tokens.js';
import { ShopAccessService } from '../connector/shop-auth/shop-access.service.js';
import { ShopInstallService, type InstallApp } from '../connector/shop-auth/shop-install.service.js';
import { ShopifyOAuth } from '../storefront/shopify/shopify-oauth.js';

export type Services = ReturnType<typeof createServices>;

/** Collaborators and settings put in place of the defaults when the services are built (tests, benchmarks). */
export interface ServiceOverrides {
  /** Where pushes, sync.product jobs and full syncs write products: the Shopify adapter unless given (a counting double). */
  syncStorefront?: StorefrontPort;
  /** The connector's PIM client's per-call timeout (5 s). */
  pimTimeoutMs?: number;
  /** Full-sync settings beyond SYNC_BULK_THRESHOLD and SYNC_BULK_CHUNK (e.g. shorter polls of a bulk operation). */
  fullSync?: Partial<FullSyncOptions>;
  adoption?: Partial<AdoptionOptions>;
  /** Drift reports' settings (e.g. shorter polls of the shop's bulk query). */
  drift?: Partial<DriftOptions>;
  /** The built-in Shopify sandbox's GraphQL service (its clock, its bulk runner's pause and upload cap). */
  sandbox?: SandboxGraphqlOptions;
}

/** How often a worker node takes over the jobs of dead workers (jobs/workers.ts), on PostgreSQL. */
const RECLAIM_INTERVAL_SECONDS = 3;

export function createServices(
  config: Pick<Config, 'pimRateLimitRead' | 'pimRateLimitWrite' | 'publicUrl' | 'dataDir' | 'mediaAllowPrivateNetworks'> &
    Partial<Pick<Config, 'shopifyApiSecret' | 'shopifyApiKey' | 'webhookMaxAgeSeconds'>> &
    Pick<Config, 'encryptionKey' | 'authRateLimit' | 'connectorPublicRateLimit' | 'connectorAllowPrivateNetworks' | 'shopifySandbox'> &
    Pick<Config, 'adminAuthRateLimit'> &
    Pick<Config, 'mediaDownloadConcurrency' | 'mediaQuotaBytes' | 'importMaxBytes'> &
    Pick<Config, 'syncConcurrency' | 'syncPollSeconds' | 'syncBulkThreshold' | 'syncBulkChunk' | 'consoleSessionHours'>,
  /** The platform's database: its Drizzle handle, and for the sandbox the owners' locks and the pool's size. */
  database: Pick<Database, 'db' | 'locks' | 'poolUse' | 'executor'>,
  redis: Redis | null,
  jobs: { queue: PgBossQueue; databaseKind: 'postgres' | 'pglite'; log?: ConstructorParameters<typeof Workers>[2]['log'] },
  /** Where the connector and the Shopify adapter count what they do (GET /metrics). */
  metrics: Metrics,
  overrides: ServiceOverrides = {},
) {
  const { db } = database;
  const apiKeys = new ApiKeyRepository(db);
  const credentials = new CredentialCache(redis);
  const pimAuth = new ApiKeyAuthService(apiKeys, credentials);
  const products = new ProductRepository(db, `${config.publicUrl}/media/`);
  const mediaDownloader = new SafeDownloader({ addressPolicy: config.mediaAllowPrivateNetworks ? anyAddress : publicAddressesOnly });
  const media = new MediaService(
    { db, media: new MediaRepository(db), products, storage: new FileMediaStorage(path.join(config.dataDir, 'media')), downloader: mediaDownloader },
    {
      publicUrl: config.publicUrl,
      downloadConcurrency: config.mediaDownloadConcurrency,
      quotaBytes: config.mediaQuotaBytes,
    },
  );
  const stockLevels = new StockRepository(db);
  const catalogue = new CatalogueRepository(db, `${config.publicUrl}/media/`);
  const imports = new ImportService(
    { db, imports: new ImportRepository(db), catalogue, media, queue: jobs.queue },
    {
      directory: path.join(config.dataDir, 'imports'),
      maxBytes: config.importMaxBytes,
    },
  );
  const attributes = new AttributeService(db, new AttributeRepository(db));
  const stock = new StockService(db, stockLevels, products);
  const secretBox = new SecretBox(config.encryptionKey);
  const connectorTokens = new TokenRepository(db);
  // The built-in Shopify sandbox, a module of its own mounted only when it is on (its routes: app.ts). Off, the admin
  // API keeps its side for sandbox shops made while it was on (removing them removes their store, as before).
  // The app's client secret webhooks are signed with: SHOPIFY_API_SECRET, else one derived from ENCRYPTION_KEY (then
  // only sandbox shops are subscribed; the sandbox signs its deliveries with the same).
  const webhookSecret = config.shopifyApiSecret ?? createHmac('sha256', config.encryptionKey).update('pimbridge:shopify-webhooks').digest('base64url');
  const sandbox = config.shopifySandbox
    ? createSandbox(
        { db, locks: database.locks, poolSize: database.poolUse?.().max },
        {
          ...overrides.sandbox,
          webhooks: {
            secret: webhookSecret,
            ownOrigin: config.publicUrl,
            allowPrivateNetworks: config.connectorAllowPrivateNetworks,
            // Shopify delivers to https only; the sandbox also to http when this server itself is on http (the
            // embedded mode's http://127.0.0.1), or its own webhooks could never arrive.
            allowHttp: config.publicUrl.startsWith('http://'),
            ...overrides.sandbox?.webhooks,
          },
        },
      )
    : null;
  const sandboxShops = sandbox ?? createSandboxShopAdmin(db);
  // Throttling in the log as one line per shop and minute (and, through it, in the metrics).
  const throttleReport = jobs.log ? new ThrottleReport(jobs.log, metrics) : null;
  // One budget per shop across every process (a deployment's workers pace the shop together): in Redis when there is
  // one, else in PostgreSQL; PGlite is one process, whose own estimate is the whole truth.
  const sharedBudget = redis ? redisSharedBudget(redis) : jobs.databaseKind === 'postgres' ? postgresSharedBudget(database.executor) : undefined;
  const storefront = new ShopifyAdapter({
    metrics: throttleReport ?? metrics,
    sharedBudget,
    onSharedBudgetFailure: (err) =>
      jobs.log?.warn({ err }, "the shops' shared cost budget cannot be reached: each process paces the shops on its own until it can"),
  });
  // A shop's access (connector/shop-auth): Shopify's OAuth grants, expiring tokens renewed once per shop across
  // processes, the scopes granted, and the install flow.
  const shopifyOAuth = new ShopifyOAuth();
  const shopAuthRepo = new ShopAuthRepository(db);
  const shopTokens = new ShopTokens({ repo: shopAuthRepo, box: secretBox, auth: shopifyOAuth, log: jobs.log });
  const shopAccess = new ShopAccessService({ repo: shopAuthRepo, tokens: shopTokens, box: secretBox, auth: shopifyOAuth, storefront, log: jobs.log });
  const pimClient = new PimClient({
    allowPrivateNetworks: config.connectorAllowPrivateNetworks,
    publicUrl: config.publicUrl,
    timeoutMs: overrides.pimTimeoutMs,
  });
  const integrationRepo = new IntegrationRepository(db);
  const integrations: IntegrationService = new IntegrationService({
    db,
    integrations: integrationRepo,
    tokens: connectorTokens,
    pim: pimClient,
    box: secretBox,
    // The shop's webhook subscriptions and granted scopes, once connected; `webhooks` is built just below.
    afterConnect: async (integrationId) => {
      await webhooks.subscribeAfterConnect(integrationId);
      await shopAccess.checkScopesAfterConnect(integrationId);
    },
    // Who asks to connect: the organization of a PIM key and secret of this server's (the PIM's own check, in process).
    accounts: {
      organizationOf: async (apiKey, apiSecret) => {
        const verified = await pimAuth.verify(apiKey, apiSecret).catch(() => null);
        return verified?.organization.active ? verified.organization.id : null;
      },
    },
    shops: shopAccess,
  });
  const webhooks: WebhookService = new WebhookService(
    {
      db,
      repo: new WebhookRepository(db),
      mappings: new MappingRepository(db),
      integrations: integrationRepo,
      shopOf: (integrationId) => integrations.storefrontShopOf(integrationId),
      disconnect: (integrationId) => integrations.disconnect(integrationId),
      box: secretBox,
      storefront,
      log: jobs.log,
    },
    {
      secret: webhookSecret,
      callbackUrl: `${config.publicUrl}${WEBHOOK_PATH}`,
      subscribeShopifyShops: config.shopifyApiSecret != null,
      maxAgeSeconds: config.webhookMaxAgeSeconds,
    },
  );
  const settings = new IntegrationSettingsService(integrationRepo, integrations, storefront, {
    reader: pimClient,
    connectionOf: (id) => integrations.pimConnectionOf(id),
  });
  const mappings = new MappingRepository(db);
  const syncStorefront = overrides.syncStorefront ?? storefront;
  // Categories → the shop's custom collections, made as their products are pushed (connector/collections/).
  const collections = new CategoryCollectionService({
    repo: new CategoryCollectionRepository(db),
    storefront,
    integrations,
    pim: pimClient,
    log: jobs.log,
  });
  const push = new PushService({
    db,
    integrations,
    settings,
    pim: pimClient,
    mappings,
    syncLogs: new SyncLogRepository(db),
    storefront: syncStorefront,
    queue: jobs.queue,
    collections,
    metrics,
  });
  /** Jobs of an integration queued or running: a full sync or an adoption starts only when none is. */
  const liveJobs = async (integrationId: number) => {
    const c = await jobs.queue.counts(integrationId);
    return c.pending + c.processing;
  };
  const fullSync = new FullSyncService(
    {
      db,
      repo: new FullSyncRepository(db),
      queue: jobs.queue,
      txExecutor: executorOf,
      liveJobs,
      integrations,
      pim: pimClient,
      mappings,
      syncLogs: new SyncLogRepository(db),
      storefront: syncStorefront,
      settings,
      collections,
      log: jobs.log,
      metrics,
    },
    { bulkThreshold: config.syncBulkThreshold, chunkSize: config.syncBulkChunk, ...overrides.fullSync },
  );
  const deltaRepo = new DeltaSyncRepository(db);
  const statusRepo = new StatusRepository(db);
  const delta = new DeltaSyncService({ db, repo: deltaRepo, integrations, pim: pimClient, mappings, queue: jobs.queue, executorOf });
  // The queues' handlers (a worker node runs them; see jobs/workers.ts). Each part adds its queue's entry here.
  // POST /api/adopt: the shop's products read in one bulk query, matched to the PIM's and linked (connector/adopt/).
  const adoptions = new AdoptionService(
    {
      db,
      repo: new AdoptionRepository(db),
      queue: jobs.queue,
      txExecutor: executorOf,
      liveJobs,
      integrations,
      pim: pimClient,
      mappings,
      storefront,
      // import_unmatched: one catalogue file (our format, written by catalogue-csv) through the PIM's import API.
      importer: new PimCsvImporter(pimClient, catalogueCsvEncoder('ours')),
    },
    overrides.adoption,
  );
  // POST /api/drift: the shop read in one bulk query and compared with what the bridge last wrote (connector/drift/).
  const drift = new DriftService(
    { db, repo: new DriftRepository(db), queue: jobs.queue, txExecutor: executorOf, liveJobs, integrations, storefront },
    overrides.drift,
  );
  const adminService = new AdminService({ organizations: new OrganizationRepository(db), keys: apiKeys, credentials, mediaFiles: media });
  const handlers: JobHandlers = {
    [JOB.syncProduct]: { handler: syncProductHandler({ push, fullSync, log: jobs.log, metrics }), concurrency: config.syncConcurrency },
    // Fan-outs are light (PIM pages, inserts); bulk jobs run up to five per shop (one per slot singletonKey), as Shopify allows.
    [JOB.syncFull]: { handler: fullSyncHandler(fullSync), concurrency: 2 },
    [JOB.syncBulk]: { handler: syncBulkHandler(fullSync), concurrency: 5 },
    // A poll that throws (PIM unreachable) is retried by the queue; the watermark stays where it was.
    // After it, the category collections are compared with the PIM's categories: at once when the PIM changed
    // (a category renamed or deleted touches its products), else at most every 10 minutes.
    [JOB.syncPoll]: {
      handler: async (job) => {
        const polled = await delta.poll(job.data.integrationId);
        await collections
          .reconcile(job.data.integrationId, { ifIdle: polled.seen === 0 })
          .catch((err: unknown) => jobs.log?.warn({ err, integrationId: job.data.integrationId }, 'category collections could not be reconciled'));
      },
      concurrency: 2,
    },
    // One file at a time per worker: an import is CPU and database bound, and its batches lock the rows they write.
    [JOB.catalogueImport]: { handler: importHandler(imports), concurrency: 1 },
    // An adoption waits on the shop's bulk query and the PIM's pages: light, a few at once.
    [JOB.catalogueAdopt]: { handler: adoptionHandler(adoptions), concurrency: 2 },
    // A drift report waits on the shop's bulk query, then compares in memory: light.
    [JOB.catalogueDrift]: { handler: driftHandler(drift), concurrency: 2 },
  };
  const workers = new Workers(
    jobs.queue,
    handlers,
    {
      concurrency: config.syncConcurrency,
      releaseOrphans: jobs.databaseKind === 'pglite',
      // PostgreSQL: a dead worker's jobs are taken over within their lease (SYNC_JOB_EXPIRE_SECONDS) + the reclaim
      // interval; PGlite has only this process (orphans are released at start), so maintenance there only archives.
      maintenanceIntervalSeconds: jobs.databaseKind === 'pglite' ? 300 : 30,
      reclaimIntervalSeconds: jobs.databaseKind === 'pglite' ? 0 : RECLAIM_INTERVAL_SECONDS,
      log: jobs.log,
    },
    new DeltaPoller(deltaRepo, jobs.queue, config.syncPollSeconds, jobs.log),
  );
  return {
    metrics,
    /** Stopped when the app closes (its minute timer). */
    throttleReport,
    /** The job queue (send from anywhere) and this node's workers (started by `serve` for roles worker/all, or by tests). */
    jobs: { queue: jobs.queue, workers, handlers },
    credentials,
    admin: adminService,
    /** Wrong admin and metrics tokens per client address (failures only; shared through Redis like the APIs' limits). */
    tokenLimiters: {
      admin: createRateLimiter({ name: 'admin-auth', points: config.adminAuthRateLimit, durationSeconds: 60, redis }),
      metrics: createRateLimiter({ name: 'metrics-auth', points: config.adminAuthRateLimit, durationSeconds: 60, redis }),
    },
    organizations: new OrganizationRepository(db),
    shops: new ShopService(
      {
        shops: new ShopRegistryRepository(db),
        organizations: new OrganizationRepository(db),
        grants: shopifyOAuth,
        box: secretBox,
        sandbox: sandboxShops.stores,
        // POST /admin/shops/{id}/sandbox/publications
        sandboxPublications: sandboxShops.publications,
      },
      { publicUrl: config.publicUrl, sandboxEnabled: config.shopifySandbox },
    ),
    /** The connector's StorefrontPort (Shopify Admin GraphQL; the sandbox answers it too). */
    storefront,
    /** The built-in Shopify sandbox (null when config.shopifySandbox is off): its stores, GraphQL endpoint and routes. */
    sandbox,
    connector: {
      pimClient,
      webhooks,
      auth: new ConnectorAuthService(
        connectorTokens,
        createRateLimiter({ name: 'connector-auth', points: config.authRateLimit, durationSeconds: 60, redis }),
        createRateLimiter({ name: 'connector-public', points: config.connectorPublicRateLimit, durationSeconds: 60, redis }),
      ),
      integrations,
      shopAccess,
      installs: new ShopInstallService(
        {
          repo: shopAuthRepo,
          tokens: shopTokens,
          box: secretBox,
          auth: shopifyOAuth,
          storefront,
          appFor: async (domain): Promise<InstallApp | null> => {
            // A sandbox store has an app of its own; any other shop installs the Pimbridge app (SHOPIFY_API_KEY/SECRET).
            const store = sandbox ? await sandbox.stores.appOf(domain) : null;
            if (store) return { app: store, platform: 'sandbox', apiBaseUrl: `${config.publicUrl}/sandbox/shopify/${domain}` };
            if (config.shopifyApiKey && config.shopifyApiSecret)
              return { app: { clientId: config.shopifyApiKey, clientSecret: config.shopifyApiSecret }, platform: 'shopify', apiBaseUrl: null };
            return null;
          },
          connect: (input, proof) => integrations.connect(input, proof),
          integrationOf: (shopId) => integrationRepo.findByShop(shopId),
          mintPimKey: async (organizationId, name) => {
            const key = await adminService.createApiKey(organizationId, name);
            return { apiKey: key.api_key, apiSecret: key.api_secret };
          },
        },
        { publicUrl: config.publicUrl },
      ),
      settings,
      push,
      fullSync,
      delta,
      adoptions,
      drift,
      collections,
      console: new ConsoleAccess(integrations, (integrationId) => shopAccess.viewForIntegration(integrationId)),
      mappings: new MappingService(mappings),
      // GET /api/status's live checks: 3 s timeouts, results cached 30 s on the integration row.
      status: new StatusService({
        repository: statusRepo,
        connectivity: new ConnectivityChecker({
          repository: statusRepo,
          secretBox,
          storefront,
          shops: shopAccess,
          pim: new PimClientProbe(new PimClient({ allowPrivateNetworks: config.connectorAllowPrivateNetworks, publicUrl: config.publicUrl, timeoutMs: 3_000 })),
        }),
        queue: new JobQueueStats(jobs.queue),
        ping: () => statusRepo.ping(),
        access: (integrationId) => shopAccess.viewForIntegration(integrationId),
      }),
    },
    pim: {
      auth: pimAuth,
      /** The console's sign-in (a cookie session standing for the organization's key). */
      sessions: new SessionService(pimAuth, new SessionRepository(db), config.consoleSessionHours * 3_600_000),
      readLimiter: createRateLimiter({ name: 'pim-read', points: config.pimRateLimitRead, durationSeconds: 60, redis }),
      writeLimiter: createRateLimiter({ name: 'pim-write', points: config.pimRateLimitWrite, durationSeconds: 60, redis }),
      products: new ProductService({ db, products, attributes, stock }),
      imageSearch: new ImageSearchService(new ImageSearchRepository(db), products),
      attributes,
      warehouses: new WarehouseService(db, new WarehouseRepository(db), stockLevels),
      stock,
      variants: new VariantService(db, new VariantRepository(db), products),
      categories: new CategoryService(db, new CategoryRepository(db), products),
      media,
      channels: new ChannelService(new ChannelRepository(db)),
      organization: new OrganizationSettingsRepository(db),
      brands: new NamedListService(db, new NamedListRepository(db, 'brand'), 'brand'),
      suppliers: new NamedListService(db, new NamedListRepository(db, 'supplier'), 'supplier'),
      vatRates: new VatRateService(db, new VatRateRepository(db)),
      catalogueFiles: { imports, exports: new ExportService(catalogue), maxBytes: config.importMaxBytes },
    },
  };
}
