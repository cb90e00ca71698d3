// Languages and translations: `shopLocales`, `shopLocaleEnable`, `shopLocaleUpdate`, `shopLocaleDisable`,
// `translatableResource`, `translatableResources`, `translatableResourcesByIds`, `translationsRegister`,
// `translationsRemove` (rules in sandbox-translation.service.ts, docs/sandbox/translations.md). Products only: other
// translatable resource types answer NOT_IMPLEMENTED, as do markets (`marketId`, `marketWebPresenceIds`).
import { notEmulated } from '../not-emulated.js';
import type { ProductRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../gid.js';
import type { ShopLocaleRow } from '../sandbox-translation.repository.js';
import { localeName, productContent, type ContentEntry, type TranslationInput } from '../sandbox-translation.service.js';
import { connection } from './connection.js';
import { forwardPage } from './publishable.js';
import type { ResolverModule, SandboxContext } from './types.js';

function shopLocaleObject(row: ShopLocaleRow) {
  return { __typename: 'ShopLocale', locale: row.locale, name: localeName(row.locale), primary: row.primary, published: row.published };
}

function resourceObject(product: ProductRow, content: ContentEntry[], ctx: SandboxContext) {
  const resourceId = `gid://shopify/Product/${product.id}`;
  return {
    __typename: 'TranslatableResource',
    resourceId,
    translatableContent: (args: { marketId?: string | null }) => {
      if (args.marketId != null) throw notEmulated('market-specific translatable content (marketId)');
      return content.map((c) => ({ __typename: 'TranslatableContent', ...c }));
    },
    translations: (args: { locale: string; outdated?: boolean | null; marketId?: string | null }) => {
      if (args.marketId != null) throw notEmulated('market-specific translations (marketId)');
      return ctx.translations.translations(ctx.store.id, resourceId, content, args.locale, args.outdated);
    },
  };
}

/** A GID the sandbox cannot translate: another resource type of Shopify's is NOT_IMPLEMENTED; a malformed one is nothing. */
function productIdOf(resourceId: unknown): number | null {
  const id = gidNumber(resourceId, 'Product');
  if (id === null && typeof resourceId === 'string' && /^gid:\/\/shopify\/\w+\/\d+$/.test(resourceId))
    throw notEmulated(`translations of ${resourceId.split('/')[3]} resources`);
  return id;
}

async function resourcesPage(args: Record<string, unknown>, ctx: SandboxContext, ids?: number[]) {
  const p = forwardPage(args);
  const service = ctx.translations;
  const rows = await service.products(ctx.store.id, p.afterKey, p.fetch, ids);
  const primary = await service.primaryLocale(ctx.store.id);
  return connection(
    p,
    rows,
    (r) => r.id,
    (r) => resourceObject(r, productContent(r, primary), ctx),
    p.afterKey > 0,
  );
}

export const translationResolvers: ResolverModule = {
  query: {
    shopLocales: async (args, ctx) => (await ctx.translations.shopLocales(ctx.store.id, args.published as boolean | null | undefined)).map(shopLocaleObject),
    translatableResource: async (args, ctx) => {
      productIdOf(args.resourceId);
      const found = await ctx.translations.resource(ctx.store.id, args.resourceId as string);
      return found ? resourceObject(found.product, found.content, ctx) : null;
    },
    translatableResources: (args, ctx) => {
      if (args.resourceType !== 'PRODUCT') throw notEmulated(`translatable resources of type ${String(args.resourceType)}`);
      return resourcesPage(args, ctx);
    },
    translatableResourcesByIds: (args, ctx) => {
      const ids = (args.resourceIds as string[]).map(productIdOf).filter((id): id is number => id !== null);
      return resourcesPage(args, ctx, [...new Set(ids)]);
    },
  },
  mutation: {
    shopLocaleEnable: async (args, ctx) => {
      if (Array.isArray(args.marketWebPresenceIds) && args.marketWebPresenceIds.length > 0) throw notEmulated('market web presences (marketWebPresenceIds)');
      const r = await ctx.translations.enable(ctx.store.id, args.locale as string);
      return { shopLocale: r.shopLocale ? shopLocaleObject(r.shopLocale) : null, userErrors: r.userErrors };
    },
    shopLocaleUpdate: async (args, ctx) => {
      const input = args.shopLocale as { published?: boolean | null; marketWebPresenceIds?: string[] | null };
      if (input.marketWebPresenceIds != null) throw notEmulated('market web presences (marketWebPresenceIds)');
      const r = await ctx.translations.update(ctx.store.id, args.locale as string, input);
      return { shopLocale: r.shopLocale ? shopLocaleObject(r.shopLocale) : null, userErrors: r.userErrors };
    },
    shopLocaleDisable: (args, ctx) => ctx.translations.disable(ctx.store.id, args.locale as string),
    translationsRegister: (args, ctx) => {
      const input = args.translations as TranslationInput[];
      if (input.some((t) => t.marketId != null)) throw notEmulated('market-specific translations (marketId)');
      productIdOf(args.resourceId);
      return ctx.translations.register(ctx.store.id, args.resourceId as string, input);
    },
    translationsRemove: (args, ctx) => {
      if (Array.isArray(args.marketIds) && args.marketIds.length > 0) throw notEmulated('market-specific translations (marketIds)');
      productIdOf(args.resourceId);
      return ctx.translations.remove(ctx.store.id, args.resourceId as string, args.translationKeys as string[], args.locales as string[]);
    },
  },
};
