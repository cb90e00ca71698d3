// The composition root: wires the modules together, each built by its own module file (pim, admin, connector, the
// Shopify adapter, the sandbox), and builds the node's workers over their job handlers. Nothing of a module is built
// here, and nothing twice.
//
// One style of composition: every collaborator comes in through the constructor, never assigned afterwards. A service
// with more than three collaborators takes them as one dependency object (`new FullSyncService({ db, repo, queue, … },
// options)`), settings apart in an options object; smaller ones take them positionally. Named fields cannot be swapped
// by mistake, optional ones (a clock, metrics) need no placeholder arguments, and a test builds the service with its
// doubles by name. Doubles for the app as a whole (a storefront, short polls) go in through `overrides` here, at
// construction, never into the built services' fields.
import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type AdminModule, createAdmin } from '../admin/admin.module.js';
import type { Config } from '../config.js';
import { type ConnectorOverrides, createConnector, type InstallApp } from '../connector/connector.module.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../jobs/job-runner.js';
import type { PgBossQueue } from '../jobs/queue.js';
import { Workers } from '../jobs/workers.js';
import type { Metrics } from '../lib/metrics.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import { SecretBox } from '../lib/secret-box.js';
import { createPim, type PimModule } from '../pim/pim.module.js';
import { createSandbox, createSandboxShopAdmin, type Sandbox, type SandboxGraphqlOptions } from '../sandbox/sandbox.module.js';
import { createShopify } from '../storefront/shopify/shopify.module.js';

export type Services = ReturnType<typeof createServices>;

/** Collaborators and settings put in place of the defaults when the services are built (tests, benchmarks). */
export interface ServiceOverrides extends ConnectorOverrides {
  /** The built-in Shopify sandbox's GraphQL service (its clock, its bulk runner's pause and upload cap). */
  sandbox?: SandboxGraphqlOptions;
}

/** How often a worker node takes over the jobs of dead workers (jobs/workers.ts), on PostgreSQL. */
const RECLAIM_INTERVAL_SECONDS = 3;

export interface ServiceDeps {
  config: Readonly<Config>;
  /** The platform's database: its Drizzle handle, and for the sandbox the owners' locks and the pool's size. */
  database: Pick<Database, 'db' | 'locks' | 'poolUse' | 'executor' | 'kind' | 'notifications'>;
  redis: Redis | null;
  queue: PgBossQueue;
  /** Where the connector and the Shopify adapter count what they do (GET /metrics). */
  metrics: Metrics;
  log?: Logger & { info(obj: object, msg: string): void };
}

export function createServices({ config, database, redis, queue, metrics, log }: ServiceDeps, overrides: ServiceOverrides = {}) {
  const box = new SecretBox(config.encryptionKey);
  // The app's client secret webhooks are signed with: SHOPIFY_API_SECRET, else one derived from ENCRYPTION_KEY (then
  // only sandbox shops are subscribed; the sandbox signs its deliveries with the same).
  const webhookSecret = config.shopifyApiSecret ?? createHmac('sha256', config.encryptionKey).update('pimbridge:shopify-webhooks').digest('base64url');
  const sandbox = sandboxModule(config, database, webhookSecret, overrides);
  const shopify = createShopify({ metrics, redis, postgres: database.kind === 'postgres' ? database.executor : null, log });
  const { connector, admin, pim } = composeModules({ config, database, redis, queue, box, shopify, sandbox, webhookSecret, metrics, log }, overrides);
  const handlers = { ...pim.handlers, ...connector.handlers };
  const workers = nodeWorkers(config, database, queue, handlers, connector.deltaTicker, log);
  return {
    metrics,
    /** Stopped when the app closes (its minute timer). */
    throttleReport: shopify.throttleReport,
    /** The job queue (send from anywhere) and this node's workers (started by `serve` for roles worker/all, or by tests). */
    jobs: { queue, workers, handlers },
    credentials: pim.credentials,
    admin: admin.admin,
    /** Wrong metrics tokens per client address (failures only; shared through Redis like the APIs' limits). */
    metricsTokenLimiter: createRateLimiter({ name: 'metrics-auth', points: config.adminAuthRateLimit, durationSeconds: 60, redis }),
    organizations: admin.organizations,
    shops: admin.shops,
    /** The connector's StorefrontPort (Shopify Admin GraphQL; the sandbox answers it too). */
    storefront: shopify.storefront,
    /** The built-in Shopify sandbox (null when config.shopifySandbox is off): its stores, GraphQL endpoint and routes. */
    sandbox,
    connector: connector.services,
    pim: pim.services,
    /** Each module's part of the app: buildApp registers their routes; start-up runs their backfills. */
    modules: { admin, pim, connector },
  };
}

/**
 * The built-in Shopify sandbox, a module mounted only when it is on (null when off). Off, the admin API keeps its side
 * for sandbox shops made while it was on (removing them removes their store, as before).
 */
function sandboxModule(config: Readonly<Config>, database: ServiceDeps['database'], webhookSecret: string, overrides: ServiceOverrides): Sandbox | null {
  return config.shopifySandbox
    ? createSandbox(
        { db: database.db, locks: database.locks, poolSize: database.poolUse?.().max },
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
}

/** What the three modules are built from: the platform's, and the pieces createServices made first. */
interface ModuleDeps extends ServiceDeps {
  box: SecretBox;
  shopify: ReturnType<typeof createShopify>;
  sandbox: Sandbox | null;
  webhookSecret: string;
}

/** The connector, the admin API and the PIM, wired to one another. */
function composeModules({ config, database, redis, queue, box, shopify, sandbox, webhookSecret, metrics, log }: ModuleDeps, overrides: ServiceOverrides) {
  const { db } = database;
  // The modules need each other at run time: the connector asks the PIM who owns a key and the admin API for a new one;
  // the admin API clears the PIM's credential cache and releases an organization's media files; the PIM verifies the
  // keys the admin issues. So they are built connector, admin, PIM, and the calls into a module built later are bound
  // late (made only when a request or a job runs, long after all three exist).
  let admin: AdminModule | undefined;
  let pim: PimModule | undefined;
  const built = <T>(module: T | undefined): T => module as T;
  const connector = createConnector(
    {
      db,
      redis,
      queue,
      box,
      storefront: shopify.storefront,
      storefrontAuth: shopify.oauth,
      webhookSecret,
      // Who asks to connect: the organization of a PIM key and secret of this server's (the PIM's own check, in process).
      accounts: {
        organizationOf: async (apiKey, apiSecret) => {
          const verified = await built(pim)
            .services.auth.verify(apiKey, apiSecret)
            .catch(() => null);
          return verified?.organization.active ? verified.organization.id : null;
        },
      },
      mintPimKey: async (organizationId, name) => {
        const key = await built(admin).admin.createApiKey(organizationId, name);
        return { apiKey: key.api_key, apiSecret: key.api_secret };
      },
      appFor: (domain) => installAppFor(domain, config, sandbox),
      metrics,
      log,
      notifications: database.notifications,
      // This server's PIM tells its catalogue's changes: the delta sync of the organization's integrations runs at once.
      catalogueChanges: {
        feed: { subscribe: (handler) => built(pim).services.changes.subscribe(handler) },
        keyHashesOf: (organizationId) => built(admin).keys.organizationKeyHashes(organizationId),
      },
    },
    config,
    overrides,
  );
  admin = createAdmin(
    {
      db,
      redis,
      box,
      shops: connector.shopRegistry,
      credentials: {
        invalidateKey: (keyHash) => built(pim).credentials.invalidateKey(keyHash),
        invalidateOrganization: (id) => built(pim).credentials.invalidateOrganization(id),
      },
      mediaFiles: {
        storageKeysOf: (tx, organizationId) => built(pim).services.media.storageKeysOf(tx, organizationId),
        releaseFiles: (storageKeys) => built(pim).services.media.releaseFiles(storageKeys),
      },
      grants: shopify.oauth,
      sandbox: sandbox ?? createSandboxShopAdmin(db),
    },
    config,
  );
  pim = createPim({ db, redis, queue, keys: admin.keys, notifications: database.notifications }, config);
  return { connector, admin, pim };
}

/** This node's workers over the modules' job handlers, and the delta-sync ticker. */
function nodeWorkers(
  config: Readonly<Config>,
  database: ServiceDeps['database'],
  queue: PgBossQueue,
  handlers: ConstructorParameters<typeof Workers>[1],
  deltaTicker: ConstructorParameters<typeof Workers>[3],
  log: ServiceDeps['log'],
): Workers {
  const pglite = database.kind === 'pglite';
  return new Workers(
    queue,
    handlers,
    {
      concurrency: config.syncConcurrency,
      releaseOrphans: pglite,
      // PostgreSQL: a dead worker's jobs are taken over within their lease (SYNC_JOB_EXPIRE_SECONDS) + the reclaim
      // interval; PGlite has only this process (orphans are released at start), so maintenance there only archives.
      maintenanceIntervalSeconds: pglite ? 300 : 30,
      reclaimIntervalSeconds: pglite ? 0 : RECLAIM_INTERVAL_SECONDS,
      log,
    },
    deltaTicker,
  );
}

/** The app a shop installs: a sandbox store has an app of its own; any other shop the Pimbridge app (SHOPIFY_API_KEY/SECRET). */
async function installAppFor(
  domain: string,
  config: Pick<Config, 'publicUrl' | 'shopifyApiKey' | 'shopifyApiSecret'>,
  sandbox: Sandbox | null,
): Promise<InstallApp | null> {
  const store = sandbox ? await sandbox.stores.appOf(domain) : null;
  if (store) return { app: store, platform: 'sandbox', apiBaseUrl: `${config.publicUrl}${sandbox?.prefix}/${domain}` };
  if (config.shopifyApiKey && config.shopifyApiSecret)
    return { app: { clientId: config.shopifyApiKey, clientSecret: config.shopifyApiSecret }, platform: 'shopify', apiBaseUrl: null };
  return null;
}
