// Products: productSet (rules in sandbox-product.service.ts), productByIdentifier, product, products, productsCount,
// productVariant, productDelete, metafieldDefinitionCreate, metafieldDefinition(s). Objects are plain; nested lists load on demand.
import { GraphQLError } from 'graphql';
import { inventoryLevels, sellableQuantity } from '../sandbox-inventory.service.js';
import type { DefinitionRow, ProductFilter, ProductRow, VariantRow } from '../sandbox-product.repository.js';
import { gidNumber } from '../gid.js';
import type { ProductSetArgs, WrittenLists } from '../product-set-args.js';
import { collectionObject } from './collection-object.js';
import { metafieldObject } from './metafield-object.js';
import { connection, dateTime, listConnection, page, type PageArgs } from './connection.js';
import { locationObject } from './locations.js';
import { knownType, validationsProblem } from '../metafield-types.js';
import { mediaObject } from './media.js';
import { publishableFields } from './publishable.js';
import type { ResolverModule, SandboxContext } from './types.js';
import { emitTopic } from './webhooks.js';
import { plainText } from './html-text.js';
import { taxonomyNode } from '../taxonomy-data.js';
import { taxonomyCategoryObject } from './taxonomy.js';

const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;

function optionValueId(product: ProductRow, option: number, value: number): string {
  return gid('ProductOptionValue', product.id * 1000 + option * 100 + value);
}

export function variantObject(product: ProductRow, row: VariantRow, ctx: SandboxContext): Record<string, unknown> {
  const title = row.optionValues.length ? row.optionValues.map((o) => o.name).join(' / ') : 'Default Title';
  // ProductVariant.inventoryQuantity: "The total sellable quantity of the variant" (active levels only).
  const total = sellableQuantity(row.inventory);
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

/** `written`: a product productSet just made, with the variants and media its transaction wrote (no read needed). */
export function productObject(row: ProductRow, ctx: SandboxContext, written: WrittenLists | null = null): Record<string, unknown> {
  const repo = ctx.productRepo;
  let variantRows: Promise<VariantRow[]> | null = written && Promise.resolve(written.variants);
  const allVariants = () => (variantRows ??= ctx.lists ? ctx.lists.variants(row.id) : repo.variants(row.id, 0, 100_000));
  // The rows a page query would return: those after the cursor's position, at most `fetch`.
  const pageOf = <T extends { position: number }>(rows: T[], p: { afterKey: number; fetch: number }) =>
    rows.filter((r) => r.position > p.afterKey).slice(0, p.fetch);
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
      const m = (await (ctx.lists ? ctx.lists.metafields(row.id) : repo.metafields(row.id))).find((x) => x.namespace === ns && x.key === key);
      return m ? metafieldObject(m, 'PRODUCT') : null;
    },
    metafields: async (args: PageArgs & { namespace?: string | null; keys?: string[] | null }) => {
      const p = page(args);
      const all = (await (ctx.lists ? ctx.lists.metafields(row.id) : repo.metafields(row.id))).filter(
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

/**
 * `products(query:)` as far as the sandbox understands it: `handle:` (a comma-separated list, as Shopify's "Filter by a
 * comma-separated list of product handles"), `title:`, `status:`, `sku:`, `metafields.{namespace}.{key}:{value}` (an
 * exact, case-sensitive match, "Only case-sensitive, exact matches are supported for filtering",
 * https://shopify.dev/docs/apps/build/custom-data/metafields/query-by-metafield-value) and free text.
 */
export function parseProductQuery(query: string | null | undefined): ProductFilter {
  const filter: ProductFilter = {};
  if (!query) return filter;
  const text: string[] = [];
  for (const m of query.matchAll(/([\w.]+):(?:"([^"]*)"|'([^']*)'|(\S+))|"([^"]*)"|(\S+)/g)) {
    const [, field, dq, sq, bare, quoted, word] = m;
    const value = dq ?? sq ?? bare;
    const metafield = field ? /^metafields\.([^.]+)\.([^.]+)$/.exec(field) : null;
    if (metafield) filter.metafield = { namespace: metafield[1], key: metafield[2], value };
    else if (field?.toLowerCase() === 'handle') filter.handle = value.split(',').filter((h) => h !== '');
    else if (field && ['title', 'status', 'sku'].includes(field.toLowerCase())) filter[field.toLowerCase() as 'title' | 'status' | 'sku'] = value;
    else text.push(quoted ?? word ?? `${field}:${value}`);
  }
  if (text.length) filter.text = text.join(' ');
  return filter;
}

async function findByIdentifier(
  identifier: { id?: string | null; handle?: string | null; customId?: { namespace?: string | null; key: string; value: string } | null },
  ctx: SandboxContext,
) {
  const repo = ctx.productRepo;
  if (identifier.id != null) {
    const id = gidNumber(identifier.id, 'Product');
    return id === null ? null : repo.product(ctx.store.id, id);
  }
  if (identifier.handle != null) return repo.productByHandle(ctx.store.id, identifier.handle);
  if (identifier.customId != null)
    return repo.productByMetafield(ctx.store.id, identifier.customId.namespace ?? '$app', identifier.customId.key, identifier.customId.value);
  return null;
}

/** MetafieldCapabilityUniqueValues is available for these types (https://shopify.dev/changelog/adding-unique-values-to-metafields). */
const UNIQUE_VALUE_TYPES = new Set(['single_line_text_field', 'number_integer', 'url', 'id']);

async function definitionObject(row: DefinitionRow, ctx: SandboxContext): Promise<Record<string, unknown>> {
  // eligible: the type allows it and, when not enabled, no product has a value yet (it can no longer be enabled).
  const eligible = UNIQUE_VALUE_TYPES.has(row.type) && (row.uniqueValues || !(await ctx.productRepo.hasMetafields(ctx.store.id, row.namespace, row.key)));
  return {
    __typename: 'MetafieldDefinition',
    id: gid('MetafieldDefinition', row.id),
    name: row.name,
    namespace: row.namespace,
    key: row.key,
    ownerType: row.ownerType,
    description: null,
    type: { name: row.type, category: null, supportsDefinitionMigrations: false, supportedValidations: [], valueType: 'STRING' },
    // MetafieldDefinition.validations: {name, type, value} as given at creation (choices is a JSON list).
    validations: row.validations.map((v) => ({ name: v.name, value: v.value, type: v.name === 'choices' ? 'list.single_line_text_field' : row.type })),
    capabilities: {
      uniqueValues: { enabled: row.uniqueValues, eligible },
      adminFilterable: { enabled: false, eligible: true, status: 'NOT_FILTERABLE' },
      smartCollectionCondition: { enabled: false, eligible: true },
    },
    pinnedPosition: null,
    useAsCollectionCondition: false,
  };
}

export const productResolvers: ResolverModule = {
  query: {
    product: async (args, ctx) => {
      const id = gidNumber(args.id, 'Product');
      const row = id === null ? null : await ctx.productRepo.product(ctx.store.id, id);
      return row ? productObject(row, ctx) : null;
    },
    productByIdentifier: async (args, ctx) => {
      const row = await findByIdentifier(args.identifier as Parameters<typeof findByIdentifier>[0], ctx);
      return row ? productObject(row, ctx) : null;
    },
    products: async (args, ctx) => {
      const p = page(args as PageArgs);
      if (args.sortKey != null && args.sortKey !== 'ID') {
        throw new GraphQLError(`The Pimbridge sandbox does not emulate products(sortKey: ${String(args.sortKey)}) yet`, {
          extensions: { code: 'NOT_IMPLEMENTED' },
        });
      }
      const rows = await ctx.productRepo.products(ctx.store.id, parseProductQuery(args.query as string | null), p.afterKey, p.fetch);
      return connection(
        p,
        rows,
        (r) => r.id,
        (r) => productObject(r, ctx),
        p.afterKey > 0,
      );
    },
    productsCount: async (args, ctx) => {
      const limit = typeof args.limit === 'number' ? args.limit : 10_000;
      const n = await ctx.productRepo.countProducts(ctx.store.id, parseProductQuery(args.query as string | null));
      return n > limit ? { count: limit, precision: 'AT_LEAST' } : { count: n, precision: 'EXACT' };
    },
    /** `metafieldDefinition(identifier: {ownerType, namespace, key})` or `(id:)`, for PRODUCT definitions. */
    metafieldDefinition: async (args, ctx) => {
      const identifier = args.identifier as { ownerType: string; namespace?: string | null; key: string } | null | undefined;
      const id = args.id != null ? gidNumber(args.id, 'MetafieldDefinition') : null;
      const rows = await ctx.productRepo.definitions(ctx.store.id, 'PRODUCT');
      const row = identifier
        ? rows.find((r) => r.ownerType === identifier.ownerType && r.namespace === (identifier.namespace ?? '$app') && r.key === identifier.key)
        : rows.find((r) => r.id === id);
      return row ? definitionObject(row, ctx) : null;
    },
    /** `metafieldDefinitions(ownerType:, namespace:, key:, first:, after:)`, PRODUCT definitions only, by id. */
    metafieldDefinitions: async (args, ctx) => {
      const p = page(args as PageArgs);
      if (args.ownerType !== 'PRODUCT')
        return connection(
          p,
          [],
          () => 0,
          () => null,
          false,
        );
      const all = (await ctx.productRepo.definitions(ctx.store.id, 'PRODUCT'))
        .filter((d) => (args.namespace == null || d.namespace === args.namespace) && (args.key == null || d.key === args.key))
        .sort((a, b) => a.id - b.id);
      const rows = all.filter((d) => d.id > p.afterKey).slice(0, p.fetch);
      const nodes = await Promise.all(rows.map((r) => definitionObject(r, ctx)));
      return connection(
        p,
        rows.map((r, i) => ({ r, node: nodes[i] })),
        (x) => x.r.id,
        (x) => x.node,
        p.afterKey > 0,
      );
    },
    productVariant: async (args, ctx) => {
      const id = gidNumber(args.id, 'ProductVariant');
      if (id === null) return null;
      const found = await ctx.productRepo.variantWithProduct(ctx.store.id, id);
      return found ? variantObject(found.product, found.variant, ctx) : null;
    },
  },
  mutation: {
    productSet: async (args, ctx) => {
      const result = await ctx.products.productSet(ctx.store.id, args as unknown as ProductSetArgs, ctx.store.variantThrottleLimit);
      return { product: result.product ? productObject(result.product, ctx, result.written) : null, productSetOperation: null, userErrors: result.userErrors };
    },
    productDelete: async (args, ctx) => {
      const input = args.input as { id: string };
      const id = gidNumber(input.id, 'Product');
      const deleted = id !== null && (await ctx.productRepo.deleteProduct(ctx.store.id, id));
      // products/delete carries the product's id only (sandbox-webhooks.service.ts).
      if (deleted) await emitTopic(ctx, 'PRODUCTS_DELETE', { id }).catch(() => undefined);
      return {
        deletedProductId: deleted ? input.id : null,
        productDeleteOperation: null,
        userErrors: deleted ? [] : [{ field: ['id'], message: 'Product does not exist' }],
      };
    },
    metafieldDefinitionCreate: async (args, ctx) => {
      const d = args.definition as {
        namespace?: string | null;
        key: string;
        name: string;
        type: string;
        ownerType: string;
        capabilities?: { uniqueValues?: { enabled: boolean } | null } | null;
        validations?: { name: string; value: string }[] | null;
      };
      const namespace = d.namespace ?? '$app';
      const refuse = (field: string[], message: string, code: string) => ({
        createdDefinition: null,
        userErrors: [{ field, message, code, elementIndex: null, elementKey: null }],
      });
      if (d.ownerType !== 'PRODUCT') return refuse(['definition', 'ownerType'], 'The sandbox keeps metafield definitions for PRODUCT only.', 'INCLUSION');
      // MetafieldDefinitionInput (schema 2026-10): key "Must be 2-64 characters long and only contain alphanumeric, hyphen,
      // and underscore characters"; namespace "Must be 3-255 characters long" of the same characters.
      if (d.key.length < 2) return refuse(['definition', 'key'], 'Key is too short (minimum is 2 characters)', 'TOO_SHORT');
      if (d.key.length > 64) return refuse(['definition', 'key'], 'Key is too long (maximum is 64 characters)', 'TOO_LONG');
      if (!/^[A-Za-z0-9_-]+$/.test(d.key)) return refuse(['definition', 'key'], 'Key contains one or more invalid characters.', 'INVALID_CHARACTER');
      if (d.namespace != null) {
        if (d.namespace.length < 3) return refuse(['definition', 'namespace'], 'Namespace is too short (minimum is 3 characters)', 'TOO_SHORT');
        if (d.namespace.length > 255) return refuse(['definition', 'namespace'], 'Namespace is too long (maximum is 255 characters)', 'TOO_LONG');
        if (!/^[A-Za-z0-9_-]+$/.test(d.namespace))
          return refuse(['definition', 'namespace'], 'Namespace contains one or more invalid characters.', 'INVALID_CHARACTER');
      }
      // MetafieldDefinitionInput.type: one of the "supported types" (https://shopify.dev/apps/metafields/types);
      // INCLUSION: "The input value isn't included in the list" (MetafieldDefinitionCreateUserErrorCode, schema 2026-10).
      if (!knownType(d.type)) return refuse(['definition', 'type'], `Type name ${d.type} is not a valid type.`, 'INCLUSION');
      const validations = (d.validations ?? []).map((v) => ({ name: v.name, value: v.value }));
      const invalidValidation = validationsProblem(d.type, validations);
      if (invalidValidation) return refuse(['definition', 'validations'], invalidValidation.message, invalidValidation.code);
      const unique = d.capabilities?.uniqueValues?.enabled ?? false;
      if (unique && !UNIQUE_VALUE_TYPES.has(d.type)) {
        // "This is available for single_line_text_field, number_integer, url, and id" (shopify.dev changelog, "Adding unique
        // values to metafields", https://shopify.dev/changelog/adding-unique-values-to-metafields).
        return refuse(
          ['definition', 'capabilities', 'uniqueValues'],
          `The unique values capability is not available for the type ${d.type}.`,
          'INVALID_CAPABILITY',
        );
      }
      if (unique && (await ctx.productRepo.hasMetafields(ctx.store.id, namespace, d.key))) {
        // "For now, this capability can only be set on metafield definitions that don't yet have associated metafields" (same page).
        return refuse(
          ['definition', 'capabilities', 'uniqueValues'],
          `The unique values capability can only be set on a definition whose metafields have no values yet: products already have ${namespace}.${d.key}.`,
          'INVALID_CAPABILITY',
        );
      }
      const row = await ctx.productRepo.insertDefinition({
        storeId: ctx.store.id,
        ownerType: d.ownerType,
        namespace,
        key: d.key,
        name: d.name,
        type: d.type,
        uniqueValues: unique,
        validations,
      });
      ctx.products.forgetDefinitions(ctx.store.id);
      if (!row) return refuse(['definition', 'key'], `Key is in use for Product metafields on the '${namespace}' namespace.`, 'TAKEN');
      return { createdDefinition: await definitionObject(row, ctx), userErrors: [] };
    },
  },
};
