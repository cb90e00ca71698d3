// The Product and ProductVariant objects (with a variant's InventoryItem) the sandbox answers; nested lists load on
// demand. The resolvers that find them are products.ts.
import { inventoryLevels, sellableQuantity } from '../sandbox-inventory.service.js';
import type { ProductRow, VariantRow } from '../sandbox-product.repository.js';
import { gid } from '../gid.js';
import type { WrittenLists } from '../product-set-args.js';
import { collectionObject } from './collection-object.js';
import { metafieldObject } from './metafield-object.js';
import { connection, dateTime, listConnection, page, type PageArgs } from './connection.js';
import { locationObject } from './locations.js';
import { mediaObject } from './media.js';
import { publishableFields } from './publishable.js';
import type { SandboxContext } from './types.js';
import { plainText } from './html-text.js';
import { taxonomyNode } from '../taxonomy-data.js';
import { taxonomyCategoryObject } from './taxonomy.js';

function optionValueId(product: ProductRow, option: number, value: number): string {
  return gid('ProductOptionValue', product.id * 1000 + option * 100 + value);
}

export function variantObject(product: ProductRow, row: VariantRow, ctx: SandboxContext): Record<string, unknown> {
  const title = row.optionValues.length ? row.optionValues.map((o) => o.name).join(' / ') : 'Default Title';
  // ProductVariant.inventoryQuantity: "The total sellable quantity of the variant" (active levels only).
  const total = sellableQuantity(row.inventory);
  const inventoryItem = inventoryItemObject(row, ctx);
  return {
    __typename: 'ProductVariant',
    id: gid('ProductVariant', row.id),
    legacyResourceId: String(row.id),
    title,
    displayName: `${product.title} - ${title}`,
    sku: row.sku,
    price: row.price,
    compareAtPrice: row.compareAtPrice,
    barcode: row.barcode,
    position: row.position,
    inventoryQuantity: total,
    availableForSale: total > 0,
    inventoryPolicy: row.inventoryPolicy,
    taxable: row.taxable,
    taxCode: null,
    selectedOptions: row.optionValues.map((o) => {
      const oi = product.options.findIndex((p) => p.name === o.optionName);
      const vi = oi >= 0 ? product.options[oi].values.indexOf(o.name) : -1;
      return {
        name: o.optionName,
        value: o.name,
        optionValue: { id: optionValueId(product, oi + 1, vi + 1), name: o.name, hasVariants: true, linkedMetafieldValue: null },
      };
    }),
    inventoryItem,
    // ProductVariant.media: "The media associated with the product variant" (schema 2026-10; ProductVariant.image is
    // deprecated: "Use `media` instead"): the product's media that ProductVariantSetInput.file attached to it.
    media: async (args: PageArgs) => {
      const p = page(args);
      const own =
        row.mediaId === null
          ? []
          : (await (ctx.lists ? ctx.lists.media(product.id) : ctx.productRepo.media(product.id, 0, 100_000))).filter((m) => m.id === row.mediaId);
      const rows = own.filter((m) => m.position > p.afterKey).slice(0, p.fetch);
      ctx.media.resumeUnfinished(rows);
      return connection(
        p,
        rows,
        (m) => m.position,
        (m) => mediaObject(m, ctx),
        p.afterKey > 0,
      );
    },
    product: async () => productObject((await ctx.productRepo.product(ctx.store.id, product.id)) ?? product, ctx),
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.updatedAt),
  };
}

/** The variant's InventoryItem, with its levels at the store's locations. */
function inventoryItemObject(row: VariantRow, ctx: SandboxContext): Record<string, unknown> {
  // Levels from the item's counts (sandbox-inventory.service.ts): active where it is stocked (made by inventoryActivate
  // or by the productSet that creates the variant with quantities there), inactive where a quantity was set without
  // stocking it; inactive ones only with `includeInactive: true` (schema 2026-10, InventoryItem.inventoryLevels).
  const levels = async (includeInactive: boolean | null | undefined) => {
    const all = await ctx.productRepo.locations(ctx.store.id, 0, 1000);
    const primary = all[0]?.id;
    const byLocation = new Map(inventoryLevels(row.inventory).map((l) => [l.locationId, l]));
    return all.flatMap((loc) => {
      const level = byLocation.get(loc.id);
      if (!level || (!level.active && includeInactive !== true)) return [];
      return [
        {
          __typename: 'InventoryLevel',
          id: `gid://shopify/InventoryLevel/${loc.id}?inventory_item_id=${row.id}`,
          isActive: level.active,
          canDeactivate: false,
          deactivationAlert: null,
          location: locationObject(loc, loc.id === primary),
          item: () => inventoryItem,
          // The sandbox keeps one count: `available` and `on_hand` answer it, other quantity names 0.
          quantities: ({ names }: { names: string[] }) =>
            names.map((name) => ({
              id: `gid://shopify/InventoryQuantity/${loc.id}?inventory_item_id=${row.id}&name=${name}`,
              name,
              quantity: name === 'available' || name === 'on_hand' ? level.quantity : 0,
              updatedAt: dateTime(row.updatedAt),
            })),
          createdAt: dateTime(row.createdAt),
          updatedAt: dateTime(row.updatedAt),
        },
      ];
    });
  };
  const inventoryItem: Record<string, unknown> = {
    __typename: 'InventoryItem',
    id: gid('InventoryItem', row.id),
    legacyResourceId: String(row.id),
    sku: row.sku,
    tracked: row.tracked,
    requiresShipping: row.requiresShipping,
    // The shop's currency (schema 2026-10: InventoryItemInput.cost "the currency is the shop's default currency").
    unitCost: row.unitCost === null ? null : { amount: row.unitCost, currencyCode: ctx.store.currencyCode },
    measurement: { id: gid('InventoryItemMeasurement', row.id), weight: row.weight },
    duplicateSkuCount: 0,
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.updatedAt),
    inventoryLevels: async (args: PageArgs & { includeInactive?: boolean | null }) => {
      const p = page(args);
      const all = await levels(args.includeInactive);
      return connection(
        p,
        all.slice(p.afterKey, p.afterKey + p.fetch),
        (l) => all.indexOf(l) + 1,
        (l) => l,
        p.afterKey > 0,
      );
    },
    // Null where the item has no (active, unless includeInactive) level.
    inventoryLevel: async ({ locationId, includeInactive }: { locationId: string; includeInactive?: boolean | null }) =>
      (await levels(includeInactive)).find((l) => (l.location as { id: string }).id === locationId) ?? null,
    // InventoryItem.locationsCount: "The number of locations where this inventory item is stocked."
    locationsCount: { count: inventoryLevels(row.inventory).filter((l) => l.active).length, precision: 'EXACT' },
  };
  return inventoryItem;
}

/** `written`: a product productSet just made, with the variants and media its transaction wrote (no read needed). */
export function productObject(row: ProductRow, ctx: SandboxContext, written: WrittenLists | null = null): Record<string, unknown> {
  return {
    __typename: 'Product',
    id: gid('Product', row.id),
    legacyResourceId: String(row.id),
    handle: row.handle,
    title: row.title,
    description: ({ truncateAt }: { truncateAt?: number | null }) => {
      const text = plainText(row.descriptionHtml);
      return truncateAt != null && text.length > truncateAt ? `${text.slice(0, truncateAt)}…` : text;
    },
    descriptionHtml: row.descriptionHtml,
    vendor: row.vendor,
    productType: row.productType,
    status: row.status,
    tags: row.tags,
    seo: row.seo,
    onlineStorePreviewUrl: `https://${ctx.store.domain}/products/${row.handle}`,
    templateSuffix: null,
    isGiftCard: row.giftCard,
    // Product.category: "The category of a product from Shopify's Standard Product Taxonomy" (null when none).
    category: () => {
      const node = row.categoryId === null ? undefined : taxonomyNode(row.categoryId);
      return node ? taxonomyCategoryObject(node) : null;
    },
    requiresSellingPlan: false,
    tracksInventory: true,
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.updatedAt),
    // publishedAt, onlineStoreUrl, publishedOnPublication, resourcePublicationsV2…: from the product's publications, not
    // its status (ACTIVE publishes nothing by itself; publishable.ts).
    ...publishableFields(row, ctx, (p) => productObject(p, ctx)),
    // Product.collections: "A list of collections that include the product" (schema 2026-10); filters as collections(query:).
    collections: async (args: PageArgs & { query?: string | null; sortKey?: string | null; reverse?: boolean | null }) => {
      const rows = await ctx.collections.list(ctx.store.id, args.query, args.sortKey, args.reverse === true, row.id);
      return listConnection(
        rows,
        args,
        (c) => c.id,
        (c) => collectionObject(c, ctx, (p) => productObject(p, ctx)),
      );
    },
    options: ({ first }: { first?: number | null }) =>
      row.options.slice(0, first ?? undefined).map((o, i) => ({
        __typename: 'ProductOption',
        id: gid('ProductOption', row.id * 10 + i + 1),
        name: o.name,
        position: i + 1,
        values: o.values,
        linkedMetafield: null,
        optionValues: o.values.map((v, j) => ({ id: optionValueId(row, i + 1, j + 1), name: v, hasVariants: true, linkedMetafieldValue: null, swatch: null })),
      })),
    hasOnlyDefaultVariant:
      row.options.length === 1 && row.options[0].name === 'Title' && row.options[0].values.length === 1 && row.options[0].values[0] === 'Default Title',
    ...productLists(row, ctx, written),
  };
}

/** A product's lists (variants, media, metafields) and their counts: read as a page asks, or as productSet wrote them. */
function productLists(row: ProductRow, ctx: SandboxContext, written: WrittenLists | null): Record<string, unknown> {
  const repo = ctx.productRepo;
  let variantRows: Promise<VariantRow[]> | null = written && Promise.resolve(written.variants);
  const allVariants = () => (variantRows ??= ctx.lists ? ctx.lists.variants(row.id) : repo.variants(row.id, 0, 100_000));
  // The rows a page query would return: those after the cursor's position, at most `fetch`.
  const pageOf = <T extends { position: number }>(rows: T[], p: { afterKey: number; fetch: number }) =>
    rows.filter((r) => r.position > p.afterKey).slice(0, p.fetch);
  return {
    totalInventory: async () => (await allVariants()).reduce((sum, v) => sum + sellableQuantity(v.inventory), 0),
    variants: async (args: PageArgs) => {
      const p = page(args);
      const rows = written ? pageOf(written.variants, p) : ctx.lists ? pageOf(await allVariants(), p) : await repo.variants(row.id, p.afterKey, p.fetch);
      return connection(
        p,
        rows,
        (v) => v.position,
        (v) => variantObject(row, v, ctx),
        p.afterKey > 0,
      );
    },
    variantsCount: async () => ({ count: written ? written.variants.length : await repo.countVariants(row.id), precision: 'EXACT' }),
    media: async (args: PageArgs) => {
      const p = page(args);
      const rows = written ? pageOf(written.media, p) : ctx.lists ? pageOf(await ctx.lists.media(row.id), p) : await repo.media(row.id, p.afterKey, p.fetch);
      // Unfinished media of a dead process resume (sandbox-media.service.ts).
      ctx.media.resumeUnfinished(rows);
      return connection(
        p,
        rows,
        (m) => m.position,
        (m) => mediaObject(m, ctx),
        p.afterKey > 0,
      );
    },
    mediaCount: async () => ({ count: written ? written.media.length : await repo.countMedia(row.id), precision: 'EXACT' }),
    metafield: async ({ namespace, key }: { namespace?: string | null; key: string }) => {
      const ns = namespace ?? '$app';
      const m = (await (ctx.lists ? ctx.lists.metafields(row.id) : ctx.metafieldRepo.metafields(row.id))).find((x) => x.namespace === ns && x.key === key);
      return m ? metafieldObject(m, 'PRODUCT') : null;
    },
    metafields: async (args: PageArgs & { namespace?: string | null; keys?: string[] | null }) => {
      const p = page(args);
      const all = (await (ctx.lists ? ctx.lists.metafields(row.id) : ctx.metafieldRepo.metafields(row.id))).filter(
        (m) => (args.namespace == null || m.namespace === args.namespace) && (args.keys == null || args.keys.includes(`${m.namespace}.${m.key}`)),
      );
      const rows = all.filter((m) => m.id > p.afterKey).slice(0, p.fetch);
      return connection(
        p,
        rows,
        (m) => m.id,
        (m) => metafieldObject(m, 'PRODUCT'),
        p.afterKey > 0,
      );
    },
  };
}
