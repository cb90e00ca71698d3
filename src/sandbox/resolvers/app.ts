// `currentAppInstallation`: the calling app's installation on the store, with the scopes its token was granted
// (AppInstallation.accessScopes, "The access scopes granted to the application by a merchant during installation", schema
// 2026-10; https://shopify.dev/docs/api/usage/access-scopes#checking-granted-access-scopes). The handles are the token's
// grant as given (a `write_X` also grants `read_X`, which is not listed again), the store's revoked scopes taken off;
// the legacy token lists every scope the schema names.
import type { ResolverModule } from './types.js';

export const appResolvers: ResolverModule = {
  query: {
    currentAppInstallation: (_args, ctx) => {
      const scopes = ctx.access ? ctx.access.scopes() : [];
      return {
        id: `gid://shopify/AppInstallation/${ctx.store.id}`,
        accessScopes: scopes.map((handle) => ({ handle, description: handle.replace(/_/g, ' ') })),
        app: {
          id: `gid://shopify/App/${ctx.store.id}`,
          title: ctx.store.appName,
          apiKey: ctx.store.clientId,
          handle: ctx.store.appName.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
          installation: null,
        },
        launchUrl: `https://admin.shopify.com/store/${ctx.store.domain.replace(/\.myshopify\.com$/, '')}/apps/${ctx.store.clientId}`,
        uninstallUrl: null,
      };
    },
  },
};
