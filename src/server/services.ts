// Wires repositories into services. Each service receives only what it uses.
import type { Redis } from 'ioredis';
import path from 'node:path';
import { AdminService } from '../admin/admin.service.js';
import { ApiKeyRepository } from '../admin/api-key.repository.js';
import { OrganizationRepository } from '../admin/organization.repository.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { brands, suppliers } from '../db/schema/index.js';
import { AttributeRepository } from '../pim/attributes/attribute.repository.js';
import { AttributeService } from '../pim/attributes/attribute.service.js';
import { ApiKeyAuthService } from '../pim/auth/api-key-auth.service.js';
import { CredentialCache } from '../pim/auth/credential-cache.js';
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
import { StockService } from '../pim/stock/stock.service.js';
import { WarehouseRepository } from '../pim/warehouses/warehouse.repository.js';
import { WarehouseService } from '../pim/warehouses/warehouse.service.js';
import { anyAddress, publicAddressesOnly } from '../lib/address-policy.js';
import { SafeDownloader } from '../lib/safe-download.js';
import { createRateLimiter } from './rate-limiter.js';

export type Services = ReturnType<typeof createServices>;

export function createServices(
  config: Pick<Config, 'pimRateLimitRead' | 'pimRateLimitWrite' | 'publicUrl' | 'dataDir' | 'mediaAllowPrivateNetworks'>,
  db: Db,
  redis: Redis | null,
) {
  const apiKeys = new ApiKeyRepository(db);
  const credentials = new CredentialCache(redis);
  const products = new ProductRepository(db, `${config.publicUrl}/media/`);
  const mediaDownloader = new SafeDownloader({ addressPolicy: config.mediaAllowPrivateNetworks ? anyAddress : publicAddressesOnly });
  const stockLevels = new StockRepository(db);
  const attributes = new AttributeService(db, new AttributeRepository(db));
  const stock = new StockService(db, stockLevels, products);
  return {
    credentials,
    admin: new AdminService(new OrganizationRepository(db), apiKeys, credentials),
    organizations: new OrganizationRepository(db),
    pim: {
      auth: new ApiKeyAuthService(apiKeys, credentials),
      readLimiter: createRateLimiter({ name: 'pim-read', points: config.pimRateLimitRead, durationSeconds: 60, redis }),
      writeLimiter: createRateLimiter({ name: 'pim-write', points: config.pimRateLimitWrite, durationSeconds: 60, redis }),
      products: new ProductService(db, products, attributes, stock),
      imageSearch: new ImageSearchService(new ImageSearchRepository(db), products),
      attributes,
      warehouses: new WarehouseService(db, new WarehouseRepository(db), stockLevels),
      stock,
      variants: new VariantService(db, new VariantRepository(db), products),
      categories: new CategoryService(db, new CategoryRepository(db), products),
      media: new MediaService(db, new MediaRepository(db), products, new FileMediaStorage(path.join(config.dataDir, 'media')), mediaDownloader, {
        publicUrl: config.publicUrl,
      }),
      channels: new ChannelService(new ChannelRepository(db)),
      brands: new NamedListService(new NamedListRepository(db, brands), 'brand'),
      suppliers: new NamedListService(new NamedListRepository(db, suppliers), 'supplier'),
      vatRates: new VatRateService(new VatRateRepository(db)),
    },
  };
}
