// The Shopify end of the storefront ports (StorefrontPort, StorefrontCatalogueReader, StorefrontWebhooks,
// StorefrontCollections): a facade that builds one ShopifyClient (the transport, throttle and per-shop state,
// shopify-client.ts) and the parts that use it, and hands each port method to its part: the per-call upsert
// (product-upserter.ts), the bulk upserts (bulk-upsert.ts), the catalogue read (catalogue-read.ts), the dry run
// (product-preview.ts), webhooks (webhook-subscriptions.ts) and category collections (category-collections.ts).
import type { BulkUpsertItem, BulkUpsertState } from '../port/bulk.js';
import type { CatalogueReadState, DriftChange, StorefrontCatalogueProduct, StorefrontCatalogueReader } from '../port/catalogue.js';
import type { StorefrontCollections } from '../port/collections.js';
import type { KnownStorefrontProduct, WrittenFields } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { AttributeMetafieldSpec, StorefrontPublication, SyncPlacement } from '../port/placement.js';
import type { ShopHealth, StorefrontShop } from '../port/shop.js';
import type { ProductPreview, ProductUpsertResult } from '../port/upsert-result.js';
import type { StorefrontWebhooks, StorefrontWebhookTopic } from '../port/webhooks.js';
import type { StorefrontPort } from '../storefront.port.js';
import type { ShopMetafieldDefinition } from './attribute-metafields.js';
import { ShopifyBulkUpserts } from './bulk-upsert.js';
import { ShopifyCatalogueReads } from './catalogue-read.js';
import * as categoryCollections from './category-collections.js';
import { preflight } from './preflight.js';
import { catalogueView, driftChanges } from './product-diff.js';
import { mapProduct, NOTHING_KNOWN } from './product-mapper.js';
import type { ShopLocation, StorefrontMetafield } from './product-set-input.js';
import { previewUpserts } from './product-preview.js';
import { ProductUpserter } from './product-upserter.js';
import { ShopifyClient, type ShopifyClientOptions } from './shopify-client.js';
import type { ShopBudgets } from './shop-budget.js';
import { TaxonomyCategories } from './taxonomy.js';
import type { ObserveStatus, ShopThrottle } from './throttle.js';
import { ShopifyWebhookSubscriptions } from './webhook-subscriptions.js';

export { rewriteUrl, VARIANT_THROTTLE_RETRY_SECONDS } from './graphql-answer.js';
export { productSetCost } from './product-set-result.js';

export type ShopifyAdapterOptions = ShopifyClientOptions;

/** No integration: nothing published, stock nowhere, no currency check (pre-flight of the product alone). */
const NO_PLACEMENT: SyncPlacement = {
  channelPublications: {},
  warehouseLocations: {},
  unsyncedWarehouses: [],
  variantStockLocation: null,
  pricesConvertedElsewhere: true,
};

export class ShopifyAdapter implements StorefrontPort, StorefrontCatalogueReader, StorefrontWebhooks, StorefrontCollections {
  readonly budgets: ShopBudgets;
  readonly throttle: ShopThrottle;
  private readonly client: ShopifyClient;
  private readonly upserter: ProductUpserter;
  private readonly bulk: ShopifyBulkUpserts;
  private readonly catalogue: ShopifyCatalogueReads;
  private readonly webhooks: ShopifyWebhookSubscriptions;

  constructor(options: ShopifyAdapterOptions = {}) {
    this.client = new ShopifyClient(options);
    this.budgets = this.client.budgets;
    this.throttle = this.client.throttle;
    this.upserter = new ProductUpserter(this.client, new TaxonomyCategories(this.client));
    this.bulk = new ShopifyBulkUpserts(this.client, this.upserter);
    this.catalogue = new ShopifyCatalogueReads(this.client);
    this.webhooks = new ShopifyWebhookSubscriptions(this.client);
  }

  preflight(product: PimProductSnapshot, known: KnownStorefrontProduct = NOTHING_KNOWN): string[] {
    const mapped = mapProduct(product, known, { locations: [], placement: NO_PLACEMENT, current: null });
    return [...preflight(product, mapped.input), ...mapped.merchantVariants.refused];
  }

  /** One bulk mutation of productSet lines (bulk-upsert.ts). */
  startBulkUpsert(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }> {
    return this.bulk.start(shop, items);
  }

  bulkUpsertState(shop: StorefrontShop, operationId: string, items: BulkUpsertItem[]): Promise<BulkUpsertState> {
    return this.bulk.state(shop, operationId, items);
  }

  /** A push's dry run: pre-flight, mapping, the current products read by id in batches, compared (product-preview.ts). */
  previewUpserts(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<ProductPreview[]> {
    return previewUpserts(this.client, this.upserter.taxonomy, shop, items);
  }

  /** The shop's whole catalogue in one bulk query (catalogue-read.ts). */
  startCatalogueRead(shop: StorefrontShop): Promise<{ operationId: string }> {
    return this.catalogue.start(shop);
  }

  catalogueReadState(shop: StorefrontShop, operationId: string): Promise<CatalogueReadState> {
    return this.catalogue.state(shop, operationId);
  }

  /** What changed in the shop since the bridge wrote it (drift reports; product-diff.ts). */
  compareWritten(product: StorefrontCatalogueProduct, written: WrittenFields, mediaIds: Record<string, string>): DriftChange[] {
    return driftChanges(written, catalogueView(product), mediaIds);
  }

  /** The app's webhook subscriptions on the shop (webhook-subscriptions.ts). */
  webhookSubscriptions(shop: StorefrontShop) {
    return this.webhooks.webhookSubscriptions(shop);
  }

  ensureWebhookSubscriptions(shop: StorefrontShop, uri: string, topics: readonly StorefrontWebhookTopic[]) {
    return this.webhooks.ensureWebhookSubscriptions(shop, uri, topics);
  }

  ensureCategoryCollection(shop: StorefrontShop, category: { id: number; name: string }, publications: string[]) {
    return categoryCollections.ensureCategoryCollection(this.client.caller(shop), category, publications);
  }

  renameCollection(shop: StorefrontShop, id: string, title: string) {
    return categoryCollections.renameCollection(this.client.caller(shop), id, title);
  }

  deleteCollection(shop: StorefrontShop, id: string) {
    return categoryCollections.deleteCollection(this.client.caller(shop), id);
  }

  shopHealth(shop: StorefrontShop, options: { timeoutMs?: number } = {}): Promise<ShopHealth> {
    return this.client.shopHealth(shop, options);
  }

  /** `options.signal`: the caller's; once it fired no call of this upsert starts, and one under way is given up. */
  upsertProduct(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    options: { signal?: AbortSignal } = {},
  ): Promise<ProductUpsertResult> {
    return this.upserter.upsert(shop, product, known, placement, options.signal);
  }

  locations(shop: StorefrontShop, options: { fresh?: boolean } = {}): Promise<ShopLocation[]> {
    return this.client.locations(shop, options);
  }

  publications(shop: StorefrontShop, options: { fresh?: boolean } = {}): Promise<StorefrontPublication[]> {
    return this.client.publications(shop, options);
  }

  attributeMetafieldsOf(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    specs: AttributeMetafieldSpec[],
    options: { keepInvalid?: boolean } = {},
  ): Promise<StorefrontMetafield[]> {
    return this.upserter.attributeMetafieldsOf(shop, product, specs, options);
  }

  attributeDefinitions(shop: StorefrontShop, specs: AttributeMetafieldSpec[]): Promise<Map<string, ShopMetafieldDefinition>> {
    return this.client.attributeDefinitions(shop, specs);
  }

  /** One GraphQL call outside the throttle (a health check, tests); see ShopifyClient.request. */
  request<T>(shop: StorefrontShop, document: string, variables?: Record<string, unknown>, timeoutMs?: number, observe?: ObserveStatus): Promise<T> {
    return this.client.request<T>(shop, document, variables, { timeoutMs, observe });
  }
}
