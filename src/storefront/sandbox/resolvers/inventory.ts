// Inventory: `inventoryActivate`, `inventorySetQuantities`, `inventoryAdjustQuantities` (rules in
// sandbox-inventory.service.ts, each cited there), and the reads the bridge uses before a compare-and-swap:
// `inventoryItem(id)` and `nodes(ids:)` for InventoryItem ids (an item's id is its variant's number, as the sandbox
// keeps one inventory item per variant).
import { getDirectiveValues, GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { InventoryUserError } from '../sandbox-inventory.service.js';
import { gidNumber } from '../sandbox-product.service.js';
import { variantObject } from './products.js';
import type { ResolverModule, SandboxContext } from './types.js';

/** The `@idempotent(key:)` of the field; required on these mutations from 2026-04 (the changelog cited in the service). */
function idempotencyKey(info: GraphQLResolveInfo): string {
  const directive = info.schema.getDirective('idempotent');
  const key = directive ? getDirectiveValues(directive, info.fieldNodes[0], info.variableValues)?.key : undefined;
  if (typeof key !== 'string' || key.trim() === '') {
    // schema 2026-10, @idempotent: "The idempotency key cannot be an empty string or whitespace only."
    throw new GraphQLError(`${info.fieldName} requires the @idempotent(key:) directive from API version 2026-04, with a non-blank key.`, { extensions: { code: 'BAD_REQUEST' } });
  }
  return key;
}

async function inventoryItemObject(ctx: SandboxContext, itemId: number | null): Promise<Record<string, unknown> | null> {
  if (itemId === null) return null;
  const found = await ctx.productRepo.variantWithProduct(ctx.store.id, itemId);
  return found ? (variantObject(found.product, found.variant, ctx).inventoryItem as Record<string, unknown>) : null;
}

const mismatch = (message: string) => ({ userErrors: [{ field: null, message, code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH' }] as InventoryUserError[] });

function adjustmentGroup(reason: string, referenceDocumentUri: unknown, userErrors: InventoryUserError[]) {
  return userErrors.length
    ? null
    : { __typename: 'InventoryAdjustmentGroup', id: `gid://shopify/InventoryAdjustmentGroup/${Date.now()}`, createdAt: new Date().toISOString(), reason, referenceDocumentUri: referenceDocumentUri ?? null, changes: [] };
}

export const inventoryResolvers: ResolverModule = {
  query: {
    inventoryItem: (args, ctx) => inventoryItemObject(ctx, gidNumber(args.id, 'InventoryItem')),
    nodes: async (args, ctx) => {
      const ids = (args.ids as string[]) ?? [];
      return Promise.all(
        ids.map((id) => {
          if (gidNumber(id, 'InventoryItem') !== null) return inventoryItemObject(ctx, gidNumber(id, 'InventoryItem'));
          throw new GraphQLError(`The Pimbridge sandbox answers nodes(ids:) for InventoryItem ids only, not ${id}`, { extensions: { code: 'NOT_IMPLEMENTED' } });
        }),
      );
    },
  },
  mutation: {
    inventoryActivate: async (args, ctx, info) => {
      const key = idempotencyKey(info);
      const result = await ctx.inventory.once(
        ctx.store.id,
        'inventoryActivate',
        key,
        args,
        async (repo) => {
          const r = await ctx.inventory.activate(repo, ctx.store.id, String(args.inventoryItemId), String(args.locationId), args.available as number | null | undefined);
          return Array.isArray(r) ? { userErrors: r } : { userErrors: [] as InventoryUserError[], itemId: r.itemId, locationId: r.locationId };
        },
        mismatch,
      );
      const level = 'itemId' in result && result.itemId !== undefined ? await ((await inventoryItemObject(ctx, result.itemId as number))?.inventoryLevel as (a: { locationId: string }) => Promise<unknown>)({ locationId: String(args.locationId) }) : null;
      // InventoryActivatePayload.userErrors are UserError (field, message): no code.
      return { inventoryLevel: level, userErrors: result.userErrors.map(({ field, message }) => ({ field, message })) };
    },
    inventorySetQuantities: async (args, ctx, info) => {
      const input = args.input as Parameters<SandboxContext['inventory']['setQuantities']>[2] & { referenceDocumentUri?: string | null; ignoreCompareQuantity?: boolean | null };
      const key = idempotencyKey(info);
      const result = await ctx.inventory.once(ctx.store.id, 'inventorySetQuantities', key, args, async (repo) => ({ userErrors: await ctx.inventory.setQuantities(repo, ctx.store.id, input, input.ignoreCompareQuantity === true) }), mismatch);
      return { inventoryAdjustmentGroup: adjustmentGroup(input.reason, input.referenceDocumentUri, result.userErrors), userErrors: result.userErrors };
    },
    inventoryAdjustQuantities: async (args, ctx, info) => {
      const input = args.input as Parameters<SandboxContext['inventory']['adjustQuantities']>[2] & { referenceDocumentUri?: string | null };
      const key = idempotencyKey(info);
      const result = await ctx.inventory.once(ctx.store.id, 'inventoryAdjustQuantities', key, args, async (repo) => ({ userErrors: await ctx.inventory.adjustQuantities(repo, ctx.store.id, input) }), mismatch);
      return { inventoryAdjustmentGroup: adjustmentGroup(input.reason, input.referenceDocumentUri, result.userErrors), userErrors: result.userErrors };
    },
  },
};
