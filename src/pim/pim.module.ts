// The PIM as a module: its repositories built here and passed into its services, its HTTP scopes (the PIM core API, the
// console's sign-in, the public media files) and its job handler (catalogue imports). The app builds it with the
// platform's database, Redis and queue, and the admin API's key repository (the PIM verifies the keys the admin issues).
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { ApiKeyRepository } from '../admin/api-key.repository.js';
import type { Db } from '../db/client.js';
import type { App } from '../http/app-type.js';
import { secureCookies } from '../http/secure-cookies.js';
import { JOB } from '../jobs/job-types.js';
import type { PgBossQueue } from '../jobs/queue.js';
import type { JobHandlers } from '../jobs/workers.js';
import { anyAddress, publicAddressesOnly } from '../lib/address-policy.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import { SafeDownloader } from '../lib/safe-download.js';
import { AttributeRepository } from './attributes/attribute.repository.js';
import { AttributeService } from './attributes/attribute.service.js';
import { ApiKeyAuthService } from './auth/api-key-auth.service.js';
import { CredentialCache } from './auth/credential-cache.js';
import { CatalogueRepository } from './catalogue-files/catalogue.repository.js';
import { ExportService } from './catalogue-files/export.service.js';
import { importHandler } from './catalogue-files/import.handler.js';
import { ImportRepository } from './catalogue-files/import.repository.js';
import { ImportJob } from './catalogue-files/import-job.js';
import { ImportService } from './catalogue-files/import.service.js';
import { CategoryRepository } from './categories/category.repository.js';
import { CategoryService } from './categories/category.service.js';
import { ChannelRepository } from './channels/channel.repository.js';
import { ChannelService } from './channels/channel.service.js';
import { CompletenessRepository } from './completeness/completeness.repository.js';
import { CompletenessService } from './completeness/completeness.service.js';
import { HistoryRepository } from './history/history.repository.js';
import { HistoryService } from './history/history.service.js';
import { ImageSearchRepository } from './image-search/image-search.repository.js';
import { ImageSearchService } from './image-search/image-search.service.js';
import { MediaRepository } from './media/media.repository.js';
import { mediaFileRoutes } from './media/media.routes.js';
import { MediaService } from './media/media.service.js';
import { FileMediaStorage } from './media/storage.js';
import { OrganizationSettingsRepository } from './organization/organization.repository.js';
import { pimPlugin, sendPimError } from './pim.plugin.js';
import { PimErrorEnvelope } from './pim.schemas.js';
import { ProductWithIncludes } from './products/product-with-includes.schema.js';
import { ProductRepository } from './products/product.repository.js';
import { Product } from './products/product.schemas.js';
import { ProductService } from './products/product.service.js';
import { NamedListRepository, VatRateRepository } from './reference/reference.repository.js';
import { NamedListService, VatRateService } from './reference/reference.service.js';
import { SessionRepository } from './session/session.repository.js';
import { installSessionHook, sessionRoutes } from './session/session.routes.js';
import { SessionService } from './session/session.service.js';
import { StockRepository } from './stock/stock.repository.js';
import { StockService } from './stock/stock.service.js';
import { VariantStockRepository } from './stock/variant-stock.repository.js';
import { VariantRepository } from './variants/variant.repository.js';
import { Variant } from './variants/variant.schemas.js';
import { VariantService } from './variants/variant.service.js';
import { WarehouseRepository } from './warehouses/warehouse.repository.js';
import { WarehouseService } from './warehouses/warehouse.service.js';
import { createWorkbench } from './workbench/workbench.js';
import { CatalogueChanges } from './changes/catalogue-changes.js';
import type { Notifications } from '../db/notifications.js';

export { sendPimError } from './pim.plugin.js';

/** The settings the PIM reads (named as in the app's config, which is passed as is). */
export interface PimSettings {
  publicUrl: string;
  dataDir: string;
  mediaAllowPrivateNetworks: boolean;
  mediaDownloadConcurrency: number;
  mediaQuotaBytes: number;
  importMaxBytes: number;
  pimRateLimitRead: number;
  pimRateLimitWrite: number;
  consoleSessionHours: number;
}

export interface PimModuleDeps {
  db: Db;
  /** LISTEN/NOTIFY: the catalogue's changes told to every process (changes/catalogue-changes.ts). */
  notifications: Pick<Notifications, 'listen'>;
  /** Rate limits and the credential cache's invalidations are shared through Redis when there is one. */
  redis: Redis | null;
  queue: PgBossQueue;
  /** The API keys the admin API issues (admin/api-key.repository.ts). */
  keys: ApiKeyRepository;
}

export type PimModule = ReturnType<typeof createPim>;

/** The catalogue's CSV files: the upload and its reads, the import job (it records history and tells the changes), the export. */
function catalogueFileServices(
  { db, queue }: Pick<PimModuleDeps, 'db' | 'queue'>,
  { media, history, changes, mediaUrl }: { media: MediaService; history: HistoryRepository; changes: CatalogueChanges; mediaUrl: string },
  settings: PimSettings,
) {
  const catalogue = new CatalogueRepository(db, mediaUrl);
  const importRepo = new ImportRepository(db);
  const directory = path.join(settings.dataDir, 'imports');
  const imports = new ImportService({ db, imports: importRepo, queue }, { directory, maxBytes: settings.importMaxBytes });
  const importJob = new ImportJob({ db, imports: importRepo, catalogue, media, changes, history }, directory);
  return { imports, importJob, exports: new ExportService(catalogue), maxBytes: settings.importMaxBytes };
}

export function createPim({ db, redis, queue, keys, notifications }: PimModuleDeps, settings: PimSettings) {
  const mediaUrl = `${settings.publicUrl}/media/`;
  const credentials = new CredentialCache(redis);
  const auth = new ApiKeyAuthService(keys, credentials);
  const products = new ProductRepository(db, mediaUrl);
  const history = new HistoryRepository(db);
  const media = new MediaService(
    {
      db,
      media: new MediaRepository(db),
      products,
      storage: new FileMediaStorage(path.join(settings.dataDir, 'media')),
      downloader: new SafeDownloader({ addressPolicy: settings.mediaAllowPrivateNetworks ? anyAddress : publicAddressesOnly }),
      history,
    },
    { publicUrl: settings.publicUrl, downloadConcurrency: settings.mediaDownloadConcurrency, quotaBytes: settings.mediaQuotaBytes },
  );
  const [stockLevels, variantLevels] = [new StockRepository(db), new VariantStockRepository(db)];
  const changes = new CatalogueChanges(db, notifications);
  const catalogueFiles = catalogueFileServices({ db, queue }, { media, history, changes, mediaUrl }, settings);
  const attributes = new AttributeService(db, new AttributeRepository(db));
  const stock = new StockService(db, stockLevels, variantLevels, products, history);
  const productService = new ProductService({ db, products, attributes, stock, history });
  const writeLimiter = createRateLimiter({ name: 'pim-write', points: settings.pimRateLimitWrite, durationSeconds: 60, redis });
  const services = {
    auth,
    /** The console's sign-in (a cookie session standing for the organization's key). */
    sessions: new SessionService(auth, new SessionRepository(db), settings.consoleSessionHours * 3_600_000),
    readLimiter: createRateLimiter({ name: 'pim-read', points: settings.pimRateLimitRead, durationSeconds: 60, redis }),
    writeLimiter,
    products: productService,
    history: new HistoryService({ history, products: productService, stock, keys }),
    imageSearch: new ImageSearchService(new ImageSearchRepository(db), products),
    attributes,
    warehouses: new WarehouseService(db, new WarehouseRepository(db), stockLevels, variantLevels),
    stock,
    variants: new VariantService(db, new VariantRepository(db), products, stock, history),
    categories: new CategoryService(db, new CategoryRepository(db), products),
    media,
    channels: new ChannelService(new ChannelRepository(db)),
    completeness: new CompletenessService(new CompletenessRepository(db)),
    organization: new OrganizationSettingsRepository(db),
    brands: new NamedListService(db, new NamedListRepository(db, 'brand'), 'brand'),
    suppliers: new NamedListService(db, new NamedListRepository(db, 'supplier'), 'supplier'),
    vatRates: new VatRateService(db, new VatRateRepository(db)),
    catalogueFiles,
    changes,
    workbench: createWorkbench(db, history),
  };
  const handlers: JobHandlers = {
    // One file at a time per worker: an import is CPU and database bound, and its batches lock the rows they write.
    [JOB.catalogueImport]: { handler: importHandler(catalogueFiles.importJob), concurrency: 1 },
  };
  const secure = secureCookies(settings.publicUrl);
  return {
    services,
    /** Cleared by the admin API when a key is revoked or an organization deactivated; listens to other nodes' clearings. */
    credentials,
    handlers,
    /** The schemas other scopes' answers refer to by id. */
    sharedSchemas: [PimErrorEnvelope, Product, Variant, ProductWithIncludes],
    /** On the root, before any scope: a console cookie on an /api request stands for its organization (every API reads it). */
    installHooks(app: App): void {
      installSessionHook(app, services.sessions);
    },
    async routes(app: App): Promise<void> {
      await app.register(async (scope) => pimPlugin(scope as App, services));
      // The console's sign-in (/api/session): a scope of its own, without the PIM's key check.
      await app.register(async (scope) => {
        scope.setErrorHandler(sendPimError);
        sessionRoutes(scope as App, { sessions: services.sessions, limiter: writeLimiter, ttlSeconds: settings.consoleSessionHours * 3600, secure });
      });
      // Public, outside the PIM scope (no API key, no rate limit): storefronts fetch product images by URL.
      await app.register(async (scope) => {
        scope.setErrorHandler(sendPimError);
        mediaFileRoutes(scope as App, media);
      });
    },
  };
}
