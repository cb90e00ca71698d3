// Sales channels: `publications`, `publication`, `publishablePublish`, `publishableUnpublish` (rules in
// sandbox-publication.service.ts). Products and collections (a Collection id: sandbox-collection.service.ts); publishing a
// variant is not emulated.
import { GraphQLError } from 'graphql';
import type { PublicationInput, PublishResult } from '../sandbox-publication.service.js';
import { collectionNode } from './collections.js';
import { connection } from './connection.js';
import { productObject } from './product-object.js';
import { forwardPage, publicationObject } from './publishable.js';
import { shopObject } from './shop.js';
import type { ResolverModule, SandboxContext } from './types.js';

const node = (ctx: SandboxContext) => (row: Parameters<typeof productObject>[0]) => productObject(row, ctx);

/** Ids the sandbox can take: a Product (anything else that exists in Shopify is not emulated). */
function checkPublishable(id: unknown, input: PublicationInput[]): void {
  if (typeof id === 'string' && /^gid:\/\/shopify\/ProductVariant\//.test(id)) {
    throw new GraphQLError('The Pimbridge sandbox does not emulate publishing a ProductVariant yet', { extensions: { code: 'NOT_IMPLEMENTED' } });
  }
  if (input.some((p) => p.publicationId == null && p.channelId != null)) {
    throw new GraphQLError('The Pimbridge sandbox does not emulate PublicationInput.channelId (deprecated); use publicationId', {
      extensions: { code: 'NOT_IMPLEMENTED' },
    });
  }
}

function payload(result: PublishResult, ctx: SandboxContext) {
  return { publishable: result.product ? productObject(result.product, ctx) : null, shop: shopObject(ctx.store), userErrors: result.userErrors };
}

const isCollection = (id: unknown): id is string => typeof id === 'string' && id.startsWith('gid://shopify/Collection/');

function collectionPayload(result: Awaited<ReturnType<SandboxContext['collections']['publish']>>, ctx: SandboxContext) {
  return { publishable: result.collection ? collectionNode(ctx)(result.collection) : null, shop: shopObject(ctx.store), userErrors: result.userErrors };
}

export const publicationResolvers: ResolverModule = {
  query: {
    publications: async (args, ctx) => {
      const p = forwardPage(args);
      // Every sandbox publication belongs to a sales channel's app catalog (schema 2026-10: CatalogType.APP).
      if (args.catalogType != null && args.catalogType !== 'APP')
        return connection(
          p,
          [],
          () => 0,
          () => null,
          false,
        );
      const rows = await ctx.publications.list(ctx.store.id, p.afterKey, p.fetch);
      return connection(
        p,
        rows,
        (r) => r.id,
        (r) => publicationObject(r, ctx, node(ctx)),
        p.afterKey > 0,
      );
    },
    publication: async (args, ctx) => {
      const row = await ctx.publications.find(ctx.store.id, args.id);
      return row ? publicationObject(row, ctx, node(ctx)) : null;
    },
  },
  mutation: {
    publishablePublish: async (args, ctx) => {
      const input = args.input as PublicationInput[];
      checkPublishable(args.id, input);
      if (isCollection(args.id)) return collectionPayload(await ctx.collections.publish(ctx.store.id, args.id, input, 'publish'), ctx);
      return payload(await ctx.publications.publish(ctx.store.id, args.id as string, input), ctx);
    },
    publishableUnpublish: async (args, ctx) => {
      const input = args.input as PublicationInput[];
      checkPublishable(args.id, input);
      if (isCollection(args.id)) return collectionPayload(await ctx.collections.publish(ctx.store.id, args.id, input, 'unpublish'), ctx);
      return payload(await ctx.publications.unpublish(ctx.store.id, args.id as string, input), ctx);
    },
  },
};
