// The Shopify end of StorefrontPort: Admin GraphQL API 2026-10 through Shopify's own client. A shop's `apiBaseUrl`
// (the sandbox, test servers) replaces `https://{domain}`: the client only knows https origins, so `customFetchApi`
// rewrites each URL it is given (origin and path prefix) before calling fetch.
import { AsyncLocalStorage } from 'node:async_hooks';
import { agentFetch, keepAliveAgents } from '../../lib/keep-alive.js';
import { createAdminApiClient } from '@shopify/admin-api-client';
import { TtlCache } from '../../lib/ttl-cache.js';
import {
  StorefrontDeferredError,
  StorefrontError,
  StorefrontValidationError,
  type AttributeMetafieldSpec,
  type BulkUpsertItem,
  type BulkUpsertState,
  type CatalogueReadState,
  type DriftChange,
  type StorefrontCatalogueProduct,
  type StorefrontCatalogueReader,
  type WrittenFields,
  type KnownStorefrontProduct,
  type PimProductSnapshot,
  type ProductUpsertResult,
  type ProductPreview,
  type ShopHealth,
  type StorefrontPort,
  type StorefrontPublication,
  type StorefrontShop,
  type StorefrontWebhooks,
  type StorefrontCollections,
  type StorefrontWebhookTopic,
  type SyncPlacement,
} from '../storefront.port.js';
import { ShopifyWebhookSubscriptions } from './webhook-subscriptions.js';
import { ADMIN_API_VERSION } from './api-version.js';
import { attributeMetafields, definitionFor, metafieldsFingerprint, type ShopMetafieldDefinition } from './attribute-metafields.js';
import { ShopifyBulkUpserts } from './bulk-upsert.js';
import { ShopifyCatalogueReads } from './catalogue-read.js';
import { syncInventory, type Call } from './inventory-sync.js';
import * as categoryCollections from './category-collections.js';
import {
  Locations as LocationsQuery,
  MetafieldDefinitionCapabilities,
  MetafieldDefinitionCreate,
  ProductLookup,
  ProductLookupMedia,
  ProductMetafieldDefinitions,
  ProductRecoveryLookup,
  ShopLocales as ShopLocalesQuery,
  ProductMedia,
  ProductSetSync,
  ProductVariantsPage,
  Publications as PublicationsQuery,
  ShopHealth as ShopHealthQuery,
  type LocationsData,
  type MetafieldDefinitionCapabilitiesData,
  type MetafieldDefinitionCreateData,
  type ProductLookupData,
  type ProductMetafieldDefinitionsData,
  type ProductSetProductData,
  type ProductMediaData,
  type ProductSetSyncData,
  type StorefrontMediaNode,
  type ProductVariantsPageData,
  type PublicationsData,
  type ShopHealthData,
  type ShopLocalesData,
} from './operations.js';
import { preflight, preflightWarnings, userErrorLines, type ShopCurrency, type ShopLimits } from './preflight.js';
import { matchMedia, upsertResultOf, type MatchedMedia } from './product-set-result.js';
import { customIdOf, findByPimId, handleOf, handleProblems, handleTakenProblem, identityOf, pimIdOf, type IdentifierMode } from './product-identity.js';
import {
  CATEGORY_TAGS_KEY,
  filesWillBeSent,
  imageFile,
  imageUrlsOf,
  mapProduct,
  pimTagsOf,
  PIM_TAGS_KEY,
  previousTagsOf,
  sameCollections,
  sameTags,
  METAFIELD_NAMESPACE,
  needsMediaIds,
  NOTHING_KNOWN,
  PIM_ID_KEY,
  sortedVariants,
  type MappedProduct,
  type ShopLocation,
  type StorefrontMetafield,
  type StorefrontTags,
} from './product-mapper.js';
import { syncPublications, targetPublications } from './publication-sync.js';
import { syncTranslations, type ShopLocale } from './translation-sync.js';
import { catalogueView, driftChanges, writtenOf } from './product-diff.js';
import { previewUpserts } from './product-preview.js';
import { TaxonomyCategories } from './taxonomy.js';
import { readQueryCost, ShopBudgets } from './shop-budget.js';
import { DEFAULT_RETRY_POLICY, ShopThrottle, systemClock, type ObserveStatus, type RetryPolicy, type ThrottleClock } from './throttle.js';
import type { SharedBudget } from './shared-budget.js';
import type { ShopifyRecorder } from '../../lib/metrics.js';

export interface ShopifyAdapterOptions {
  /** Per-call timeout unless the caller gives one (default 5 s). */
  timeoutMs?: number;
  /** The fetch used for every call (tests, proxies); default a keep-alive fetch over node:http (lib/keep-alive.ts). */
  fetch?: typeof fetch;
  /** Where observed throttle statuses go (the metrics' view of each shop's bucket). */
  budgets?: ShopBudgets;
  /** Clock, sleep and jitter of the throttle and retries (tests inject a fake). */
  clock?: ThrottleClock;
  retry?: Partial<RetryPolicy>;
  /** Deadline of a bulk file's upload or a bulk result's download (default 120 s). */
  bulkTransferTimeoutMs?: number;
  /** Where cost spent, throttle waits and THROTTLED answers are counted, per shop. */
  metrics?: ShopifyRecorder;
  /** Every process's shared estimate of each shop's budget (shared-budget.ts); without it, this process paces alone. */
  sharedBudget?: SharedBudget;
  /** Told once per outage of the shared budget (the process paces on its own meanwhile). */
  onSharedBudgetFailure?: (err: unknown) => void;
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: unknown;
  extensions?: unknown;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** A shop's locations, publications, limits and currency are read again after this long. */
const SHOP_CACHE_MS = 5 * 60_000;
/**
 * A product refused with VARIANT_THROTTLE_EXCEEDED is tried again after this long (Shopify lets such a store create
 * 1,000 variants a day; an hour spreads the retries without a tight loop).
 */
export const VARIANT_THROTTLE_RETRY_SECONDS = 3600;
/** Looks at a product's media while Shopify still processes them (with the retry back-off between): after a recovery, or images sent again. */
const RECOVERY_MEDIA_LOOKS = 6;

/** The abort signal of the upsert a call belongs to (upsertProduct's `options.signal`). */
const callerSignal = new AsyncLocalStorage<AbortSignal>();

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
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  /** Per shop domain (a failed read is not cached). */
  private readonly locationCache = new TtlCache<ShopLocation[]>(SHOP_CACHE_MS);
  private readonly publicationCache = new TtlCache<StorefrontPublication[]>(SHOP_CACHE_MS);
  /** The shop's enabled locales (translation-sync.ts). */
  private readonly localeCache = new TtlCache<ShopLocale[]>(SHOP_CACHE_MS);
  private readonly currencyCache = new TtlCache<string>(SHOP_CACHE_MS);
  /** The shop's resource limits as last read (ShopHealth). */
  private readonly knownLimits = new Map<string, ShopLimits>();
  private readonly identifierModes = new Map<string, Promise<IdentifierMode>>();
  /**
   * The shop's PRODUCT metafield definitions per `domain namespace` (attribute metafields), by `namespace.key`: read once
   * per shop and namespace for the life of the process, and added to as the bridge creates them.
   */
  private readonly metafieldDefinitions = new Map<string, Promise<Map<string, ShopMetafieldDefinition>>>();
  private readonly bulk: ShopifyBulkUpserts;
  private readonly catalogue: ShopifyCatalogueReads;
  private readonly webhooks = new ShopifyWebhookSubscriptions((shop, document, variables, cost) => this.call(shop, document, variables, cost));
  /** The PIM's taxonomy categories as Shopify's GIDs (a full name looked up once per shop and process). */
  private readonly taxonomy = new TaxonomyCategories((shop, document, variables, cost) => this.call(shop, document, variables, cost));
  private readonly metrics?: ShopifyRecorder;

  constructor(options: ShopifyAdapterOptions = {}) {
    this.metrics = options.metrics;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? agentFetch(keepAliveAgents());
    this.budgets = options.budgets ?? new ShopBudgets();
    this.throttle = new ShopThrottle(
      options.clock ?? systemClock,
      { ...DEFAULT_RETRY_POLICY, ...options.retry },
      this.metrics && ((domain, ms) => this.metrics!.throttleWait(domain, ms)),
      options.sharedBudget,
      options.onSharedBudgetFailure,
    );
    this.bulk = new ShopifyBulkUpserts({
      call: (shop, document, variables, cost, retryUnavailable) => this.call(shop, document, variables, cost, retryUnavailable),
      identifierMode: (shop) => this.identifierMode(shop),
      locations: (shop) => this.locations(shop),
      lookup: (shop, identifier, recover, media) => this.lookup(shop, identifier, recover, media),
      findOurs: (shop, pimProductId, mode) => this.findOurs(shop, pimProductId, mode),
      rules: (shop, placement) => this.rules(shop, placement),
      throttle: this.throttle,
      tagsOf,
      attributeMetafields: (shop, product, specs) => this.attributeMetafieldsOf(shop, product, specs, { keepInvalid: true }),
      category: (shop, product) => this.taxonomy.resolve(shop, product.taxonomy_category),
      recovered: (shop, found, product, known) => this.recovered(shop, found, product, known),
      afterProductSet: (shop, item, mapped, base, mediaProblems) =>
        this.afterProductSet(shop, item.product, item.placement, item.known, mapped, base, mediaProblems, true),
      transferTimeoutMs: options.bulkTransferTimeoutMs ?? 120_000,
    });
    this.catalogue = new ShopifyCatalogueReads({
      call: (shop, document, variables, cost, retryUnavailable) => this.call(shop, document, variables, cost, retryUnavailable),
      throttle: this.throttle,
      transferTimeoutMs: options.bulkTransferTimeoutMs ?? 120_000,
    });
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
    return previewUpserts(
      {
        call: (s, document, variables, cost) => this.call(s, document, variables, cost),
        rules: (s, placement) => this.rules(s, placement),
        category: (s, product) => this.taxonomy.resolve(s, product.taxonomy_category),
      },
      shop,
      items,
    );
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
    return categoryCollections.ensureCategoryCollection(this.caller(shop), category, publications);
  }

  renameCollection(shop: StorefrontShop, id: string, title: string) {
    return categoryCollections.renameCollection(this.caller(shop), id, title);
  }

  deleteCollection(shop: StorefrontShop, id: string) {
    return categoryCollections.deleteCollection(this.caller(shop), id);
  }

  /** One shop's calls as a Call (the steps in their own modules take one). */
  private caller(shop: StorefrontShop): Call {
    return (document, variables, cost) => this.call(shop, document, variables, cost);
  }

  async shopHealth(shop: StorefrontShop, options: { timeoutMs?: number } = {}): Promise<ShopHealth> {
    const data = await this.request<ShopHealthData>(shop, ShopHealthQuery, undefined, options.timeoutMs);
    const s = data.shop;
    if (!s || typeof s.id !== 'string' || typeof s.name !== 'string' || typeof s.plan?.publicDisplayName !== 'string') {
      throw new StorefrontError('invalid_response', 'Shopify answered ShopHealth without the shop fields');
    }
    const scopes = data.currentAppInstallation?.accessScopes;
    const health = {
      id: s.id,
      name: s.name,
      myshopifyDomain: s.myshopifyDomain,
      plan: s.plan.publicDisplayName,
      currencyCode: s.currencyCode,
      ...(Array.isArray(scopes) && { scopes: scopes.map((x) => x.handle).filter((h): h is string => typeof h === 'string') }),
    };
    this.currencyCache.set(shop.domain, Promise.resolve(s.currencyCode));
    if (s.resourceLimits) this.knownLimits.set(shop.domain, s.resourceLimits);
    return health;
  }

  upsertProduct(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    options: { signal?: AbortSignal } = {},
  ): Promise<ProductUpsertResult> {
    // The caller's signal reaches every call of this upsert (call() and request()) without a parameter through each step.
    return options.signal ? callerSignal.run(options.signal, () => this.upsert(shop, product, known, placement)) : this.upsert(shop, product, known, placement);
  }

  private async upsert(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
  ): Promise<ProductUpsertResult> {
    // Shopify's rules first: a product it would refuse costs no call at all.
    const rules = await this.rules(shop, placement);
    const sketch = mapProduct(product, known, { locations: [], placement, current: null });
    const early = [...preflight(product, sketch.input, rules.limits, rules.currency), ...sketch.merchantVariants.refused];
    if (early.length > 0) throw new StorefrontValidationError(early);
    // Attribute metafields: the shop's definitions made where missing, each value checked against its definition.
    const attributes = await this.attributeMetafieldsOf(shop, product, placement.attributeMetafields ?? []);
    // The taxonomy category as Shopify's GID (a full name looked up once per shop); one Shopify lacks refuses the product.
    const category = await this.taxonomy.resolve(shop, product.taxonomy_category);
    let locations = await this.locations(shop);
    // A productSet that failed with a 5xx or a timeout may have been applied (the answer was lost): the next attempt
    // looks the product up again, with its variants and media, so it neither duplicates the product nor re-uploads
    // images sent by the failed attempt. Hence productSet is retried here, not inside the throttle.
    let creating: boolean | undefined;
    let failures = 0;
    let healed = false;
    for (;;) {
      try {
        const result = await this.upsertOnce(shop, product, known, placement, locations, failures > 0 || healed, attributes, category);
        creating ??= result.method === 'create';
        return { ...result, method: creating ? 'create' : 'update' };
      } catch (err) {
        if (err instanceof StaleIds) {
          // Ids we stored are gone on the storefront (a variant, an image or a location deleted there): once, read the
          // product and the locations again and resend; a second refusal is the product's validation error.
          if (healed) throw err.refusal;
          healed = true;
          if (err.locations) {
            this.locationCache.delete(shop.domain);
            locations = await this.locations(shop);
          }
          continue;
        }
        if (err instanceof AmbiguousFailure) {
          creating ??= err.creating;
          failures++;
          if (failures >= this.throttle.policy.maxAttempts) throw err.failure;
          await this.throttle.backoff(failures);
          continue;
        }
        throw err;
      }
    }
  }

  private async upsertOnce(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    locations: ShopLocation[],
    afterFailure: boolean,
    attributes: StorefrontMetafield[] = [],
    category?: string,
    /** The bridge's own product for this PIM product, found holding its handle after the create was refused. */
    ours?: NonNullable<ProductLookupData['productByIdentifier']>,
  ): Promise<ProductUpsertResult> {
    let effective: KnownStorefrontProduct = known;
    let current: StorefrontTags | null = null;
    let sendHandle: string | undefined;
    /** Undefined: a plain create (a shop without the unique definition has no identifier a create can name). */
    let identifier: Record<string, unknown> | undefined;
    const pimTags = pimTagsOf(product);
    // The mapped product with the PIM tags of the last push: nothing to merge, so no read before the productSet.
    // A product deleted in Shopify meanwhile answers PRODUCT_DOES_NOT_EXIST, and the retry takes the reading path.
    // Images sent earlier without their ids (a bulk sync), and the list changed: read the product's media first, so
    // those images are kept by id rather than uploaded again. Files to send at all: read the product's media first, so
    // the merchant's media go back in the list (productSet's `files` replaces it) and only ours are ever removed.
    const wantMedia = !afterFailure && needsMediaIds(known, product);
    const wantFiles = filesWillBeSent(known, product);
    const keepTagsAndMetafields =
      !afterFailure &&
      !wantMedia &&
      !wantFiles &&
      known.productId !== null &&
      sameTags(known.owned?.tags, pimTags) &&
      known.owned?.attributeMetafields === metafieldsFingerprint(attributes) &&
      sameCollections(known, product, placement);

    const byId = known.productId && !keepTagsAndMetafields ? await this.lookup(shop, { id: known.productId }, afterFailure || wantMedia, wantFiles) : null;
    if (keepTagsAndMetafields) {
      identifier = { id: known.productId };
    } else if (byId) {
      current = tagsOf(byId);
      identifier = { id: byId.id };
      if (afterFailure) effective = await this.recovered(shop, byId, product, known);
      else if (wantMedia) effective = { ...known, mediaIds: (await this.recovered(shop, byId, product, known)).mediaIds, imagesUnconfirmed: [] };
    } else {
      // No mapping (or the mapped product was deleted on the storefront): find what an earlier push may have made, by
      // our metafield, never by handle (the merchant may have changed it; a product holding it may be the merchant's).
      const mode = await this.identifierMode(shop);
      // A product never pushed before cannot be there yet: skip the round trip (most of a first push's cost).
      const found = ours ?? (known.neverPushed && !afterFailure ? null : await this.findOurs(shop, product.id, mode));
      if (found) {
        current = tagsOf(found);
        effective = await this.recovered(shop, found, product);
        identifier = { id: found.id };
      } else {
        effective = NOTHING_KNOWN;
        // customId makes the create idempotent; without it a retry's create is refused the handle its first try took,
        // and that holder carries our metafield (below): found either way, never made twice.
        identifier = mode === 'customId' ? customIdOf(product.id) : undefined;
        // The PIM slug, exactly: Shopify refuses it when taken (HANDLE_NOT_UNIQUE, below), it never suffixes it.
        sendHandle = handleOf(product);
      }
    }

    const mapped = mapProduct(product, effective, {
      locations,
      placement,
      current,
      handle: sendHandle,
      keepTagsAndMetafields,
      attributeMetafields: attributes,
      category,
    });
    const { input, imageUrls } = mapped;
    const rules = await this.rules(shop, placement);
    const problems = [...preflight(product, input, rules.limits, rules.currency), ...mapped.merchantVariants.refused];
    if (problems.length > 0) throw new StorefrontValidationError(problems);

    const variants = Math.min(250, Math.max(1, input.variants.length));
    const media = Math.min(250, Math.max(1, imageUrls.length));
    let data: ProductSetSyncData;
    try {
      data = await this.call<ProductSetSyncData>(
        shop,
        ProductSetSync,
        { identifier, input, variants, media },
        productSetCost(
          input.variants.length,
          input.files?.length ?? 0,
          input.metafields?.length ?? 0,
          imageUrls.length,
          input.variants.filter((v) => v.file).length,
        ),
        false,
      );
    } catch (err) {
      if (err instanceof StorefrontError && err.kind === 'unavailable') throw new AmbiguousFailure(err, !effective.productId);
      throw err;
    }
    const payload = data.productSet;
    if (!payload) throw new StorefrontError('invalid_response', `${shop.domain} answered productSet without a payload`);
    if (payload.userErrors.length > 0) {
      if (sendHandle && payload.userErrors.some((e) => e.code === 'HANDLE_NOT_UNIQUE')) {
        // The one read a taken handle costs: who holds it. Ours for this PIM product (a lost mapping the lookup could not
        // find) is taken over and updated; anything else is this product's problem, naming the holder.
        const holder = await this.lookup(shop, { handle: sendHandle }, true);
        if (holder && !ours && pimIdOf(holder) === String(product.id)) {
          return this.upsertOnce(shop, product, known, placement, locations, afterFailure, attributes, category, holder);
        }
        const others = payload.userErrors.filter((e) => e.code !== 'HANDLE_NOT_UNIQUE');
        throw new StorefrontValidationError([handleTakenProblem(sendHandle, holder && identityOf(holder), product.id), ...userErrorLines(others)]);
      }
      const refusal = new StorefrontValidationError(userErrorLines(payload.userErrors));
      const stale = staleIdKinds(payload.userErrors);
      if (!afterFailure && stale.any) throw new StaleIds(refusal, stale.locations);
      throw refusal;
    }
    const p = payload.product;
    if (!p || typeof p.id !== 'string') throw new StorefrontError('invalid_response', `${shop.domain} answered productSet without the product`);

    const allVariants = await this.remainingVariants(shop, p.id, p.variants);
    const answer = { ...p, variants: { nodes: allVariants } };
    let matched = matchMedia(imageUrls, effective.mediaIds, p.media?.nodes ?? [], { merchant: mapped.merchantMedia });
    // A media that failed after an earlier push answered (Shopify processes images asynchronously): its image is sent
    // from its source again, once, in this push (one this very call uploaded is only reported: its source is broken now).
    const uploaded = new Set((input.files ?? []).flatMap((f) => (f.originalSource ? [f.originalSource] : [])));
    const earlierFailures = imageUrls.filter((url) => matched.failed[url] && !uploaded.has(url));
    if (earlierFailures.length > 0) {
      matched = await this.resendImages(shop, p.id, product, imageUrls, matched, earlierFailures, mapped.merchantMedia);
      // A variant loses a media that is sent again (a productSet of `files` alone cannot attach it: the variant's file
      // goes with the variants list): forgetting it makes the next push send the files and reattach it by id.
      const attached = mapped.owned.variantImages;
      if (attached) for (const [sku, url] of Object.entries(attached)) if (earlierFailures.includes(url)) delete attached[sku];
    }
    const imagesUnconfirmed = imageUrls.filter((url) => !matched.mediaIds[url] && !matched.failed[url]);
    // Our media that FAILED are remembered as ours (they have no URL, so no file name): the next push that sends files
    // drops them instead of keeping them as the merchant's.
    const failedMedia = Object.values(matched.failed);
    if (failedMedia.length > 0) mapped.owned.failedMedia = failedMedia;
    const base = upsertResultOf(answer, {
      method: effective.productId ? 'update' : 'create',
      mediaIds: matched.mediaIds,
      imagesUnconfirmed,
      variantCount: input.variants.length,
      imageCount: imageUrls.length,
      keys: mapped.variantKeys,
    });
    const setProblems = [...matched.problems, ...handleProblems(sendHandle, p.handle)];
    return (await this.afterProductSet(shop, product, placement, effective, mapped, base, setProblems)).result;
  }

  /**
   * A productSet of the product's media alone (the other lists are not sent, so they stay): `resend` from their
   * source, the rest by id, then the merchant's media (`merchant`, by id: the list replaces the product's media); then a
   * few looks (with the retry back-off between) while Shopify processes them, so that an image whose source is still
   * broken is reported with Shopify's reason now, not at the next push. A refusal is a problem on the product, which is
   * written already.
   */
  private async resendImages(
    shop: StorefrontShop,
    productId: string,
    product: PimProductSnapshot,
    imageUrls: string[],
    before: MatchedMedia,
    resend: string[],
    merchant: string[] = [],
  ): Promise<MatchedMedia> {
    const kept = { ...before.mediaIds, ...before.failed };
    const files = [
      ...imageUrls.map((url) => (resend.includes(url) || !kept[url] ? imageFile(url, product) : { id: kept[url] })),
      ...merchant.map((id) => ({ id })),
    ];
    const media = Math.min(250, Math.max(1, imageUrls.length));
    const data = await this.call<ProductSetSyncData>(
      shop,
      ProductSetSync,
      { identifier: { id: productId }, input: { files }, variants: 1, media },
      productSetCost(0, files.length, 0, imageUrls.length),
    );
    const payload = data.productSet;
    if (!payload?.product || payload.userErrors.length > 0) {
      const why = payload ? userErrorLines(payload.userErrors).join('; ') || 'no product in the answer' : 'no answer';
      return { ...before, problems: [...before.problems, `images sent again after they failed: ${why}`] };
    }
    const known = Object.fromEntries(Object.entries(kept).filter(([url]) => !resend.includes(url)));
    let nodes = payload.product.media?.nodes ?? [];
    let matched = matchMedia(imageUrls, known, nodes, { merchant });
    const processing = () => resend.some((url) => matched.mediaIds[url] && statusOf(nodes, matched.mediaIds[url]) !== 'READY');
    for (let look = 1; look < RECOVERY_MEDIA_LOOKS && processing(); look++) {
      await this.throttle.backoff(look);
      nodes = (await this.call<ProductMediaData>(shop, ProductMedia, { id: productId, media }, 2 + 3 * connectionMultiplier(media))).product?.media.nodes ?? [];
      // The media ids are known now: the resent images are matched by the ids this productSet gave them.
      matched = matchMedia(imageUrls, { ...known, ...matched.mediaIds, ...matched.failed }, nodes, { merchant });
    }
    return matched;
  }

  /**
   * The steps after productSet: stock moved by the PIM's change (inventory-sync.ts) and the product published on its
   * channels' publications (publication-sync.ts). A step the shop refuses is a problem on the result, not a throw: the
   * product and its ids are on the storefront and must be kept. `deferPublish`: the publications to add are returned
   * in `toPublish`, not published (the bulk path publishes a whole batch in one bulk mutation).
   */
  private async afterProductSet(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    placement: SyncPlacement,
    known: KnownStorefrontProduct,
    mapped: MappedProduct,
    base: ProductUpsertResult,
    mediaProblems: string[],
    deferPublish = false,
  ): Promise<{ result: ProductUpsertResult; toPublish: string[] }> {
    const call = this.caller(shop);
    const created = new Set(mapped.variantKeys.filter((_, i) => !mapped.input.variants[i].id));
    // The product is written: a step the shop refuses for a scope it has not granted is a problem on the mapping (it
    // names the scope; the next push tries again), not a failed push.
    const inventory = await unlessDenied(
      'stock',
      () =>
        syncInventory(call, {
          pimProductId: product.id,
          target: mapped.stock,
          baseline: known.stock ?? {},
          created,
          disabled: new Set(mapped.disabled),
          inventoryItemIds: base.inventoryItemIds,
        }),
      { stock: known.stock ?? {} },
    );
    const publishing = await unlessDenied(
      'publish',
      () => syncPublications(call, base.productId, targetPublications(product, mapped.input.status, placement), known.publications ?? [], { deferPublish }),
      { publications: known.publications ?? [], toPublish: [] },
    );
    // Translations registered per product, in the bulk path too (after its productSet lines ran).
    const translating = await unlessDenied(
      'translations',
      () =>
        syncTranslations(call, () => this.shopLocales(shop), { productId: base.productId, product, source: mapped.input, previous: known.owned?.translations }),
      { owned: known.owned?.translations },
    );
    return {
      result: {
        ...base,
        owned: { ...mapped.owned, ...(translating.owned ? { translations: translating.owned } : {}) },
        stock: inventory.stock,
        publications: publishing.publications,
        problems: [...mediaProblems, ...inventory.problems, ...publishing.problems, ...translating.problems],
        ...(translating.missingLocales ? { missingLocales: translating.missingLocales } : {}),
        warnings: [...preflightWarnings(mapped.input), ...mapped.warnings],
        // The owned fields' values as written, for the drift report (kept with the mapping in the same write).
        written: writtenOf(mapped.input, pimTagsOf(product), mapped.imageUrls, mapped.variantKeys, base.variantIds),
        ...(mapped.merchantVariants.kept.length > 0 ? { merchantVariants: mapped.merchantVariants.kept } : {}),
      },
      toPublish: publishing.toPublish,
    };
  }

  /** The variants of a productSet answer, with those past the first page read page by page. */
  private async remainingVariants(
    shop: StorefrontShop,
    productId: string,
    first: ProductSetProductData['variants'],
  ): Promise<ProductSetProductData['variants']['nodes']> {
    const nodes = [...(first?.nodes ?? [])];
    let pageInfo = first?.pageInfo;
    while (pageInfo?.hasNextPage && pageInfo.endCursor) {
      const data: ProductVariantsPageData = await this.call<ProductVariantsPageData>(
        shop,
        ProductVariantsPage,
        { id: productId, after: pageInfo.endCursor },
        2 + 3 * connectionMultiplier(250),
      );
      const page: ProductSetProductData['variants'] | undefined = data.product?.variants;
      nodes.push(...(page?.nodes ?? []));
      pageInfo = page?.pageInfo;
    }
    return nodes;
  }

  /** The shop's locations, read once per shop (all pages) and cached for a few minutes. */
  async locations(shop: StorefrontShop, options: { fresh?: boolean } = {}): Promise<ShopLocation[]> {
    if (options.fresh) this.locationCache.delete(shop.domain);
    return this.locationCache.get(shop.domain, () =>
      this.allPages<LocationsData, ShopLocation>(shop, LocationsQuery, 2 + 1 * connectionMultiplier(50), (d) => d.locations),
    );
  }

  /** The shop's enabled locales, read once per shop and cached for a few minutes (shopLocales: 1 point). */
  private shopLocales(shop: StorefrontShop): Promise<ShopLocale[]> {
    return this.localeCache.get(shop.domain, async () =>
      (await this.call<ShopLocalesData>(shop, ShopLocalesQuery, {}, 1)).shopLocales.map((l) => ({ locale: l.locale, primary: l.primary })),
    );
  }

  /** The shop's publications, titled by their catalogs; read once per shop (all pages) and cached for a few minutes. */
  async publications(shop: StorefrontShop, options: { fresh?: boolean } = {}): Promise<StorefrontPublication[]> {
    if (options.fresh) this.publicationCache.delete(shop.domain);
    return this.publicationCache.get(shop.domain, async () =>
      (
        await this.allPages<PublicationsData, PublicationsData['publications']['nodes'][number]>(
          shop,
          PublicationsQuery,
          2 + 2 * connectionMultiplier(50),
          (d) => d.publications,
        )
      ).map((n) => ({ id: n.id, name: n.catalog?.title ?? n.id })),
    );
  }

  /** Every node of a connection, 50 a page (at most 20 pages). */
  private async allPages<T, N>(
    shop: StorefrontShop,
    document: string,
    cost: number,
    connectionOf: (data: T) => { nodes: N[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } },
  ): Promise<N[]> {
    const out: N[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const connection = connectionOf(await this.call<T>(shop, document, { first: 50, after }, cost));
      out.push(...connection.nodes);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return out;
  }

  /**
   * What pre-flight checks against the shop: its currency (ShopHealth, read once per shop and cached for a few minutes)
   * unless prices are converted elsewhere, and its limits when known (read with the currency or by a health check).
   */
  private async rules(shop: StorefrontShop, placement: SyncPlacement): Promise<{ limits?: ShopLimits; currency?: ShopCurrency }> {
    if (placement.pricesConvertedElsewhere) return { limits: this.knownLimits.get(shop.domain) };
    const currencyCode = await this.currencyCache.get(shop.domain, async () => {
      const data = await this.call<ShopHealthData>(shop, ShopHealthQuery, {}, 4);
      if (data.shop?.resourceLimits) this.knownLimits.set(shop.domain, data.shop.resourceLimits);
      return data.shop?.currencyCode ?? '';
    });
    return { limits: this.knownLimits.get(shop.domain), currency: { currencyCode, pricesConvertedElsewhere: false } };
  }

  /**
   * What a lost mapping knew, recovered from the storefront product: variant ids by SKU (all pages), media ids by our
   * file name in their URLs, and ids we knew that are still there.
   */
  private async recovered(
    shop: StorefrontShop,
    found: NonNullable<ProductLookupData['productByIdentifier']>,
    product: PimProductSnapshot,
    known?: KnownStorefrontProduct,
  ): Promise<KnownStorefrontProduct> {
    const variants = await this.remainingVariants(shop, found.id, found.variants ?? { nodes: [] });
    const variantIds: Record<string, string> = {};
    for (const v of variants) if (v.sku) variantIds[v.sku] = v.id;
    // Variants whose SKU the PIM made up were sent without one: our product's variants without a SKU, in order.
    const generated = (
      product.variants.length === 0
        ? product.sku_generated
          ? [product.sku]
          : []
        : sortedVariants(product)
            .filter((v) => v.sku_generated)
            .map((v) => v.sku)
    ).filter((key) => !variantIds[key]);
    const unnamed = variants.filter((v) => !v.sku);
    generated.forEach((key, i) => {
      if (unnamed[i]) variantIds[key] = unnamed[i].id;
    });
    const images = imageUrlsOf(product);
    // Media still being processed show no URL (so no name) yet: wait a little for them, rather than upload them again.
    let nodes = found.media?.nodes ?? [];
    for (let attempt = 1; attempt < RECOVERY_MEDIA_LOOKS && nodes.some((n) => n.status === 'UPLOADED' || n.status === 'PROCESSING'); attempt++) {
      await this.throttle.backoff(attempt);
      nodes = (await this.lookup(shop, { id: found.id }, true))?.media?.nodes ?? [];
    }
    // Ids we knew that are still there, then our file names; never by position (these nodes answer no files of ours).
    const { mediaIds } = matchMedia(images, known?.mediaIds ?? {}, nodes, { newInOrder: false });
    // What we wrote and pushed before is unknown: the PIM's counts and publications are set as on a first push. The
    // merchant's variants we keep stay kept, those still there (one deleted in the shop meanwhile is gone for good).
    const merchantVariants = known?.merchantVariants?.filter((m) => variants.some((v) => v.id === m.id));
    return {
      productId: found.id,
      variantIds,
      mediaIds,
      ...(known?.owned ? { owned: known.owned } : {}),
      ...(merchantVariants?.length ? { merchantVariants } : {}),
    };
  }

  /**
   * `customId` when the shop has (or now gets) a unique-values definition for `pimbridge.pim_product_id`, else a search
   * by the metafield's value. Decided once per shop; a refused or unsupported definition falls back to the search.
   */
  private identifierMode(shop: StorefrontShop): Promise<IdentifierMode> {
    let mode = this.identifierModes.get(shop.domain);
    if (!mode) {
      mode = (async (): Promise<IdentifierMode> => {
        try {
          const data = await this.call<MetafieldDefinitionCreateData>(
            shop,
            MetafieldDefinitionCreate,
            {
              definition: {
                name: 'PIM product id',
                namespace: METAFIELD_NAMESPACE,
                key: PIM_ID_KEY,
                type: 'single_line_text_field',
                ownerType: 'PRODUCT',
                capabilities: { uniqueValues: { enabled: true } },
              },
            },
            12,
          );
          const payload = data.metafieldDefinitionCreate;
          if (payload?.createdDefinition) return 'customId';
          if (!payload?.userErrors.some((e) => e.code === 'TAKEN')) return 'metafieldSearch';
          // The definition exists: customId works only if it has unique values (it cannot be given them later).
          const existing = await this.call<MetafieldDefinitionCapabilitiesData>(
            shop,
            MetafieldDefinitionCapabilities,
            { identifier: { ownerType: 'PRODUCT', namespace: METAFIELD_NAMESPACE, key: PIM_ID_KEY } },
            3,
          );
          return existing.metafieldDefinition?.capabilities.uniqueValues.enabled ? 'customId' : 'metafieldSearch';
        } catch (err) {
          if (err instanceof StorefrontError && (err.kind === 'invalid_response' || err.kind === 'forbidden')) return 'metafieldSearch';
          throw err;
        }
      })();
      this.identifierModes.set(shop.domain, mode);
      mode.catch(() => this.identifierModes.delete(shop.domain));
    }
    return mode;
  }

  /**
   * The product's attribute metafields, checked against the shop's definitions (made first where missing); a value that
   * does not fit is a StorefrontValidationError naming the attribute, before any write.
   */
  async attributeMetafieldsOf(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    specs: AttributeMetafieldSpec[],
    options: { keepInvalid?: boolean } = {},
  ): Promise<StorefrontMetafield[]> {
    const present = specs.filter((s) => product.attributes && s.code in product.attributes);
    if (present.length === 0) return [];
    const definitions = await this.attributeDefinitions(shop, present);
    const { metafields, problems } = attributeMetafields(product, present, definitions, options);
    if (problems.length > 0 && !options.keepInvalid) throw new StorefrontValidationError(problems);
    return metafields;
  }

  /**
   * The shop's definitions of these attribute metafields, by `namespace.key`: the namespace read once (cached for the
   * process), the missing ones created (`TAKEN`: made meanwhile by someone else, read again). A definition the shop
   * refuses (a limit, a missing scope) is not retried in this process: its values go as metafields without a definition,
   * checked against the type we asked for.
   */
  async attributeDefinitions(shop: StorefrontShop, specs: AttributeMetafieldSpec[]): Promise<Map<string, ShopMetafieldDefinition>> {
    const out = new Map<string, ShopMetafieldDefinition>();
    for (const namespace of [...new Set(specs.map((s) => s.namespace))]) {
      let known = await this.namespaceDefinitions(shop, namespace);
      for (const spec of specs.filter((s) => s.namespace === namespace && !known.has(`${namespace}.${s.key}`))) {
        const wanted = definitionFor(spec);
        let taken = false;
        try {
          const data = await this.call<MetafieldDefinitionCreateData>(
            shop,
            MetafieldDefinitionCreate,
            { definition: { name: wanted.name, namespace, key: wanted.key, type: wanted.type, ownerType: 'PRODUCT', validations: wanted.validations } },
            12,
          );
          taken = data.metafieldDefinitionCreate?.userErrors.some((e) => e.code === 'TAKEN') ?? false;
        } catch (err) {
          if (!(err instanceof StorefrontError && (err.kind === 'invalid_response' || err.kind === 'forbidden'))) throw err;
        }
        if (taken) {
          this.metafieldDefinitions.delete(`${shop.domain} ${namespace}`);
          known = await this.namespaceDefinitions(shop, namespace);
        }
        if (!known.has(`${namespace}.${spec.key}`)) known.set(`${namespace}.${spec.key}`, wanted);
      }
      for (const [k, d] of known) out.set(k, d);
    }
    return out;
  }

  private namespaceDefinitions(shop: StorefrontShop, namespace: string): Promise<Map<string, ShopMetafieldDefinition>> {
    const cacheKey = `${shop.domain} ${namespace}`;
    let found = this.metafieldDefinitions.get(cacheKey);
    if (!found) {
      found = (async () => {
        const map = new Map<string, ShopMetafieldDefinition>();
        let after: string | null = null;
        for (let page = 0; page < 20; page++) {
          // connection 2 + (definition 1 + type 1 + validations 1) × 11 + pageInfo 1.
          const data: ProductMetafieldDefinitionsData = await this.call<ProductMetafieldDefinitionsData>(
            shop,
            ProductMetafieldDefinitions,
            { namespace, after },
            36,
          );
          for (const d of data.metafieldDefinitions.nodes)
            map.set(`${d.namespace}.${d.key}`, {
              namespace: d.namespace,
              key: d.key,
              type: d.type.name,
              validations: d.validations.map((v) => ({ name: v.name, value: v.value ?? '' })),
            });
          if (!data.metafieldDefinitions.pageInfo.hasNextPage) break;
          after = data.metafieldDefinitions.pageInfo.endCursor;
        }
        return map;
      })();
      this.metafieldDefinitions.set(cacheKey, found);
      found.catch(() => this.metafieldDefinitions.delete(cacheKey));
    }
    return found;
  }

  /**
   * The bridge's product for this PIM product, by our metafield (with its variants and media, for recovery): customId on
   * the unique definition, else a search by the metafield's value then the product by id. Null: none.
   */
  private async findOurs(
    shop: StorefrontShop,
    pimProductId: number,
    mode: IdentifierMode,
  ): Promise<NonNullable<ProductLookupData['productByIdentifier']> | null> {
    if (mode === 'customId') return this.lookup(shop, customIdOf(pimProductId), true);
    const id = await findByPimId((s, document, variables, cost) => this.call(s, document, variables, cost), shop, pimProductId);
    return id ? this.lookup(shop, { id }, true) : null;
  }

  /** `recover`: with its variants and media (a lost mapping, a retry); `media`: with its media (files will be sent). */
  private async lookup(
    shop: StorefrontShop,
    identifier: Record<string, unknown>,
    recover: boolean,
    media = false,
  ): Promise<NonNullable<ProductLookupData['productByIdentifier']> | null> {
    // product 1 + metafields 2 + 1×11 + collections 2 + 1×11; with recovery also variants 2 + 1×11 + pageInfo 1 and
    // media 2 + 2×11; with media, media 2 + 2×11.
    const data = recover
      ? await this.call<ProductLookupData>(shop, ProductRecoveryLookup, { identifier }, 27 + 14 + 24)
      : media
        ? await this.call<ProductLookupData>(shop, ProductLookupMedia, { identifier }, 27 + 24)
        : await this.call<ProductLookupData>(shop, ProductLookup, { identifier }, 27);
    return data.productByIdentifier ?? null;
  }

  /** One call under the shop's throttle and the retry policy; none starts once the caller's signal fired. */
  private call<T>(shop: StorefrontShop, document: string, variables: Record<string, unknown>, expectedCost: number, retryUnavailable = true): Promise<T> {
    const signal = callerSignal.getStore();
    if (signal?.aborted) return Promise.reject(signal.reason);
    return this.throttle.run(shop.domain, expectedCost, (observe) => this.request<T>(shop, document, variables, this.timeoutMs, observe), { retryUnavailable });
  }

  /**
   * One GraphQL call; every failure becomes a StorefrontError whose kind says why. An expiring token comes from the shop's
   * token source (cached while fresh, so no extra call); a 401 on one renews it once and sends the call again.
   */
  async request<T>(
    shop: StorefrontShop,
    document: string,
    variables?: Record<string, unknown>,
    timeoutMs = this.timeoutMs,
    observe?: ObserveStatus,
  ): Promise<T> {
    if (!shop.tokens) return this.send<T>(shop, shop.accessToken, document, variables, timeoutMs, observe);
    const token = await shop.tokens.current();
    try {
      return await this.send<T>(shop, token, document, variables, timeoutMs, observe);
    } catch (err) {
      if (!(err instanceof StorefrontError) || err.kind !== 'unauthorized') throw err;
      const renewed = await shop.tokens.renewAfterRefusal(token);
      return this.send<T>(shop, renewed, document, variables, timeoutMs, observe);
    }
  }

  private async send<T>(
    shop: StorefrontShop,
    accessToken: string,
    document: string,
    variables: Record<string, unknown> | undefined,
    timeoutMs: number,
    observe?: ObserveStatus,
  ): Promise<T> {
    const caller = callerSignal.getStore();
    const signal = caller ? AbortSignal.any([AbortSignal.timeout(timeoutMs), caller]) : AbortSignal.timeout(timeoutMs);
    const client = createAdminApiClient({
      storeDomain: shop.domain,
      apiVersion: ADMIN_API_VERSION,
      accessToken,
      customFetchApi: (url, init) => this.fetchImpl(rewriteUrl(url, shop), init as RequestInit),
      // Without a logger the client prints a console warning for a version newer than its built-in list.
      logger: () => {},
    });

    let response: Response;
    let answer: GraphqlAnswer<T>;
    try {
      response = await client.fetch(document, { variables, signal });
      const failure = statusFailure(response.status, shop.domain);
      if (failure?.kind === 'throttled') this.metrics?.throttled(shop.domain);
      if (failure) {
        await response.body?.cancel().catch(() => {});
        throw failure;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) {
        await response.body?.cancel().catch(() => {});
        throw new StorefrontError('invalid_response', `${shop.domain} answered HTTP ${response.status} with ${type || 'no content type'}, not JSON`);
      }
      answer = (await response.json()) as GraphqlAnswer<T>;
    } catch (err) {
      if (err instanceof StorefrontError) throw err;
      // The caller gave up (a job past its cap): not the shop's failure, nothing to retry.
      if (caller?.aborted) throw caller.reason;
      if (signal.aborted) throw new StorefrontError('unavailable', `${shop.domain} did not answer within ${timeoutMs} ms`);
      if (err instanceof SyntaxError) throw new StorefrontError('invalid_response', `${shop.domain} answered with malformed JSON`);
      throw new StorefrontError('unavailable', `${shop.domain} could not be reached: ${(err as Error).message}`);
    }

    const cost = readQueryCost(answer?.extensions);
    if (cost) {
      if (cost.actualQueryCost !== null) this.metrics?.queryCost(shop.domain, cost.actualQueryCost);
      this.budgets.record(shop.domain, cost.throttleStatus);
      if (observe) observe(cost.throttleStatus, cost.actualQueryCost ?? undefined);
      else this.throttle.observe(shop.domain, cost.throttleStatus);
    }

    const errors = Array.isArray(answer?.errors) ? (answer.errors as { message?: unknown; extensions?: { code?: unknown } }[]) : [];
    if (errors.some((e) => e?.extensions?.code === 'THROTTLED')) {
      this.metrics?.throttled(shop.domain);
      throw new StorefrontError('throttled', `${shop.domain} throttled the call (cost budget exhausted)`);
    }
    // Variant creation past the store's daily allowance: not a failure of the call, a product to try again later.
    const variantThrottle = errors.find((e) => e?.extensions?.code === 'VARIANT_THROTTLE_EXCEEDED');
    if (variantThrottle)
      throw new StorefrontDeferredError(
        [`${String(variantThrottle.message ?? 'variant creation throttled')} (VARIANT_THROTTLE_EXCEEDED)`],
        VARIANT_THROTTLE_RETRY_SECONDS,
      );
    // A field outside the token's scopes (https://shopify.dev/docs/api/usage/access-scopes): the message names the
    // scope it needs, which the merchant must grant.
    const denied = errors.filter((e) => e?.extensions?.code === 'ACCESS_DENIED');
    if (denied.length > 0) {
      throw new StorefrontError(
        'forbidden',
        `${shop.domain} has not granted the access this needs: ${denied.map((e) => String(e?.message ?? 'access denied')).join('; ')}`,
      );
    }
    if (errors.length > 0 || answer?.errors) {
      const messages = errors.map((e) => String(e?.message ?? 'error')).join('; ') || String(answer.errors);
      throw new StorefrontError('invalid_response', `${shop.domain} answered with GraphQL errors: ${messages}`);
    }
    if (!answer || typeof answer.data !== 'object' || answer.data === null) {
      throw new StorefrontError('invalid_response', `${shop.domain} answered without data`);
    }
    return answer.data;
  }
}

/** A step after the product was written, whose refusal for a missing scope becomes a problem line (`kept` stays as it was). */
async function unlessDenied<R extends { problems: string[] }>(step: string, run: () => Promise<R>, kept: Omit<R, 'problems'>): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof StorefrontError && err.kind === 'forbidden') return { ...kept, problems: [`${step}: ${err.message}`] } as R;
    throw err;
  }
}

/** `https://{domain}/admin/api/…` → `{apiBaseUrl}/admin/api/…` when the shop has a base URL. */
export function rewriteUrl(url: string, shop: Pick<StorefrontShop, 'apiBaseUrl'>): string {
  if (!shop.apiBaseUrl) return url;
  const given = new URL(url);
  return shop.apiBaseUrl.replace(/\/+$/, '') + given.pathname + given.search;
}

function statusFailure(status: number, domain: string): StorefrontError | null {
  if (status >= 200 && status < 300) return null;
  if (status === 401) return new StorefrontError('unauthorized', `${domain} refused the access token (HTTP 401): revoked or wrong`);
  if (status === 403) return new StorefrontError('forbidden', `${domain} refused the call (HTTP 403): a scope is missing`);
  if (status === 429) return new StorefrontError('throttled', `${domain} throttled the call (HTTP 429)`);
  if (status === 423) return new StorefrontError('unavailable', `${domain} is locked (HTTP 423)`);
  if (status === 404) return new StorefrontError('unavailable', `${domain} was not found (HTTP 404)`);
  if (status >= 500) return new StorefrontError('unavailable', `${domain} is unavailable (HTTP ${status})`);
  return new StorefrontError('invalid_response', `${domain} answered HTTP ${status}`);
}

/** floor(2·ln(max(2, n))), n capped at 250: Shopify's connection multiplier (the public fit, see notes). */
function connectionMultiplier(n: number): number {
  return Math.floor(2 * Math.log(Math.max(2, Math.min(n, 250))));
}

/**
 * Expected cost of ProductSetSync: `10 + 0.2·variants + 0.6·variant files + 1.9·files + 0.4·product metafields` plus its
 * selection (product 1, variants 2 + 1×m(v), media 2 + 1×m(f), userErrors 1).
 */
export function productSetCost(variants: number, files: number, metafields: number, images = files, variantFiles = 0): number {
  const v = Math.min(250, Math.max(1, variants));
  const m = Math.min(250, Math.max(1, images));
  // product 1; variants 2 + (variant 1 + inventoryItem 1) × m(v) + pageInfo 1; media 2 + (media 1 + mediaErrors 1 + image 1) × m(m); userErrors 1.
  return (
    Math.ceil(10 + 0.2 * variants + 0.6 * variantFiles + 1.9 * files + 0.4 * metafields) +
    1 +
    2 +
    2 * connectionMultiplier(v) +
    1 +
    2 +
    3 * connectionMultiplier(m) +
    1
  );
}

const statusOf = (nodes: StorefrontMediaNode[], id: string) => nodes.find((n) => n.id === id)?.status ?? '';

function tagsOf(found: NonNullable<ProductLookupData['productByIdentifier']>): StorefrontTags {
  const metafields = Array.isArray(found.metafields?.nodes) ? found.metafields.nodes : [];
  const ourValue = (key: string) => metafields.find((m) => m.namespace === METAFIELD_NAMESPACE && m.key === key)?.value;
  const collections = found.collections?.nodes?.map((c) => c.id);
  const media = found.media?.nodes?.map((m) => ({ id: m.id, url: m.image?.url ?? null }));
  return {
    tags: Array.isArray(found.tags) ? found.tags : [],
    previousTags: previousTagsOf(ourValue(PIM_TAGS_KEY), ourValue(CATEGORY_TAGS_KEY)),
    metafields,
    ...(collections ? { collections } : {}),
    ...(media ? { media } : {}),
  };
}

/** productSet failed in a way that may have been applied (5xx, timeout): upsertProduct looks again before retrying. */
class AmbiguousFailure extends Error {
  constructor(
    readonly failure: StorefrontError,
    /** The attempt was creating (no product found before it). */
    readonly creating: boolean,
  ) {
    super(failure.message);
  }
}

/** productSet refused ids we sent from our records: a variant or file id not (any more) the product's, a location gone. */
class StaleIds extends Error {
  constructor(
    readonly refusal: StorefrontValidationError,
    readonly locations: boolean,
  ) {
    super(refusal.message);
  }
}

function staleIdKinds(userErrors: { field: string[] | null; code: string | null }[]): { any: boolean; locations: boolean } {
  let any = false;
  let locations = false;
  for (const e of userErrors) {
    const f = e.field ?? [];
    const last = f[f.length - 1];
    if (last === 'locationId') any = locations = true;
    else if (
      e.code === 'PRODUCT_DOES_NOT_EXIST' ||
      e.code === 'PRODUCT_VARIANT_DOES_NOT_EXIST' ||
      (last === 'id' && (f.includes('variants') || f.includes('files')))
    )
      any = true;
  }
  return { any, locations };
}
