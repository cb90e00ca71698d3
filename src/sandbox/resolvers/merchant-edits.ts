// A merchant's edits: productUpdate and productVariantsBulkUpdate (rules in sandbox-merchant-edits.service.ts). Input
// fields the sandbox does not keep answer NOT_IMPLEMENTED rather than being dropped silently.
import { notEmulated } from '../not-emulated.js';
import type { ProductUpdateArgs, VariantsBulkUpdateArgs } from '../sandbox-merchant-edits.service.js';
import { productObject, variantObject } from './product-object.js';
import type { ResolverModule } from './types.js';
import { emitProductUpdate } from './webhooks.js';

/** Fields taken as given; `redirectNewHandle` leaves nothing the sandbox shows (it has no URL redirects). */
const PRODUCT_FIELDS = new Set([
  'id',
  'title',
  'handle',
  'descriptionHtml',
  'vendor',
  'productType',
  'status',
  'tags',
  'seo',
  'category',
  'metafields',
  'redirectNewHandle',
]);
/** Fields whose value is what the sandbox already answers, or the schema's default (so sending it changes nothing). */
const PRODUCT_NO_OPS: Record<string, unknown> = { requiresSellingPlan: false, giftCard: false, deleteConflictingConstrainedMetafields: false };
const VARIANT_FIELDS = new Set(['id', 'price', 'compareAtPrice', 'barcode', 'inventoryPolicy', 'taxable', 'inventoryItem', 'inventoryQuantities']);
const VARIANT_NO_OPS: Record<string, unknown> = { requiresComponents: false };
const ITEM_FIELDS = new Set(['sku', 'tracked', 'requiresShipping', 'cost', 'measurement']);
const ITEM_NO_OPS: Record<string, unknown> = {};

function checkFields(where: string, input: Record<string, unknown> | null | undefined, kept: Set<string>, noOps: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(input ?? {})) {
    if (value === undefined || kept.has(key) || (key in noOps && value === noOps[key])) continue;
    if (value === null) continue;
    throw notEmulated(`${where}.${key}`);
  }
}

export const merchantEditResolvers: ResolverModule = {
  mutation: {
    productUpdate: async (args, ctx) => {
      const a = args as ProductUpdateArgs & { media?: unknown[] | null };
      if (a.media?.length) throw notEmulated('productUpdate(media:)');
      checkFields('ProductUpdateInput', a.product as Record<string, unknown>, PRODUCT_FIELDS, PRODUCT_NO_OPS);
      checkFields('ProductInput', a.input as Record<string, unknown>, PRODUCT_FIELDS, PRODUCT_NO_OPS);
      const result = await ctx.merchantEdits.productUpdate(ctx.store.id, a);
      // A merchant's edit fires products/update (sandbox-webhooks.service.ts), after the edit committed.
      if (result.product) await emitProductUpdate(ctx, result.product.id).catch(() => undefined);
      return { product: result.product ? productObject(result.product, ctx) : null, userErrors: result.userErrors };
    },
    productVariantsBulkUpdate: async (args, ctx) => {
      const a = args as unknown as VariantsBulkUpdateArgs & { media?: unknown[] | null };
      if (a.media?.length) throw notEmulated('productVariantsBulkUpdate(media:)');
      for (const v of a.variants) {
        checkFields('ProductVariantsBulkInput', v as Record<string, unknown>, VARIANT_FIELDS, VARIANT_NO_OPS);
        checkFields('InventoryItemInput', v.inventoryItem as Record<string, unknown>, ITEM_FIELDS, ITEM_NO_OPS);
        if (v.inventoryItem?.measurement)
          checkFields('InventoryItemMeasurementInput', v.inventoryItem.measurement as Record<string, unknown>, new Set(['weight']), {});
      }
      const result = await ctx.merchantEdits.variantsBulkUpdate(ctx.store.id, a);
      const product = result.product;
      if (product && result.variants) await emitProductUpdate(ctx, product.id).catch(() => undefined);
      return {
        product: product ? productObject(product, ctx) : null,
        productVariants: product && result.variants ? result.variants.map((v) => variantObject(product, v, ctx)) : null,
        userErrors: result.userErrors,
      };
    },
  },
};
