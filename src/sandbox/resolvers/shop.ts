// `shop`: the store's identity, plan and limits, from sandbox_stores.
import type { SandboxStore } from '../sandbox-store.repository.js';
import type { ResolverModule } from './types.js';

/** Shopify's product limits (notes: 3 options, 2048 variants). */
export const RESOURCE_LIMITS = { maxProductVariants: 2048, maxProductOptions: 3, locationLimit: 1000, redirectLimitReached: false };

export function shopGid(id: number): string {
  return `gid://shopify/Shop/${id}`;
}

export function shopObject(store: SandboxStore): Record<string, unknown> {
  const created = store.createdAt instanceof Date ? store.createdAt.toISOString() : new Date(store.createdAt).toISOString();
  const email = `owner@${store.domain}`;
  return {
    id: shopGid(store.id),
    name: store.name,
    myshopifyDomain: store.domain,
    currencyCode: store.currencyCode,
    email,
    contactEmail: email,
    description: null,
    url: `https://${store.domain}`,
    createdAt: created.replace(/\.\d{3}Z$/, 'Z'),
    updatedAt: created.replace(/\.\d{3}Z$/, 'Z'),
    ianaTimezone: 'Etc/UTC',
    timezoneAbbreviation: 'UTC',
    timezoneOffset: '+0000',
    timezoneOffsetMinutes: 0,
    taxesIncluded: false,
    taxShipping: false,
    setupRequired: false,
    checkoutApiSupported: false,
    enabledPresentmentCurrencies: [store.currencyCode],
    plan: {
      publicDisplayName: store.planName,
      displayName: store.planName,
      shopifyPlus: store.planName === 'Plus' || store.planName === 'Shopify Plus',
      partnerDevelopment: store.planName === 'Development',
    },
    resourceLimits: RESOURCE_LIMITS,
  };
}

export const shopResolvers: ResolverModule = {
  query: {
    shop: (_args, ctx) => shopObject(ctx.store),
  },
};
