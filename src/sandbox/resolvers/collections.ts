// Custom collections: collectionCreate, collectionUpdate, collectionDelete, collection, collectionByIdentifier,
// collections (rules in sandbox-collection.service.ts; publishing a collection is in publications.ts).
import { GraphQLError } from 'graphql';
import { notEmulated } from '../not-emulated.js';
import type { CollectionRow } from '../sandbox-collection.repository.js';
import type { CollectionInput, CollectionResult } from '../collection-input.js';
import { collectionObject } from './collection-object.js';
import { listConnection } from './connection.js';
import type { PageArgs } from './connection.js';
import { productObject } from './product-object.js';
import { shopObject } from './shop.js';
import type { ResolverModule, SandboxContext } from './types.js';

export const collectionNode = (ctx: SandboxContext) => (row: CollectionRow) => collectionObject(row, ctx, (p) => productObject(p, ctx));

/**
 * The `collection` argument is Shopify's current one; `input` (CollectionInput) is deprecated in its favour (schema 2026-10,
 * Mutation.collectionCreate "The `input` argument and its `ruleSet` field are deprecated… If both `collection` and
 * `input` are provided, `collection` is used").
 */
function collectionArgument(args: Record<string, unknown>): CollectionInput {
  if (args.collection != null) return args.collection as CollectionInput;
  if (args.input != null) {
    throw new GraphQLError(
      'The Pimbridge sandbox implements the `collection` argument (CollectionCreateInput / CollectionUpdateInput), Shopify’s current one; `input` (CollectionInput) is deprecated and not emulated',
      { extensions: { code: 'NOT_IMPLEMENTED' } },
    );
  }
  throw new GraphQLError('The `collection` argument is required', { extensions: { code: 'BAD_REQUEST' } });
}

const payload = (result: CollectionResult, ctx: SandboxContext) => ({
  collection: result.collection ? collectionNode(ctx)(result.collection) : null,
  userErrors: result.userErrors,
});

export const collectionResolvers: ResolverModule = {
  query: {
    collection: async (args, ctx) => {
      const row = await ctx.collections.find(ctx.store.id, args.id);
      return row ? collectionNode(ctx)(row) : null;
    },
    collectionByIdentifier: async (args, ctx) => {
      const row = await ctx.collections.findByIdentifier(ctx.store.id, args.identifier as Parameters<SandboxContext['collections']['findByIdentifier']>[1]);
      return row ? collectionNode(ctx)(row) : null;
    },
    collections: async (args, ctx) => {
      if (args.savedSearchId != null) throw notEmulated('collections(savedSearchId:)');
      const rows = await ctx.collections.list(ctx.store.id, args.query as string | null, args.sortKey as string | null, args.reverse === true);
      return listConnection(rows, args as PageArgs, (r) => r.id, collectionNode(ctx));
    },
  },
  mutation: {
    collectionCreate: async (args, ctx) => payload(await ctx.collections.create(ctx.store.id, collectionArgument(args)), ctx),
    collectionUpdate: async (args, ctx) => ({ ...payload(await ctx.collections.update(ctx.store.id, collectionArgument(args)), ctx), job: null }),
    // schema 2026-10, CollectionDeletePayload.deletedCollectionId: "Returns `null` if the collection doesn't exist."
    collectionDelete: async (args, ctx) => {
      const id = (args.input as { id: string }).id;
      const deleted = await ctx.collections.delete(ctx.store.id, id);
      return {
        deletedCollectionId: deleted ? id : null,
        shop: shopObject(ctx.store),
        userErrors: deleted ? [] : [{ field: ['id'], message: 'Collection does not exist' }],
      };
    },
  },
};
