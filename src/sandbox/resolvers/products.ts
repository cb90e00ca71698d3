// Products: productSet (rules in sandbox-product.service.ts), productByIdentifier, product, products, productsCount,
// productVariant, productDelete, metafieldDefinitionCreate, metafieldDefinition(s). The objects are product-object.ts.
import { GraphQLError } from 'graphql';
import type { ProductFilter } from '../product-filter.js';
import type { DefinitionRow } from '../sandbox-metafield.repository.js';
import { gid, gidNumber } from '../gid.js';
import type { ProductSetArgs } from '../product-set-args.js';
import { connection, page, type PageArgs } from './connection.js';
import { knownType, validationsProblem } from '../metafield-types.js';
import type { ResolverModule, SandboxContext } from './types.js';
import { emitTopic } from './webhooks.js';
import { productObject, variantObject } from './product-object.js';

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
  const eligible = UNIQUE_VALUE_TYPES.has(row.type) && (row.uniqueValues || !(await ctx.metafieldRepo.hasMetafields(ctx.store.id, row.namespace, row.key)));
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
      const rows = await ctx.metafieldRepo.definitions(ctx.store.id, 'PRODUCT');
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
      const all = (await ctx.metafieldRepo.definitions(ctx.store.id, 'PRODUCT'))
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
      if (unique && (await ctx.metafieldRepo.hasMetafields(ctx.store.id, namespace, d.key))) {
        // "For now, this capability can only be set on metafield definitions that don't yet have associated metafields" (same page).
        return refuse(
          ['definition', 'capabilities', 'uniqueValues'],
          `The unique values capability can only be set on a definition whose metafields have no values yet: products already have ${namespace}.${d.key}.`,
          'INVALID_CAPABILITY',
        );
      }
      const row = await ctx.metafieldRepo.insertDefinition({
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
