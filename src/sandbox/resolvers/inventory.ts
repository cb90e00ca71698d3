// Inventory: `inventoryActivate`, `inventorySetQuantities`, `inventoryAdjustQuantities` (rules in
// sandbox-inventory.service.ts, each cited there), and the reads the bridge uses before a compare-and-swap:
// `inventoryItem(id)` and `nodes(ids:)` for InventoryItem ids (an item's id is its variant's number, as the sandbox
// keeps one inventory item per variant).
import { getDirectiveValues, GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { InventoryOutcome, InventoryUserError, RecordedChange } from '../sandbox-inventory.service.js';
import { gidNumber } from '../gid.js';
import { locationGid, locationObject } from './locations.js';
import { productObject, variantObject } from './product-object.js';
import type { ResolverModule, SandboxContext } from './types.js';
import { emitTopic } from './webhooks.js';

/** The `@idempotent(key:)` of the field; required on these mutations from 2026-04 (the changelog cited in the service). */
function idempotencyKey(info: GraphQLResolveInfo): string {
  const directive = info.schema.getDirective('idempotent');
  const key = directive ? getDirectiveValues(directive, info.fieldNodes[0], info.variableValues)?.key : undefined;
  if (typeof key !== 'string' || key.trim() === '') {
    // Shopify documents that the call fails at runtime, not the error's code; schema 2026-10, @idempotent: "The
    // idempotency key cannot be an empty string or whitespace only."
    throw new GraphQLError(`${info.fieldName} requires the @idempotent(key:) directive from API version 2026-04, with a non-blank key.`, {
      extensions: { code: 'BAD_REQUEST' },
    });
  }
  return key;
}

async function inventoryItemObject(ctx: SandboxContext, itemId: number | null): Promise<Record<string, unknown> | null> {
  if (itemId === null) return null;
  const found = await ctx.productRepo.variantWithProduct(ctx.store.id, itemId);
  return found ? (variantObject(found.product, found.variant, ctx).inventoryItem as Record<string, unknown>) : null;
}

async function locationById(ctx: SandboxContext, id: number): Promise<Record<string, unknown> | null> {
  const [primary] = await ctx.productRepo.locations(ctx.store.id, 0, 1);
  const row = await ctx.productRepo.location(ctx.store.id, id);
  return row ? locationObject(row, row.id === primary?.id) : null;
}

const mismatch = (message: string): InventoryOutcome => ({ userErrors: [{ field: null, message, code: 'IDEMPOTENCY_KEY_PARAMETER_MISMATCH' }], group: null });

/** InventoryAdjustmentGroup of an applied call; `changes(inventoryItemIds, locationIds, quantityNames)` filters. */
function adjustmentGroup(ctx: SandboxContext, outcome: InventoryOutcome, reason: string, referenceDocumentUri: unknown) {
  const { group } = outcome;
  if (!group) return null;
  const changeObject = (c: RecordedChange) => ({
    __typename: 'InventoryChange',
    name: c.name,
    delta: c.delta,
    quantityAfterChange: c.quantityAfterChange,
    ledgerDocumentUri: null,
    item: () => inventoryItemObject(ctx, c.itemId),
    location: () => locationById(ctx, c.locationId),
  });
  return {
    __typename: 'InventoryAdjustmentGroup',
    id: group.id,
    createdAt: group.createdAt,
    reason,
    referenceDocumentUri: referenceDocumentUri ?? null,
    app: null,
    staffMember: null,
    changes: (args: { inventoryItemIds?: string[] | null; locationIds?: string[] | null; quantityNames?: string[] | null }) =>
      group.changes
        .filter(
          (c) =>
            (args.inventoryItemIds == null || args.inventoryItemIds.includes(`gid://shopify/InventoryItem/${c.itemId}`)) &&
            (args.locationIds == null || args.locationIds.includes(locationGid(c.locationId))) &&
            (args.quantityNames == null || args.quantityNames.includes(c.name)),
        )
        .map(changeObject),
  };
}

type SetInput = Parameters<SandboxContext['inventory']['setQuantities']>[2] & { referenceDocumentUri?: string | null };
type AdjustInput = Parameters<SandboxContext['inventory']['adjustQuantities']>[2] & { referenceDocumentUri?: string | null };

export const inventoryResolvers: ResolverModule = {
  query: {
    inventoryItem: (args, ctx) => inventoryItemObject(ctx, gidNumber(args.id, 'InventoryItem')),
    nodes: async (args, ctx) => {
      const ids = (args.ids as string[]) ?? [];
      return Promise.all(
        ids.map((id) => {
          if (gidNumber(id, 'InventoryItem') !== null) return inventoryItemObject(ctx, gidNumber(id, 'InventoryItem'));
          // Products too (a push's dry run reads many at once); one not there is null, as Shopify answers.
          const productId = gidNumber(id, 'Product');
          if (productId !== null) return ctx.productRepo.product(ctx.store.id, productId).then((row) => (row ? productObject(row, ctx) : null));
          throw new GraphQLError(`The Pimbridge sandbox answers nodes(ids:) for InventoryItem and Product ids only, not ${id}`, {
            extensions: { code: 'NOT_IMPLEMENTED' },
          });
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
          const r = await ctx.inventory.activate(
            repo,
            ctx.store.id,
            String(args.inventoryItemId),
            String(args.locationId),
            args.available as number | null | undefined,
            args.onHand as number | null | undefined,
          );
          return Array.isArray(r) ? { userErrors: r, itemId: null } : { userErrors: [] as InventoryUserError[], itemId: r.itemId };
        },
        (message): { userErrors: InventoryUserError[]; itemId: number | null } => ({ userErrors: [{ field: null, message }], itemId: null }),
      );
      const item = await inventoryItemObject(ctx, result.itemId);
      const level = item ? await (item.inventoryLevel as (a: { locationId: string }) => Promise<unknown>)({ locationId: String(args.locationId) }) : null;
      // InventoryActivatePayload.userErrors are UserError (field, message): no code.
      return { inventoryLevel: level, userErrors: result.userErrors.map(({ field, message }) => ({ field, message })) };
    },
    inventorySetQuantities: async (args, ctx, info) => {
      const input = args.input as SetInput;
      const key = idempotencyKey(info);
      const outcome = await ctx.inventory.once(
        ctx.store.id,
        'inventorySetQuantities',
        key,
        args,
        (repo) => ctx.inventory.setQuantities(repo, ctx.store.id, input),
        mismatch,
      );
      await emitLevels(ctx, outcome);
      return { inventoryAdjustmentGroup: adjustmentGroup(ctx, outcome, input.reason, input.referenceDocumentUri), userErrors: outcome.userErrors };
    },
    inventoryAdjustQuantities: async (args, ctx, info) => {
      const input = args.input as AdjustInput;
      const key = idempotencyKey(info);
      const outcome = await ctx.inventory.once(
        ctx.store.id,
        'inventoryAdjustQuantities',
        key,
        args,
        (repo) => ctx.inventory.adjustQuantities(repo, ctx.store.id, input),
        mismatch,
      );
      await emitLevels(ctx, outcome);
      return { inventoryAdjustmentGroup: adjustmentGroup(ctx, outcome, input.reason, input.referenceDocumentUri), userErrors: outcome.userErrors };
    },
  },
};

/** inventory_levels/update for each `available` count a mutation changed (its REST InventoryLevel payload). */
async function emitLevels(ctx: SandboxContext, outcome: InventoryOutcome): Promise<void> {
  const at = new Date().toISOString();
  for (const c of outcome.group?.changes ?? []) {
    if (c.name !== 'available') continue;
    await emitTopic(ctx, 'INVENTORY_LEVELS_UPDATE', {
      inventory_item_id: c.itemId,
      location_id: c.locationId,
      available: c.quantityAfterChange,
      updated_at: at,
      admin_graphql_api_id: `gid://shopify/InventoryLevel/${c.locationId}?inventory_item_id=${c.itemId}`,
    }).catch(() => undefined);
  }
}
