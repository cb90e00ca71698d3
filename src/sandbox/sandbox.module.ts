// The built-in Shopify sandbox as a module: its composition (repositories built here and passed into its services),
// its HTTP scope, and its own schema and migrations. The app mounts it only when the sandbox is on (config
// SHOPIFY_SANDBOX): `createSandbox` with the database and locks the platform gives every module, the migrations in
// `sandboxMigrations` applied where it runs. This file is the module's face to the app (.dependency-cruiser.cjs); the
// admin API sees only the types of sandbox-store.service.ts.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Locks } from '../db/advisory-locks.js';
import type { Db } from '../db/client.js';
import type { MigrationSet } from '../db/migration-set.js';
import { projectRoot } from '../paths.js';
import { SandboxBulkRepository } from './bulk-operation.repository.js';
import { SandboxBulkService } from './bulk-operation.service.js';
import { SandboxCollectionRepository } from './sandbox-collection.repository.js';
import { SandboxCollectionService } from './sandbox-collection.service.js';
import { SandboxTranslationRepository } from './sandbox-translation.repository.js';
import { SandboxTranslationService } from './sandbox-translation.service.js';
import { SandboxGraphqlService, type SandboxGraphqlOptions } from './sandbox-graphql.service.js';
import { SandboxInventoryRepository } from './sandbox-inventory.repository.js';
import { SandboxInventoryService } from './sandbox-inventory.service.js';
import { SandboxMediaRepository } from './sandbox-media.repository.js';
import { SandboxMediaService } from './sandbox-media.service.js';
import { SandboxMerchantEditService } from './sandbox-merchant-edits.service.js';
import { SandboxOauthRepository } from './sandbox-oauth.repository.js';
import { SandboxOauthService } from './sandbox-oauth.service.js';
import { SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import { SandboxProductRepository } from './sandbox-product.repository.js';
import { SandboxProductService } from './sandbox-product.service.js';
import { SandboxPublicationRepository } from './sandbox-publication.repository.js';
import { SandboxPublicationService } from './sandbox-publication.service.js';
import { SandboxStoreRepository } from './sandbox-store.repository.js';
import { SandboxStoreService } from './sandbox-store.service.js';
import { SANDBOX_PREFIX, sandboxRoutes } from './sandbox.routes.js';
import { SandboxWebhookRepository } from './sandbox-webhooks.repository.js';
import { SandboxWebhookService } from './sandbox-webhooks.service.js';

export { SANDBOX_PREFIX } from './sandbox.routes.js';
export { NOT_FOUND_BODY, type SandboxGraphqlOptions } from './sandbox-graphql.service.js';

/**
 * The sandbox's migrations (./migrations, drizzle.sandbox.config.ts), recorded in drizzle.__drizzle_migrations_sandbox
 * apart from the production ones. Their first one creates the tables only where they are missing (a database migrated
 * by a release whose production migrations still made them ends up the same as a new one; docs/architecture.md).
 */
export const sandboxMigrations: MigrationSet = {
  migrationsFolder: path.join(projectRoot, 'src', 'sandbox', 'migrations'),
  migrationsTable: '__drizzle_migrations_sandbox',
};

/** What the platform gives the sandbox: its database, the owners' locks of its bulk operations, the pool's size. */
export interface SandboxDeps {
  db: Db;
  locks: Locks<Db>;
  /** The database's connection pool size (PostgreSQL); absent on PGlite, which runs one statement at a time. */
  poolSize?: number;
}

/** The admin API's side of the sandbox (sandbox shops: their stores, throttle and faults, publications). */
export interface SandboxShopAdmin {
  stores: SandboxStoreService;
  publications: SandboxPublicationService;
}

export interface Sandbox extends SandboxShopAdmin {
  /** The Admin GraphQL endpoint and what it runs (bulk operations, media). */
  graphql: SandboxGraphqlService;
  /** Its HTTP scope, registered with `{ prefix: SANDBOX_PREFIX }`. */
  routes(scope: FastifyInstance): Promise<void>;
  prefix: typeof SANDBOX_PREFIX;
}

/**
 * The admin API's side alone, for an app whose sandbox is off: sandbox shops made while it was on can still be removed
 * (with their store), configured and given publications, as before the sandbox was a module of its own. It touches the
 * sandbox's tables only for such shops, which exist only where the sandbox ran (and so its tables are there).
 */
export function createSandboxShopAdmin(db: Db): SandboxShopAdmin {
  const storeRepo = new SandboxStoreRepository(db);
  return {
    stores: new SandboxStoreService(storeRepo),
    publications: new SandboxPublicationService({
      db,
      repo: new SandboxPublicationRepository(db),
      products: new SandboxProductRepository(db),
      stores: storeRepo,
    }),
  };
}

/** The whole sandbox: repositories, services, the GraphQL endpoint and its routes. */
export function createSandbox(deps: SandboxDeps, options: SandboxGraphqlOptions = {}): Sandbox {
  const { db, locks } = deps;
  const storeRepo = new SandboxStoreRepository(db);
  const stores = new SandboxStoreService(storeRepo);
  const productRepo = new SandboxProductRepository(db);
  const metafieldRepo = new SandboxMetafieldRepository(db);
  const media = new SandboxMediaService(new SandboxMediaRepository(db));
  const products = new SandboxProductService(db, productRepo, metafieldRepo, media);
  stores.onLocationsAdded((storeId) => products.forgetLocations(storeId));
  const publications = new SandboxPublicationService({ db, repo: new SandboxPublicationRepository(db), products: productRepo, stores: storeRepo });
  const bulk = new SandboxBulkService(
    { db, repo: new SandboxBulkRepository(db), locks },
    // Lines at once: PostgreSQL overlaps their round trips and commits, on half the pool at most so that the API keeps
    // connections while a run is on; PGlite runs one statement at a time anyway.
    { concurrency: deps.poolSize ? Math.max(1, Math.min(8, Math.floor(deps.poolSize / 2))) : 1, ...options.bulk },
  );
  // Each store signs its deliveries with its own app's client secret (docs/sandbox/oauth.md).
  const webhooks = new SandboxWebhookService(new SandboxWebhookRepository(db), { ...options.webhooks });
  // The stores' apps: OAuth grants and tokens; the default redirect URL is on this server (PUBLIC_URL).
  const oauth = new SandboxOauthService(new SandboxOauthRepository(db), { ownOrigin: options.webhooks?.ownOrigin, now: options.now });
  const graphql = new SandboxGraphqlService(
    {
      webhooks,
      stores,
      db,
      productRepo,
      metafieldRepo,
      products,
      publications,
      collections: new SandboxCollectionService(db, new SandboxCollectionRepository(db), publications),
      translations: new SandboxTranslationService(new SandboxTranslationRepository(db), (storeId, id) => productRepo.product(storeId, id)),
      merchantEdits: new SandboxMerchantEditService(db, productRepo, metafieldRepo),
      inventory: new SandboxInventoryService(db, new SandboxInventoryRepository(db)),
      media,
      bulk,
      oauth,
    },
    { now: options.now, holdMs: options.holdMs },
  );
  return { stores, publications, graphql, routes: (scope) => sandboxRoutes(scope, graphql), prefix: SANDBOX_PREFIX };
}
