// What the connector needs from a storefront, whatever the platform. The Shopify adapter (storefront/shopify/) is the
// production end; the built-in sandbox answers the same Admin GraphQL API, so the adapter serves both.
export interface StorefrontShop {
  domain: string;
  /** Overrides `https://{domain}` (the sandbox, test servers). */
  apiBaseUrl: string | null;
  /** The Admin API access token, decrypted (the one to send when `tokens` is absent: a token that does not expire). */
  accessToken: string;
  /** An expiring token's source (client credentials, expiring offline tokens): absent for a static token. */
  tokens?: ShopTokenSource;
}

/** Where an expiring access token comes from (connector/shop-auth): the current one, and a renewal after a refusal. */
export interface ShopTokenSource {
  /** The token to send now: the cached one while it is fresh (no I/O), renewed first when it is about to expire. */
  current(): Promise<string>;
  /** The shop refused `stale` (HTTP 401): a renewed token, or a StorefrontError `unauthorized` when none can be had. */
  renewAfterRefusal(stale: string): Promise<string>;
}

export interface ShopHealth {
  /** Shopify's GID, e.g. `gid://shopify/Shop/1`. */
  id: string;
  name: string;
  myshopifyDomain: string;
  /** The plan's public display name, e.g. `Basic`. */
  plan: string;
  /** The shop's currency (ISO 4217), in which it takes prices. */
  currencyCode: string;
  /** The access scopes the app holds on the shop (currentAppInstallation.accessScopes); absent when not answered. */
  scopes?: string[];
}

/** A sales channel's publication (Shopify: Publication, titled by its catalog). */
export interface StorefrontPublication {
  id: string;
  name: string;
}

/** A place that stocks inventory (Shopify: Location). */
export interface StorefrontLocation {
  id: string;
  name: string;
  isActive: boolean;
}

/**
 * Where one integration's push puts a product on the shop, resolved from the integration's settings and the shop's
 * publications and locations (connector/integrations/integration-settings.ts).
 */
export interface SyncPlacement {
  /** Publication ids per PIM channel; a channel not listed is not published anywhere. */
  channelPublications: Record<string, string[]>;
  /** Location id per PIM warehouse code mapped explicitly; other warehouses go to the location of the same name. */
  warehouseLocations: Record<string, string>;
  /** Warehouse codes mapped to no location: their stock is not synced. */
  unsyncedWarehouses: string[];
  /** Where a variant's stock goes (the PIM keeps variant stock without a warehouse); null: nowhere. */
  variantStockLocation: string | null;
  /** Prices are converted by something else (e.g. Shopify Markets): no currency check before sending. */
  pricesConvertedElsewhere: boolean;
  /** false: a product deleted in the shop (mapping `metadata.deleted_in_shop`) is not created again; unset/true: it is. */
  recreateDeletedProducts?: boolean;
  /** Where the product type comes from: a PIM attribute's value, or (null, the default) the first category's name. */
  productType?: { attributeCode: string | null };
  /** The PIM attributes written as product metafields (none when unset). */
  attributeMetafields?: AttributeMetafieldSpec[];
  /**
   * The shop collection of each PIM category (by category id) that the bridge made (connector/collections): a product
   * joins those of its categories and leaves those of the categories it left. Unset: membership is left alone.
   */
  categoryCollections?: Record<string, string>;
}

/** One PIM attribute synced as a product metafield: its PIM definition, and the namespace and key it goes to. */
export interface AttributeMetafieldSpec {
  code: string;
  name: string;
  /** The PIM's attribute type: text, textarea, number, boolean, date, select, multiselect. */
  pimType: string;
  options: string[];
  namespace: string;
  key: string;
  /**
   * The attribute's own metafield (the PIM attribute's `metafield`, e.g. `custom.material`): its namespace is shared
   * with the merchant, so only this key is the bridge's. Absent: the integration's namespace, all of it the bridge's.
   */
  home?: boolean;
}

/** An app's credentials on a storefront (Shopify: the Dev Dashboard's client id and secret). */
export interface StorefrontApp {
  clientId: string;
  clientSecret: string;
}

/** What a token request gave: the access token, the scopes granted, and for an expiring token when and how to renew it. */
export interface AccessGrant {
  accessToken: string;
  scopes: string[];
  expiresAt: Date | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: Date | null;
}

/**
 * A token request failed. `refused`: the storefront said no (a wrong secret, a used or expired code or refresh token, an
 * uninstalled app): asking again will not help, the merchant must act. `unavailable`: it could not be asked; try later.
 */
export class StorefrontAuthError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'StorefrontAuthError';
  }
}

type ShopAddress = Pick<StorefrontShop, 'domain' | 'apiBaseUrl'>;

/** How the connector gets access to a shop (Shopify: OAuth; storefront/shopify/shopify-oauth.ts). */
export interface StorefrontAuthorization {
  /** The access scopes the bridge needs, requested at install. */
  readonly scopes: readonly string[];
  /** Whether `domain` is a host name the platform's shops have (Shopify: `{name}.myshopify.com`). */
  isShopHost(domain: string): boolean;
  /** Where an install sends the merchant to consent. */
  authorizeUrl(shop: ShopAddress, app: Pick<StorefrontApp, 'clientId'>, request: { redirectUri: string; state: string }): string;
  /** Whether the install's callback query is signed by the app (its HMAC). */
  callbackSigned(query: Record<string, string>, app: StorefrontApp): boolean;
  /** The install's code for an expiring token. */
  exchangeCode(shop: ShopAddress, app: StorefrontApp, code: string): Promise<AccessGrant>;
  /** A token for the app's own credentials (the merchant's own store). */
  clientCredentials(shop: ShopAddress, app: StorefrontApp): Promise<AccessGrant>;
  /** A new token (and refresh token) for a refresh token. */
  refresh(shop: ShopAddress, app: StorefrontApp, refreshToken: string): Promise<AccessGrant>;
  /** Whether `token` is a session token the app's embedded page got from the shop's admin (proof of control of the shop). */
  sessionTokenValid(token: string, app: StorefrontApp, domain: string): boolean;
  /** The scopes of `scopes` that `granted` lacks. */
  missingScopes(granted: readonly string[]): string[];
}

/** A storefront call failed; `kind` says why, so callers can tell a revoked token from an outage. */
export class StorefrontError extends Error {
  constructor(
    readonly kind: 'unauthorized' | 'forbidden' | 'unavailable' | 'throttled' | 'invalid_response',
    message: string,
  ) {
    super(message);
    this.name = 'StorefrontError';
  }

  /** The shop refused our token (revoked, uninstalled, or without a scope the call needs): retrying will not mend it. */
  get tokenRefused(): boolean {
    return this.kind === 'unauthorized' || this.kind === 'forbidden';
  }
}

/** Whether `err` is the shop refusing our token (StorefrontError.tokenRefused). */
export const tokenRefused = (err: unknown): err is StorefrontError => err instanceof StorefrontError && err.tokenRefused;

/**
 * What a Shopify variant holds beyond the spec's fields (the PIM's `selling-fields.ts`), on a PIM variant and on a product
 * without variants (its one Shopify variant). Null or absent: not set in the PIM, so the push leaves the shop's value (or
 * Shopify's default on create). A PIM that does not have them sends none.
 */
export interface PimSellingFields {
  /** Free text (UPC, ISBN, an internal code). */
  barcode?: string | null;
  /** The compare-at price as given (a sale, `sale_price` below `price`, sets it from the regular price instead). */
  compare_at_price?: string | null;
  /** The unit of `weight`: g, kg, lb or oz; null is kilograms. */
  weight_unit?: string | null;
  /** deny | continue. */
  inventory_policy?: string | null;
  inventory_tracked?: boolean | null;
  taxable?: boolean | null;
  requires_shipping?: boolean | null;
  /** The PIM made the SKU up (a catalogue file gave none): the bridge's key for the variant, never written to the shop. */
  sku_generated?: boolean;
}

/** A PIM variant as the PIM core API returns it (spec: Variant), with the selling fields beyond it. */
export interface PimVariant extends PimSellingFields {
  id: number;
  sku: string;
  name: string;
  price: string | null;
  sale_price: string | null;
  cost: string | null;
  weight: string | null;
  stock_quantity: number;
  stock_status: string;
  is_enabled: boolean;
  position: number;
  image: string | null;
  attributes: { attribute_name: string; value: string }[];
}

/**
 * What a push sends to a storefront: the PIM's Product (spec: Product, as GET /api/products/{id} answers it) with its
 * variants and, when the PIM has them, its per-warehouse stock levels; the selling fields (PimSellingFields) are those of
 * a product without variants. Every field beyond the spec is optional: a PIM that lacks one leaves the shop's value.
 */
export interface PimProductSnapshot extends PimSellingFields {
  id: number;
  sku: string;
  slug?: string;
  name: string;
  description?: string | null;
  short_description?: string | null;
  product_type?: string | null;
  price?: string | null;
  sale_price?: string | null;
  cost_price?: string | null;
  currency?: string;
  status?: string;
  stock?: number;
  in_stock?: boolean;
  ean?: string | null;
  brand?: { id: number; name: string } | null;
  supplier?: { id: number; name: string } | null;
  categories?: { id: number; name: string }[];
  images?: string[];
  /** Each image's alt text, in the order of `images` (null: none). Absent (a PIM without it): the product's name. */
  image_alts?: (string | null)[];
  publishing_channels?: string[];
  product_condition?: string;
  attributes?: Record<string, unknown>;
  /** The product's storefront tags (merged with the merchant's own tags in the shop). */
  tags?: string[];
  seo_title?: string | null;
  seo_description?: string | null;
  gift_card?: boolean;
  /** A Shopify Standard Product Taxonomy category: its id (`aa-1-13-8`) or its full name (`Apparel & Accessories > …`). */
  taxonomy_category?: string | null;
  /** The weight of a product without variants, in `weight_unit`. */
  weight?: string | null;
  /** The storefront's product type (Shopify's `Type`), free text: written as `productType` (else the integration's setting). */
  storefront_type?: string | null;
  variants: PimVariant[];
  warehouse_stock?: { warehouse_id: number; code: string; name: string; quantity: number }[];
  /** The PIM's version of the product (ISO 8601); the mapping remembers the one synced (delta sync skips it). */
  updated_at?: string;
  /**
   * The product's translations by PIM locale (`include=translations`), with the fields each has. Absent: the PIM did not
   * say (its translations in the shop are left as they are); `{}`: it has none.
   */
  translations?: Record<string, PimTranslation>;
}

/** One translation of a PIM product (GET /api/products/{id}?include=translations). */
export interface PimTranslation {
  name?: string;
  description?: string;
  short_description?: string;
  seo_title?: string;
  seo_description?: string;
}

/** What our mapping remembers of the storefront side of one product, so a push updates instead of creating. */
export interface KnownStorefrontProduct {
  /** The storefront product (Shopify GID), or null when there is no mapping yet. */
  productId: string | null;
  /** Storefront variant ids by PIM variant SKU (or by the product SKU for a product without variants). */
  variantIds: Record<string, string>;
  /** Storefront media ids by PIM image URL: images already there are sent by id, never uploaded again. */
  mediaIds: Record<string, string>;
  /**
   * Images sent whose media ids the storefront did not answer (a bulk line may select one connection, the variants):
   * they are on the product, so an unchanged image list is not sent again; a changed one is matched first by our file
   * names (a read of the product), so they are kept by id.
   */
  imagesUnconfirmed?: string[];
  /**
   * True when no push of this product to this shop was ever attempted (we had no mapping row before this push): nothing
   * of ours can be on the storefront, so the adapter skips looking for a product an interrupted push may have made.
   */
  neverPushed?: boolean;
  /**
   * Storefront fields the last push wrote from PIM data, so a push clears only what it wrote before and never what the
   * merchant set in the shop: the SKUs whose compare-at price came from a PIM sale price, and the SEO fields.
   */
  owned?: {
    /** The SKUs whose compare-at price the last push wrote (from a PIM sale, or the PIM's compare_at_price). */
    compareAt?: string[];
    seoTitle?: boolean;
    seoDescription?: boolean;
    /**
     * The PIM tags the last push sent (the merchant's other tags are kept). While they are unchanged, tags and metafields
     * are left as they are on the storefront and the product is not read first. Absent (a mapping from before PIM tags,
     * whose pushes sent category names as tags): the next push reads the product and removes those category tags.
     */
    tags?: string[];
    /** The gift-card flag the product was created with (Shopify refuses to change it afterwards). */
    giftCard?: boolean;
    /** The PIM's alt text of each image the last push sent, by PIM image URL (a change sends the files again). */
    imageAlts?: Record<string, string>;
    /**
     * Media of ours that Shopify FAILED to process (not in `mediaIds`): a push that sends `files` drops them, where any
     * other media it does not know is the merchant's and is sent back.
     */
    failedMedia?: string[];
    /** A fingerprint of the attribute metafields the last push sent (unchanged: they are not sent, nor the product read). */
    attributeMetafields?: string;
    /** The image URL the last push attached to each variant (by SKU): a variant whose image changed sends the files again. */
    variantImages?: Record<string, string>;
    /** The category collections the last push put the product in, sorted (unchanged: the list is neither read nor sent). */
    collections?: string[];
    /**
     * The translations the last push registered (translation-sync.ts): a fingerprint of what they were made from (the
     * source content and the translations of the shop's locales; unchanged: no call) and the keys registered per shop locale.
     */
    translations?: { fingerprint: string; registered: Record<string, string[]> };
  };
  /** Inventory item ids by SKU. */
  inventoryItemIds?: Record<string, string>;
  /**
   * The PIM quantities the last push brought to the shop, by SKU and location id: a push moves the shop's count by the
   * PIM's change since then, so units sold in the shop meanwhile stay sold.
   */
  stock?: Record<string, Record<string, number>>;
  /** The publications the bridge published the product on. */
  publications?: string[];
  /** The values of the fields the bridge owns as the last push wrote them (the drift report compares the shop with them). */
  written?: WrittenFields;
  /**
   * The shop's own variants of an adopted product that its PIM product does not have (found by the adoption): a push
   * sends them back by id, unchanged (productSet deletes the variants it is not sent), and says so in its warnings,
   * until the PIM product gets a variant of that SKU (which then takes it over) or the merchant deletes it in the shop.
   */
  merchantVariants?: MerchantVariant[];
}

/** A variant of the shop the bridge keeps without owning it (KnownStorefrontProduct.merchantVariants). */
export interface MerchantVariant {
  /** Shopify GID. */
  id: string;
  sku: string | null;
  /** Its option values, in the product's option order. */
  options: { name: string; value: string }[];
}

/**
 * What a push wrote of the fields the bridge owns (storefront_state.written): a field left out of the push (the
 * merchant's) is absent. Variants by SKU; images as our file keys (`pim-` + 16 hex), in order. Which fields, and how
 * each is compared: storefront/shopify/field-ownership.ts.
 */
export interface WrittenFields {
  title: string;
  descriptionHtml?: string;
  vendor?: string;
  productType?: string;
  status: string;
  seo?: { title?: string; description?: string };
  /** Our tags (the PIM's); the product's other tags are the merchant's. */
  tags: string[];
  giftCard?: boolean;
  /** The taxonomy category's GID (`gid://shopify/TaxonomyCategory/aa-1-13-8`). */
  category?: string;
  variants: Record<string, WrittenVariant>;
  images: string[];
}

/** What a push wrote of one variant (WrittenFields.variants). */
export interface WrittenVariant {
  /** The shop variant's GID when known (a variant whose SKU the PIM made up has no SKU in the shop to match it by). */
  id?: string;
  price?: string;
  compareAtPrice?: string | null;
  barcode?: string;
  options: string[];
  inventoryPolicy?: string;
  tracked?: boolean;
  taxable?: boolean;
  requiresShipping?: boolean;
  weight?: { value: number; unit: string };
}

/** One field a push would change (dry run): the shop's value now (null: none, or the product is created) and the PIM's. */
export interface FieldChange {
  field: string;
  storefront: unknown;
  pim: unknown;
}

/** One field that differs in the shop from what the bridge last wrote. */
export interface DriftChange {
  field: string;
  storefront: unknown;
  written: unknown;
}

/** What a push of one product would do (dry run), or why it would be refused (pre-flight). */
export type ProductPreview =
  | { ok: true; method: 'create' | 'update'; productNumericId: number | null; handle: string | null; changes: FieldChange[] }
  | { ok: false; errors: string[] };

export interface ProductUpsertResult {
  method: 'create' | 'update';
  /** Shopify GID, e.g. `gid://shopify/Product/1001`, and its numeric part. */
  productId: string;
  productNumericId: number;
  handle: string;
  title: string;
  /** The first variant's numeric id (the spec's mapping has one storefront_variant_id). */
  firstVariantNumericId: number | null;
  variantIds: Record<string, string>;
  mediaIds: Record<string, string>;
  /** Images sent whose media ids the answer did not carry (KnownStorefrontProduct.imagesUnconfirmed). */
  imagesUnconfirmed: string[];
  variantCount: number;
  imageCount: number;
  owned: NonNullable<KnownStorefrontProduct['owned']>;
  inventoryItemIds: Record<string, string>;
  stock: Record<string, Record<string, number>>;
  publications: string[];
  /**
   * What the storefront took but could not finish for this product (a publish refused, an image it failed to process):
   * the product is on the storefront with its ids, and its mapping is `error` with these lines until a push clears them.
   */
  problems: string[];
  /** Values Shopify accepts but shortens or ignores (e.g. an SEO title past the admin's 70-character hint). */
  warnings: string[];
  /**
   * The product's PIM translation locales the shop has not enabled (nothing is registered for them): for the
   * integration's status, never an error of the product. Absent when the product's translations were not looked at.
   */
  missingLocales?: string[];
  /** What this push wrote of the fields the bridge owns (kept with the mapping for the drift report). */
  written?: WrittenFields;
  /** The merchant's variants the push sent back unchanged (KnownStorefrontProduct.merchantVariants), still kept. */
  merchantVariants?: MerchantVariant[];
}

/** The storefront (or our pre-flight of its rules) refused the product: one readable line per problem. */
export class StorefrontValidationError extends Error {
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
    this.name = 'StorefrontValidationError';
  }
}

/**
 * The storefront will take the product later, not now (Shopify: VARIANT_THROTTLE_EXCEEDED, a store past 50,000 variants
 * creating more than 1,000 a day): the product fails for now and is tried again after `retryAfterSeconds`.
 */
export class StorefrontDeferredError extends Error {
  constructor(
    readonly errors: string[],
    readonly retryAfterSeconds: number,
  ) {
    super(errors.join('; '));
    this.name = 'StorefrontDeferredError';
  }
}

export interface StorefrontPort {
  /** The shop's identity and plan; throws StorefrontError when the shop cannot be reached or refuses the token. */
  shopHealth(shop: StorefrontShop, options?: { timeoutMs?: number }): Promise<ShopHealth>;

  /**
   * Creates or updates one product (Shopify: one productSet), idempotently: with `known.productId` it updates that
   * product; without, it finds a product made by an earlier push whose mapping was lost (a crash between the
   * storefront's answer and our write) and updates it, so a retry never duplicates. Throws StorefrontValidationError
   * for the platform's rules (pre-flight and the storefront's userErrors) and StorefrontError for everything else;
   * waiting out throttles and retrying transient failures is the adapter's job. Once `signal` fires, no further call
   * is sent and the one in flight is abandoned; the upsert rejects with the signal's reason.
   */
  upsertProduct(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    options?: { signal?: AbortSignal },
  ): Promise<ProductUpsertResult>;

  /**
   * The platform's rules checked before sending (Shopify: title, ≤ 3 options, ≤ 2048 variants, prices); empty = sendable.
   * With `known`, also what the mapped product forbids (merchant variants a push could not keep).
   */
  preflight(product: PimProductSnapshot, known?: KnownStorefrontProduct): string[];

  /** The shop's publications (sales channels), cached a few minutes per shop; `fresh` reads them again now. */
  publications(shop: StorefrontShop, options?: { fresh?: boolean }): Promise<StorefrontPublication[]>;

  /** The shop's locations, cached a few minutes per shop; `fresh` reads them again now. */
  locations(shop: StorefrontShop, options?: { fresh?: boolean }): Promise<StorefrontLocation[]>;

  /**
   * Starts one bulk upsert of many products (Shopify: stagedUploadsCreate → JSONL of productSet variables, one line per
   * item, in order → bulkOperationRunMutation). Every item must have passed `preflight`. Identity as in upsertProduct
   * (`known.productId`, else the product's stable custom id), so running the same items again never duplicates.
   * Throws StorefrontError (e.g. another bulk operation is running on the shop: kind `unavailable`).
   */
  startBulkUpsert(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }>;

  /**
   * Where a bulk upsert stands; once completed, the outcome of every item, in the items' order (`items` must be the list
   * given to startBulkUpsert). Throws StorefrontError when the storefront cannot be asked.
   */
  bulkUpsertState(shop: StorefrontShop, operationId: string, items: BulkUpsertItem[]): Promise<BulkUpsertState>;

  /**
   * A dry run of upsertProduct for each item, in order: the same pre-flight and mapping, then the current storefront
   * product read (mapped ones, batched, read calls only, under the shop's budget) and compared field by field. Writes
   * nothing. A product without `known.productId`, or whose storefront product is gone, is a `create`. Optional: a
   * storefront without it cannot preview (the dry run fails its products).
   */
  previewUpserts?(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<ProductPreview[]>;
}

export interface BulkUpsertItem {
  product: PimProductSnapshot;
  known: KnownStorefrontProduct;
  placement: SyncPlacement;
}

/** One item of a completed bulk upsert: the same result as upsertProduct, or the storefront's userErrors. */
export type BulkItemOutcome = { ok: true; result: ProductUpsertResult } | { ok: false; errors: string[] };

export type BulkUpsertState =
  | { state: 'running'; objectCount: number }
  | { state: 'completed'; outcomes: BulkItemOutcome[] }
  /** The operation failed or was cancelled as a whole (nothing, or only some lines, applied): run the items again. */
  | { state: 'failed'; message: string };

/** A variant of a shop product as the catalogue read found it. */
export interface StorefrontCatalogueVariant {
  /** Shopify GID. */
  id: string;
  sku: string | null;
  barcode: string | null;
  /** Decimal strings, in the shop's currency. */
  price: string | null;
  compareAtPrice: string | null;
  inventoryQuantity: number | null;
  /** Option values, in the product's option order (Shopify's default "Title" / "Default Title" for a single variant). */
  options: { name: string; value: string }[];
  inventoryItemId: string | null;
  /** DENY or CONTINUE, when the read selected it. */
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  /** The inventory item's fields, when the read selected them. */
  tracked?: boolean | null;
  requiresShipping?: boolean | null;
  weight?: { value: number; unit: string } | null;
}

/** A product of the shop as the catalogue read found it (adopting a shop's existing products). */
export interface StorefrontCatalogueProduct {
  /** Shopify GID, e.g. `gid://shopify/Product/1001`, and its numeric part. */
  id: string;
  numericId: number;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  productType: string;
  /** ACTIVE, DRAFT or ARCHIVED. */
  status: string;
  tags: string[];
  /** The PIM product id our `pimbridge.pim_product_id` metafield carries (a product an earlier push made), or null. */
  pimProductId: number | null;
  variants: StorefrontCatalogueVariant[];
  /** The product's media in order: its id and, for a processed image, its URL and alt text. */
  images: { mediaId: string; url: string | null; alt?: string | null }[];
  /** Its SEO fields, when the read selected them (the drift report's does). */
  seo?: { title: string | null; description: string | null };
  /** Whether it is a gift card, when the read selected it. */
  giftCard?: boolean;
  /** Its taxonomy category, when the read selected it (null: none). */
  category?: { id: string; fullName: string } | null;
}

export type CatalogueReadState =
  | { state: 'running'; objectCount: number }
  | { state: 'completed'; products: StorefrontCatalogueProduct[] }
  /** The read failed as a whole (or its result is gone): start another. */
  | { state: 'failed'; message: string };

/**
 * Reading a shop's whole catalogue (Shopify: one bulk query of products with their variants and media). Kept apart
 * from StorefrontPort: only an adoption needs it. A read runs on the storefront in the background; the caller records
 * the operation id and polls it, so a restarted job follows the same read.
 */
export interface StorefrontCatalogueReader {
  /**
   * Starts the read. Throws StorefrontError (kind `unavailable` when the shop runs as many reads as it allows: retry
   * later; `unauthorized`/`forbidden` for a refused token).
   */
  startCatalogueRead(shop: StorefrontShop): Promise<{ operationId: string }>;

  /** Where the read stands; once completed, every product of the shop. Throws StorefrontError when it cannot be asked. */
  catalogueReadState(shop: StorefrontShop, operationId: string): Promise<CatalogueReadState>;

  /**
   * The fields the bridge owns whose value in the shop product (as the catalogue read found it) differs from what the
   * last push wrote (`written`); `mediaIds` are the mapping's media ids by PIM image URL. Pure: no call. Optional: a
   * reader without it cannot report drift field by field.
   */
  compareWritten?(product: StorefrontCatalogueProduct, written: WrittenFields, mediaIds: Record<string, string>): DriftChange[];
}

/** The storefront events the bridge subscribes to (Shopify: WebhookSubscriptionTopic). */
export const STOREFRONT_WEBHOOK_TOPICS = ['PRODUCTS_UPDATE', 'PRODUCTS_DELETE', 'INVENTORY_LEVELS_UPDATE', 'APP_UNINSTALLED'] as const;
export type StorefrontWebhookTopic = (typeof STOREFRONT_WEBHOOK_TOPICS)[number];

/** One webhook subscription of the app on the shop. */
export interface StorefrontWebhookSubscription {
  /** Shopify GID. */
  id: string;
  topic: string;
  uri: string;
}

/**
 * The shop's webhook subscriptions (Shopify: webhookSubscriptions, webhookSubscriptionCreate, webhookSubscriptionDelete).
 * Kept apart from StorefrontPort: only the connector's webhook setup needs it.
 */
export interface StorefrontWebhooks {
  /** Every subscription the app has on the shop. Throws StorefrontError. */
  webhookSubscriptions(shop: StorefrontShop): Promise<StorefrontWebhookSubscription[]>;
  /**
   * Idempotently subscribes the shop to `topics` at `uri`: lists the subscriptions first, creates the missing ones and
   * deletes those of these topics at another address (e.g. an old PUBLIC_URL). Throws StorefrontError, or
   * StorefrontValidationError with the shop's userErrors.
   */
  ensureWebhookSubscriptions(
    shop: StorefrontShop,
    uri: string,
    topics: readonly StorefrontWebhookTopic[],
  ): Promise<{ subscriptions: StorefrontWebhookSubscription[]; created: string[]; deleted: string[] }>;
}

/** A custom collection the bridge made in the shop for a PIM category. */
export interface StorefrontCollection {
  /** Shopify GID, e.g. `gid://shopify/Collection/1`. */
  id: string;
  handle: string;
  title: string;
}

/**
 * The shop's collections for PIM categories (Shopify: collectionCreate, collectionUpdate, collectionDelete,
 * publishablePublish). Kept apart from StorefrontPort: only the connector's category collections need it. Products join
 * and leave them through the upsert (SyncPlacement.categoryCollections), not through these calls.
 */
export interface StorefrontCollections {
  /**
   * The category's custom collection: the one an earlier call made (found by our metafield `pimbridge.pim_category_id`,
   * so a create whose answer was lost is not made twice), else a new one titled by the category and published on
   * `publications`. Throws StorefrontError, or StorefrontValidationError with the shop's userErrors.
   */
  ensureCategoryCollection(shop: StorefrontShop, category: { id: number; name: string }, publications: string[]): Promise<StorefrontCollection>;
  /** Gives the collection a new title (its handle stays: links keep working); null when it is gone from the shop. */
  renameCollection(shop: StorefrontShop, id: string, title: string): Promise<StorefrontCollection | null>;
  /** Deletes the collection (its products stay in the shop); a collection already gone is no error. */
  deleteCollection(shop: StorefrontShop, id: string): Promise<void>;
}
