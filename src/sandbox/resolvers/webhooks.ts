// Webhook subscriptions: webhookSubscriptions, webhookSubscription, webhookSubscriptionCreate, webhookSubscriptionDelete
// (rules in sandbox-webhooks.service.ts), and the payloads the store sends when its data changes. Payloads are the
// REST-shaped JSON Shopify sends for these topics, with the fields the bridge reads (ids, title, handle, body_html,
// vendor, product_type, status, tags, variants with sku/price/compare_at_price/barcode/inventory_item_id).
import { GraphQLError } from 'graphql';
import type { ProductRow, VariantRow } from '../sandbox-product.repository.js';
import type { SandboxWebhookTopic } from '../sandbox-webhooks.service.js';
import type { WebhookSubscriptionRow } from '../sandbox-webhooks.repository.js';
import { connection, dateTime, page, type PageArgs } from './connection.js';
import { gidNumber } from '../gid.js';
import { ADMIN_API_VERSION } from '../../storefront/shopify/api-version.js';
import type { ResolverModule, SandboxContext } from './types.js';

const subscriptionGid = (id: number) => `gid://shopify/WebhookSubscription/${id}`;

function subscriptionObject(row: WebhookSubscriptionRow): Record<string, unknown> {
  return {
    id: subscriptionGid(row.id),
    legacyResourceId: String(row.id),
    topic: row.topic,
    uri: row.uri,
    callbackUrl: row.uri,
    endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: row.uri },
    format: row.format,
    name: row.name,
    filter: null,
    includeFields: [],
    metafieldNamespaces: [],
    metafields: [],
    apiVersion: { handle: ADMIN_API_VERSION, displayName: ADMIN_API_VERSION, supported: true },
    createdAt: dateTime(row.createdAt),
    updatedAt: dateTime(row.updatedAt),
  };
}

function service(ctx: SandboxContext) {
  if (!ctx.webhooks) throw new GraphQLError('The Pimbridge sandbox does not emulate webhooks here', { extensions: { code: 'NOT_IMPLEMENTED' } });
  return ctx.webhooks;
}

/** products/update's payload (REST Product). */
export function productPayload(product: ProductRow, variants: VariantRow[]): Record<string, unknown> {
  return {
    id: product.id,
    admin_graphql_api_id: `gid://shopify/Product/${product.id}`,
    title: product.title,
    handle: product.handle,
    body_html: product.descriptionHtml,
    vendor: product.vendor,
    product_type: product.productType,
    status: product.status.toLowerCase(),
    tags: product.tags.join(', '),
    created_at: dateTime(product.createdAt),
    updated_at: dateTime(product.updatedAt),
    variants: variants.map((v) => ({
      id: v.id,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${v.id}`,
      product_id: product.id,
      sku: v.sku,
      price: v.price,
      compare_at_price: v.compareAtPrice,
      barcode: v.barcode,
      position: v.position,
      inventory_item_id: v.id,
      inventory_quantity: Object.entries(v.inventory)
        .filter(([k]) => /^\d+$/.test(k))
        .reduce((n, [, q]) => n + q, 0),
      updated_at: dateTime(v.updatedAt),
    })),
  };
}

/** Emits products/update for a product as it is now (after the caller's write committed). */
export async function emitProductUpdate(ctx: SandboxContext, productId: number): Promise<void> {
  if (!ctx.webhooks) return;
  const product = await ctx.productRepo.product(ctx.store.id, productId);
  if (!product) return;
  const variants = await ctx.productRepo.variants(product.id, 0, 2048);
  await ctx.webhooks.emit(ctx.store, 'PRODUCTS_UPDATE', productPayload(product, variants));
}

export async function emitTopic(ctx: SandboxContext, topic: SandboxWebhookTopic, payload: unknown): Promise<void> {
  if (ctx.webhooks) await ctx.webhooks.emit(ctx.store, topic, payload);
}

export const webhookResolvers: ResolverModule = {
  query: {
    webhookSubscriptions: async (args, ctx) => {
      const a = args as PageArgs & { topics?: string[] | null; uri?: string | null; callbackUrl?: string | null };
      const p = page(a);
      const rows = (await service(ctx).list(ctx.store.id, { topics: a.topics, uri: a.uri ?? a.callbackUrl })).filter((r) => r.id > p.afterKey);
      return connection(p, rows.slice(0, p.fetch), (r) => r.id, subscriptionObject, p.afterKey > 0);
    },
    webhookSubscription: async (args, ctx) => {
      const id = gidNumber(args.id, 'WebhookSubscription');
      const row = id === null ? null : await service(ctx).find(ctx.store.id, id);
      return row ? subscriptionObject(row) : null;
    },
  },
  mutation: {
    webhookSubscriptionCreate: async (args, ctx) => {
      const input = (args.webhookSubscription ?? {}) as Record<string, unknown>;
      for (const key of ['filter', 'includeFields', 'metafieldNamespaces', 'metafields']) {
        const v = input[key];
        if (v != null && !(Array.isArray(v) && v.length === 0))
          throw new GraphQLError(`The Pimbridge sandbox does not emulate WebhookSubscriptionInput.${key} yet`, { extensions: { code: 'NOT_IMPLEMENTED' } });
      }
      const result = await service(ctx).create(ctx.store, String(args.topic), input as { uri?: string; callbackUrl?: string; format?: string; name?: string });
      return { webhookSubscription: result.subscription ? subscriptionObject(result.subscription) : null, userErrors: result.userErrors };
    },
    webhookSubscriptionDelete: async (args, ctx) => {
      const id = gidNumber(args.id, 'WebhookSubscription');
      const deleted = id !== null && (await service(ctx).delete(ctx.store.id, id));
      return {
        deletedWebhookSubscriptionId: deleted ? args.id : null,
        userErrors: deleted ? [] : [{ field: ['id'], message: 'Webhook subscription does not exist' }],
      };
    },
  },
};
