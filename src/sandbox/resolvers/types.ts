// How resolver modules plug into the sandbox: each module contributes root fields of Query and Mutation, keyed by the
// schema's field names. Below the root, plain objects answer by property (graphql-js's default resolver calls a
// property that is a function with (args, context, info)); a field no module provides answers NOT_IMPLEMENTED.
import type { GraphQLResolveInfo } from 'graphql';
import type { Db } from '../../db/client.js';
import type { LineRunner, QueryRunner, SandboxBulkService } from '../bulk-operation.service.js';
import type { SandboxCollectionService } from '../sandbox-collection.service.js';
import type { SandboxTranslationService } from '../sandbox-translation.service.js';
import type { SandboxMetafieldRepository } from '../sandbox-metafield.repository.js';
import type { SandboxProductRepository } from '../sandbox-product.repository.js';
import type { SandboxProductService } from '../sandbox-product.service.js';
import type { SandboxInventoryService } from '../sandbox-inventory.service.js';
import type { SandboxMediaService } from '../sandbox-media.service.js';
import type { SandboxMerchantEditService } from '../sandbox-merchant-edits.service.js';
import type { SandboxPublicationService } from '../sandbox-publication.service.js';
import type { ProductListsLoader } from '../product-lists.loader.js';
import type { SandboxStore } from '../sandbox-store.repository.js';
import type { SandboxWebhookService } from '../sandbox-webhooks.service.js';
import type { TokenAccess } from '../sandbox-oauth.service.js';

export interface SandboxContext {
  /** The authenticated store. */
  store: SandboxStore;
  /** For resolvers that read the sandbox's own tables (products, variants, media, locations). */
  db: Db;
  /** The catalogue: productSet's rules, and reads of products, variants, media, metafields and locations. */
  products: SandboxProductService;
  productRepo: SandboxProductRepository;
  /** Product metafields and the store's metafield definitions. */
  metafieldRepo: SandboxMetafieldRepository;
  /** Sales channels: publications and what is published on them. */
  publications: SandboxPublicationService;
  /** Custom collections: their fields, products, metafields and publications. */
  collections: SandboxCollectionService;
  /** Languages and translations: shopLocales, translatable content and its digests, translationsRegister/Remove. */
  translations: SandboxTranslationService;
  /** Inventory levels and quantities: inventoryActivate, inventorySetQuantities, inventoryAdjustQuantities. */
  inventory: SandboxInventoryService;
  /** A merchant's edits: productUpdate, productVariantsBulkUpdate. */
  merchantEdits: SandboxMerchantEditService;
  /** The media lifecycle: fetching `originalSource`, status, files and errors. */
  media: SandboxMediaService;
  /** Bulk mutations (stagedUploadsCreate, bulkOperationRunMutation, bulkOperation); absent outside an HTTP request. */
  bulk?: SandboxBulkService;
  /** What checks a bulk document and runs it (bulk-runner.ts, bulk-query-runner.ts); given with `bulk`. */
  bulkRunners?: BulkRunners;
  /** `{scheme}://{host}/sandbox/shopify/{domain}` as the client reached it: staged-upload targets and result URLs. */
  baseUrl?: string;
  /** Set while a bulk query runs: products' lists are read a page of products at a time (product-lists.loader.ts). */
  lists?: ProductListsLoader;
  /** Webhook subscriptions and deliveries (sandbox-webhooks.service.ts); absent: no webhook is sent (bulk lines). */
  webhooks?: SandboxWebhookService;
  /** What the call's token may do (access-scopes.ts); absent or `covered` null: every field. */
  access?: TokenAccess;
}

/**
 * Checks a bulk mutation or query and makes its runner. The runners execute documents through the resolvers
 * (resolvers/index.ts), so the bulk resolvers get them from here rather than import them: sandbox-graphql.service.ts
 * loads them with graphql-js on the first bulk operation.
 */
export interface BulkRunners {
  prepareMutation(text: string): Promise<{ runner: LineRunner<SandboxContext> } | { error: string }>;
  prepareQuery(text: string, groupObjects: boolean): Promise<{ runner: QueryRunner<SandboxContext> } | { errors: string[] }>;
}

export type RootResolver = (args: Record<string, unknown>, context: SandboxContext, info: GraphQLResolveInfo) => unknown;

export interface ResolverModule {
  query?: Record<string, RootResolver>;
  mutation?: Record<string, RootResolver>;
}
