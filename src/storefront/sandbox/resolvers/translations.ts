// Languages and translations: `shopLocales`, `shopLocaleEnable`, `shopLocaleUpdate`, `shopLocaleDisable`,
// `translatableResource`, `translatableResources`, `translatableResourcesByIds`, `translationsRegister`,
// `translationsRemove` (rules in sandbox-translation.service.ts, docs/sandbox/translations.md). Products only: other
// translatable resource types answer NOT_IMPLEMENTED, as do markets (`marketId`, `marketWebPresenceIds`).
import { GraphQLError } from 'graphql';
import type { Db } from '../../../db/client.js';
import type { ProductRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../sandbox-product.service.js';
import { SandboxTranslationRepository, type ShopLocaleRow } from '../sandbox-translation.repository.js';
import { localeName, productContent, SandboxTranslationService, type ContentEntry, type TranslationInput } from '../sandbox-translation.service.js';
import { connection } from './connection.js';
import { forwardPage } from './publishable.js';
import type { ResolverModule, SandboxContext } from './types.js';

const services = new WeakMap<Db, SandboxTranslationService>();

/** The translation service over the context's database (made once per database). */
export function translationsOf(ctx: SandboxContext): SandboxTranslationService {
  let service = services.get(ctx.db);
  if (!service) {
    const products = ctx.productRepo;
    service = new SandboxTranslationService(new SandboxTranslationRepository(ctx.db), (storeId, id) => products.product(storeId, id));
    services.set(ctx.db, service);
  }
  return service;
}

function notImplemented(what: string): never {
  throw new GraphQLError(`The Pimbridge sandbox does not emulate ${what} yet`, { extensions: { code: 'NOT_IMPLEMENTED' } });
}

function shopLocaleObject(row: ShopLocaleRow) {
  return { __typename: 'ShopLocale', locale: row.locale, name: localeName(row.locale), primary: row.primary, published: row.published };
}

function resourceObject(product: ProductRow, content: ContentEntry[], ctx: SandboxContext) {
  const resourceId = `gid://shopify/Product/${product.id}`;
  return {
    __typename: 'TranslatableResource',
    resourceId,
    translatableContent: (args: { marketId?: string | null }) => {
      if (args.marketId != null) notImplemented('market-specific translatable content (marketId)');
      return content.map((c) => ({ __typename: 'TranslatableContent', ...c }));
    },
    translations: (args: { locale: string; outdated?: boolean | null; marketId?: string | null }) => {
      if (args.marketId != null) notImplemented('market-specific translations (marketId)');
      return translationsOf(ctx).translations(ctx.store.id, resourceId, content, args.locale, args.outdated);
    },
  };
}

/** A GID the sandbox cannot translate: another resource type of Shopify's is NOT_IMPLEMENTED; a malformed one is nothing. */
function productIdOf(resourceId: unknown): number | null {
  const id = gidNumber(resourceId, 'Product');
  if (id === null && typeof resourceId === 'string' && /^gid:\/\/shopify\/\w+\/\d+$/.test(resourceId))
    notImplemented(`translations of ${resourceId.split('/')[3]} resources`);
  return id;
}

async function resourcesPage(args: Record<string, unknown>, ctx: SandboxContext, ids?: number[]) {
  const p = forwardPage(args);
  const service = translationsOf(ctx);
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
    shopLocales: async (args, ctx) => (await translationsOf(ctx).shopLocales(ctx.store.id, args.published as boolean | null | undefined)).map(shopLocaleObject),
    translatableResource: async (args, ctx) => {
      productIdOf(args.resourceId);
      const found = await translationsOf(ctx).resource(ctx.store.id, args.resourceId as string);
      return found ? resourceObject(found.product, found.content, ctx) : null;
    },
    translatableResources: (args, ctx) => {
      if (args.resourceType !== 'PRODUCT') notImplemented(`translatable resources of type ${String(args.resourceType)}`);
      return resourcesPage(args, ctx);
    },
    translatableResourcesByIds: (args, ctx) => {
      const ids = (args.resourceIds as string[]).map(productIdOf).filter((id): id is number => id !== null);
      return resourcesPage(args, ctx, [...new Set(ids)]);
    },
  },
  mutation: {
    shopLocaleEnable: async (args, ctx) => {
      if (Array.isArray(args.marketWebPresenceIds) && args.marketWebPresenceIds.length > 0) notImplemented('market web presences (marketWebPresenceIds)');
      const r = await translationsOf(ctx).enable(ctx.store.id, args.locale as string);
      return { shopLocale: r.shopLocale ? shopLocaleObject(r.shopLocale) : null, userErrors: r.userErrors };
    },
    shopLocaleUpdate: async (args, ctx) => {
      const input = args.shopLocale as { published?: boolean | null; marketWebPresenceIds?: string[] | null };
      if (input.marketWebPresenceIds != null) notImplemented('market web presences (marketWebPresenceIds)');
      const r = await translationsOf(ctx).update(ctx.store.id, args.locale as string, input);
      return { shopLocale: r.shopLocale ? shopLocaleObject(r.shopLocale) : null, userErrors: r.userErrors };
    },
    shopLocaleDisable: (args, ctx) => translationsOf(ctx).disable(ctx.store.id, args.locale as string),
    translationsRegister: (args, ctx) => {
      const input = args.translations as TranslationInput[];
      if (input.some((t) => t.marketId != null)) notImplemented('market-specific translations (marketId)');
      productIdOf(args.resourceId);
      return translationsOf(ctx).register(ctx.store.id, args.resourceId as string, input);
    },
    translationsRemove: (args, ctx) => {
      if (Array.isArray(args.marketIds) && args.marketIds.length > 0) notImplemented('market-specific translations (marketIds)');
      productIdOf(args.resourceId);
      return translationsOf(ctx).remove(ctx.store.id, args.resourceId as string, args.translationKeys as string[], args.locales as string[]);
    },
  },
};
