// Wires repositories into services. Each service receives only what it uses.
import type { Redis } from 'ioredis';
import { AdminService } from '../admin/admin.service.js';
import { ApiKeyRepository } from '../admin/api-key.repository.js';
import { OrganizationRepository } from '../admin/organization.repository.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { brands, suppliers } from '../db/schema/index.js';
import { ApiKeyAuthService } from '../pim/auth/api-key-auth.service.js';
import { CredentialCache } from '../pim/auth/credential-cache.js';
import { ChannelRepository } from '../pim/channels/channel.repository.js';
import { ChannelService } from '../pim/channels/channel.service.js';
import { ProductRepository } from '../pim/products/product.repository.js';
import { ProductService } from '../pim/products/product.service.js';
import { NamedListRepository, VatRateRepository } from '../pim/reference/reference.repository.js';
import { NamedListService, VatRateService } from '../pim/reference/reference.service.js';
import { VariantRepository } from '../pim/variants/variant.repository.js';
import { VariantService } from '../pim/variants/variant.service.js';
import { createRateLimiter } from './rate-limiter.js';

export type Services = ReturnType<typeof createServices>;

export function createServices(config: Pick<Config, 'pimRateLimitRead' | 'pimRateLimitWrite'>, db: Db, redis: Redis | null) {
  const apiKeys = new ApiKeyRepository(db);
  const credentials = new CredentialCache(redis);
  const products = new ProductRepository(db);
  return {
    credentials,
    admin: new AdminService(new OrganizationRepository(db), apiKeys, credentials),
    organizations: new OrganizationRepository(db),
    pim: {
      auth: new ApiKeyAuthService(apiKeys, credentials),
      readLimiter: createRateLimiter({ name: 'pim-read', points: config.pimRateLimitRead, durationSeconds: 60, redis }),
      writeLimiter: createRateLimiter({ name: 'pim-write', points: config.pimRateLimitWrite, durationSeconds: 60, redis }),
      products: new ProductService(db, products),
      variants: new VariantService(db, new VariantRepository(db), products),
      channels: new ChannelService(new ChannelRepository(db)),
      brands: new NamedListService(new NamedListRepository(db, brands), 'brand'),
      suppliers: new NamedListService(new NamedListRepository(db, suppliers), 'supplier'),
      vatRates: new VatRateService(new VatRateRepository(db)),
    },
  };
}
