// The operator API as a module: organizations, their PIM API keys and the shops the connector may link, with their
// repositories built here. It needs two things of the PIM (the credential cache it clears, the media files an
// organization's deletion releases), the connector's registry of shops and the sandbox's side for sandbox shops: the
// app passes them in.
import type { Redis } from 'ioredis';
import type { Db } from '../db/client.js';
import type { App } from '../http/app-type.js';
import { createRateLimiter } from '../lib/rate-limiter.js';
import type { SecretBox } from '../lib/secret-box.js';
import type { ShopRegistryRepository } from '../connector/shop-auth/shop-registry.repository.js';
import { adminPlugin } from './admin.routes.js';
import { AdminService, type CredentialInvalidation, type MediaFiles } from './admin.service.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { OrganizationRepository } from './organization.repository.js';
import { type ClientCredentialsGrant, type SandboxPublications, type SandboxStores, ShopService } from './shop.service.js';

export { AdminError } from './admin.schemas.js';
export { sendAdminError } from './admin.routes.js';

/** The settings the admin API reads (named as in the app's config, which is passed as is). */
export interface AdminSettings {
  adminToken: string;
  adminAuthRateLimit: number;
  publicUrl: string;
  shopifySandbox: boolean;
}

export interface AdminModuleDeps {
  db: Db;
  redis: Redis | null;
  box: SecretBox;
  /** The connector's registry of shops (the `shops` table is the connector's). */
  shops: ShopRegistryRepository;
  credentials: CredentialInvalidation;
  mediaFiles: MediaFiles;
  /** Shopify's client-credentials grant (a shop registered with its app's id and secret gets its token so). */
  grants: ClientCredentialsGrant;
  /** The sandbox's stores and publications, for sandbox shops. */
  sandbox: { stores: SandboxStores; publications: SandboxPublications };
}

export type AdminModule = ReturnType<typeof createAdmin>;

export function createAdmin(deps: AdminModuleDeps, settings: AdminSettings) {
  const { db } = deps;
  const keys = new ApiKeyRepository(db);
  const organizations = new OrganizationRepository(db);
  const admin = new AdminService({ organizations, keys, credentials: deps.credentials, mediaFiles: deps.mediaFiles });
  const shops = new ShopService(
    {
      shops: deps.shops,
      organizations,
      grants: deps.grants,
      box: deps.box,
      sandbox: deps.sandbox.stores,
      // POST /admin/shops/{id}/sandbox/publications
      sandboxPublications: deps.sandbox.publications,
    },
    { publicUrl: settings.publicUrl, sandboxEnabled: settings.shopifySandbox },
  );
  /** Wrong admin tokens per client address (failures only; shared through Redis like the APIs' limits). */
  const limiter = createRateLimiter({ name: 'admin-auth', points: settings.adminAuthRateLimit, durationSeconds: 60, redis: deps.redis });
  return {
    /** The keys the PIM verifies. */
    keys,
    organizations,
    admin,
    shops,
    async routes(app: App): Promise<void> {
      await app.register(async (scope) => adminPlugin(scope as App, { adminToken: settings.adminToken, limiter, admin, shops }));
    },
  };
}
