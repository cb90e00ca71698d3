// One product's upsert by productSet (StorefrontPort.upsertProduct): Shopify's rules checked before any call, the
// product found (by the mapped id, else by our metafield), mapped onto what is there, sent, and its images, stock,
// publications and translations settled. A productSet that may have been applied (5xx, timeout) or was refused ids we
// stored is looked at again and resent. The caller's signal goes with every call of the upsert.
import { StorefrontError, StorefrontValidationError } from '../port/errors.js';
import type { KnownStorefrontProduct } from '../port/known-product.js';
import type { PimProductSnapshot } from '../port/pim-product.js';
import type { AttributeMetafieldSpec, SyncPlacement } from '../port/placement.js';
import type { StorefrontShop } from '../port/shop.js';
import type { ProductUpsertResult } from '../port/upsert-result.js';
import { afterProductSet } from './after-product-set.js';
import { attributeMetafields, metafieldsFingerprint } from './attribute-metafields.js';
import { connectionMultiplier } from './graphql-answer.js';
import {
  ProductMedia,
  ProductSetSync,
  type ProductMediaData,
  type ProductSetProductData,
  type ProductSetSyncData,
  type StorefrontMediaNode,
} from './operations.js';
import { preflight, userErrorLines } from './preflight.js';
import { customIdOf, handleOf, handleProblems, handleTakenProblem, identityOf, pimIdOf } from './product-identity.js';
import { filesWillBeSent, imageFile, needsMediaIds } from './product-media.js';
import { mapProduct, NOTHING_KNOWN } from './product-mapper.js';
import { pimTagsOf, sameCollections, sameTags } from './tags-metafields-collections.js';
import type { MappedProduct, ShopLocation, StorefrontMetafield, StorefrontTags } from './product-set-input.js';
import { type Found, ProductReads, RECOVERY_MEDIA_LOOKS, tagsOf } from './product-reads.js';
import { AmbiguousFailure, matchMedia, productSetCost, StaleIds, staleIdKinds, upsertResultOf, type MatchedMedia } from './product-set-result.js';
import type { ShopifyClient } from './shopify-client.js';
import type { TaxonomyCategories } from './taxonomy.js';

/** One productSet attempt of an upsert, and what the attempts share. */
interface Attempt {
  shop: StorefrontShop;
  product: PimProductSnapshot;
  known: KnownStorefrontProduct;
  placement: SyncPlacement;
  locations: ShopLocation[];
  /** An earlier attempt failed (may have been applied, or was refused stale ids): the product is read again. */
  afterFailure: boolean;
  attributes: StorefrontMetafield[];
  category?: string;
  /** The bridge's own product for this PIM product, found holding its handle after the create was refused. */
  ours?: Found;
  signal?: AbortSignal;
}

/** Where an attempt's productSet goes, and what is there to merge with. */
interface Target {
  effective: KnownStorefrontProduct;
  current: StorefrontTags | null;
  /** The handle a create sends (the PIM slug); none for an update. */
  sendHandle?: string;
  /** Undefined: a plain create (a shop without the unique definition has no identifier a create can name). */
  identifier?: Record<string, unknown>;
  keepTagsAndMetafields: boolean;
}

export class ProductUpserter {
  readonly reads: ProductReads;

  constructor(
    private readonly client: ShopifyClient,
    /** The PIM's taxonomy categories as Shopify's GIDs (a full name looked up once per shop and process). */
    readonly taxonomy: TaxonomyCategories,
  ) {
    this.reads = new ProductReads(client);
  }

  async upsert(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    known: KnownStorefrontProduct,
    placement: SyncPlacement,
    signal?: AbortSignal,
  ): Promise<ProductUpsertResult> {
    // Shopify's rules first: a product it would refuse costs no call at all.
    const rules = await this.client.rules(shop, placement, signal);
    const sketch = mapProduct(product, known, { locations: [], placement, current: null });
    const early = [...preflight(product, sketch.input, rules.limits, rules.currency), ...sketch.merchantVariants.refused];
    if (early.length > 0) throw new StorefrontValidationError(early);
    // Attribute metafields: the shop's definitions made where missing, each value checked against its definition.
    const attributes = await this.attributeMetafieldsOf(shop, product, placement.attributeMetafields ?? [], {}, signal);
    // The taxonomy category as Shopify's GID (a full name looked up once per shop); one Shopify lacks refuses the product.
    const category = await this.taxonomy.resolve(shop, product.taxonomy_category, signal);
    let locations = await this.client.locations(shop, { signal });
    // A productSet that failed with a 5xx or a timeout may have been applied (the answer was lost): the next attempt
    // looks the product up again, with its variants and media, so it neither duplicates the product nor re-uploads
    // images sent by the failed attempt. Hence productSet is retried here, not inside the throttle.
    let creating: boolean | undefined;
    let failures = 0;
    let healed = false;
    for (;;) {
      try {
        const afterFailure = failures > 0 || healed;
        const result = await this.upsertOnce({ shop, product, known, placement, locations, afterFailure, attributes, category, signal });
        creating ??= result.method === 'create';
        return { ...result, method: creating ? 'create' : 'update' };
      } catch (err) {
        if (err instanceof StaleIds) {
          // Ids we stored are gone on the storefront (a variant, an image or a location deleted there): once, read the
          // product and the locations again and resend; a second refusal is the product's validation error.
          if (healed) throw err.refusal;
          healed = true;
          if (err.locations) locations = await this.client.locations(shop, { fresh: true, signal });
          continue;
        }
        if (err instanceof AmbiguousFailure) {
          creating ??= err.creating;
          failures++;
          if (failures >= this.client.throttle.policy.maxAttempts) throw err.failure;
          await this.client.throttle.backoff(failures);
          continue;
        }
        throw err;
      }
    }
  }

  /**
   * The product's attribute metafields, checked against the shop's definitions (made first where missing); a value that
   * does not fit is a StorefrontValidationError naming the attribute, before any write (`keepInvalid`: sent anyway).
   */
  async attributeMetafieldsOf(
    shop: StorefrontShop,
    product: PimProductSnapshot,
    specs: AttributeMetafieldSpec[],
    options: { keepInvalid?: boolean } = {},
    signal?: AbortSignal,
  ): Promise<StorefrontMetafield[]> {
    const present = specs.filter((s) => product.attributes && s.code in product.attributes);
    if (present.length === 0) return [];
    const definitions = await this.client.attributeDefinitions(shop, present, signal);
    const { metafields, problems } = attributeMetafields(product, present, definitions, options);
    if (problems.length > 0 && !options.keepInvalid) throw new StorefrontValidationError(problems);
    return metafields;
  }

  private async upsertOnce(a: Attempt): Promise<ProductUpsertResult> {
    const target = await this.target(a);
    const mapped = mapProduct(a.product, target.effective, {
      locations: a.locations,
      placement: a.placement,
      current: target.current,
      handle: target.sendHandle,
      keepTagsAndMetafields: target.keepTagsAndMetafields,
      attributeMetafields: a.attributes,
      category: a.category,
    });
    const rules = await this.client.rules(a.shop, a.placement, a.signal);
    const problems = [...preflight(a.product, mapped.input, rules.limits, rules.currency), ...mapped.merchantVariants.refused];
    if (problems.length > 0) throw new StorefrontValidationError(problems);

    const payload = await this.productSet(a, target, mapped);
    if (payload.userErrors.length > 0) return this.upsertOnce({ ...a, ours: await this.ourHandleHolder(a, target, payload.userErrors) });
    const p = payload.product;
    if (!p || typeof p.id !== 'string') throw new StorefrontError('invalid_response', `${a.shop.domain} answered productSet without the product`);
    return this.settle(a, target, mapped, p);
  }

  /**
   * What the productSet updates or creates. The mapped product with the PIM tags of the last push: nothing to merge, so
   * no read before the productSet (a product deleted in Shopify meanwhile answers PRODUCT_DOES_NOT_EXIST, and the retry
   * takes the reading path). Images sent earlier without their ids (a bulk sync), and the list changed: the product's
   * media are read first, so those images are kept by id rather than uploaded again. Files to send at all: the
   * product's media are read first, so the merchant's media go back in the list (productSet's `files` replaces it) and
   * only ours are ever removed.
   */
  private async target(a: Attempt): Promise<Target> {
    const { shop, product, known, afterFailure, signal } = a;
    const wantMedia = !afterFailure && needsMediaIds(known, product);
    const wantFiles = filesWillBeSent(known, product);
    const keepTagsAndMetafields =
      !afterFailure &&
      !wantMedia &&
      !wantFiles &&
      known.productId !== null &&
      sameTags(known.owned?.tags, pimTagsOf(product)) &&
      known.owned?.attributeMetafields === metafieldsFingerprint(a.attributes) &&
      sameCollections(known, product, a.placement);
    if (keepTagsAndMetafields) return { effective: known, current: null, identifier: { id: known.productId }, keepTagsAndMetafields };

    const byId = known.productId
      ? await this.reads.lookup(shop, { id: known.productId }, { recover: afterFailure || wantMedia, media: wantFiles, signal })
      : null;
    if (byId) {
      let effective = known;
      if (afterFailure) effective = await this.reads.recovered(shop, byId, product, known, signal);
      else if (wantMedia) effective = { ...known, mediaIds: (await this.reads.recovered(shop, byId, product, known, signal)).mediaIds, imagesUnconfirmed: [] };
      return { effective, current: tagsOf(byId), identifier: { id: byId.id }, keepTagsAndMetafields };
    }
    // No mapping (or the mapped product was deleted on the storefront): find what an earlier push may have made, by
    // our metafield, never by handle (the merchant may have changed it; a product holding it may be the merchant's).
    const mode = await this.client.identifierMode(shop, signal);
    // A product never pushed before cannot be there yet: skip the round trip (most of a first push's cost).
    const found = a.ours ?? (known.neverPushed && !afterFailure ? null : await this.reads.findOurs(shop, product.id, mode, signal));
    if (found) {
      const effective = await this.reads.recovered(shop, found, product, undefined, signal);
      return { effective, current: tagsOf(found), identifier: { id: found.id }, keepTagsAndMetafields };
    }
    return {
      effective: NOTHING_KNOWN,
      current: null,
      // customId makes the create idempotent; without it a retry's create is refused the handle its first try took,
      // and that holder carries our metafield (ourHandleHolder): found either way, never made twice.
      identifier: mode === 'customId' ? customIdOf(product.id) : undefined,
      // The PIM slug, exactly: Shopify refuses it when taken (HANDLE_NOT_UNIQUE), it never suffixes it.
      sendHandle: handleOf(product),
      keepTagsAndMetafields,
    };
  }

  /** The productSet itself; a failure that may have been applied is an AmbiguousFailure (upsert looks again). */
  private async productSet(a: Attempt, target: Target, mapped: MappedProduct): Promise<NonNullable<ProductSetSyncData['productSet']>> {
    const { input, imageUrls } = mapped;
    const variants = Math.min(250, Math.max(1, input.variants.length));
    const media = Math.min(250, Math.max(1, imageUrls.length));
    let data: ProductSetSyncData;
    try {
      data = await this.client.call<ProductSetSyncData>(
        a.shop,
        ProductSetSync,
        { identifier: target.identifier, input, variants, media },
        productSetCost(
          input.variants.length,
          input.files?.length ?? 0,
          input.metafields?.length ?? 0,
          imageUrls.length,
          input.variants.filter((v) => v.file).length,
        ),
        { retryUnavailable: false, signal: a.signal },
      );
    } catch (err) {
      if (err instanceof StorefrontError && err.kind === 'unavailable') throw new AmbiguousFailure(err, !target.effective.productId);
      throw err;
    }
    if (!data.productSet) throw new StorefrontError('invalid_response', `${a.shop.domain} answered productSet without a payload`);
    return data.productSet;
  }

  /**
   * A refused productSet: the product's validation error, or StaleIds when it refused ids we stored, or, for a create
   * refused its handle, the holder to take over when it is ours for this PIM product (a lost mapping the lookup could
   * not find). That one read is what a taken handle costs; a holder that is not ours is named in the error.
   */
  private async ourHandleHolder(a: Attempt, target: Target, userErrors: { field: string[] | null; message: string; code: string | null }[]): Promise<Found> {
    const { sendHandle } = target;
    if (sendHandle && userErrors.some((e) => e.code === 'HANDLE_NOT_UNIQUE')) {
      const holder = await this.reads.lookup(a.shop, { handle: sendHandle }, { recover: true, signal: a.signal });
      if (holder && !a.ours && pimIdOf(holder) === String(a.product.id)) return holder;
      const others = userErrors.filter((e) => e.code !== 'HANDLE_NOT_UNIQUE');
      throw new StorefrontValidationError([handleTakenProblem(sendHandle, holder && identityOf(holder), a.product.id), ...userErrorLines(others)]);
    }
    const refusal = new StorefrontValidationError(userErrorLines(userErrors));
    const stale = staleIdKinds(userErrors);
    if (!a.afterFailure && stale.any) throw new StaleIds(refusal, stale.locations);
    throw refusal;
  }

  /** After a written productSet: every variant, the media matched (failed ones sent again once), then the steps after. */
  private async settle(a: Attempt, target: Target, mapped: MappedProduct, p: ProductSetProductData): Promise<ProductUpsertResult> {
    const { shop, product, signal } = a;
    const { input, imageUrls } = mapped;
    const allVariants = await this.reads.remainingVariants(shop, p.id, p.variants, signal);
    const answer = { ...p, variants: { nodes: allVariants } };
    let matched = matchMedia(imageUrls, target.effective.mediaIds, p.media?.nodes ?? [], { merchant: mapped.merchantMedia });
    // A media that failed after an earlier push answered (Shopify processes images asynchronously): its image is sent
    // from its source again, once, in this push (one this very call uploaded is only reported: its source is broken now).
    const uploaded = new Set((input.files ?? []).flatMap((f) => (f.originalSource ? [f.originalSource] : [])));
    const earlierFailures = imageUrls.filter((url) => matched.failed[url] && !uploaded.has(url));
    if (earlierFailures.length > 0) {
      matched = await this.resendImages(a, p.id, imageUrls, matched, earlierFailures, mapped.merchantMedia);
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
      method: target.effective.productId ? 'update' : 'create',
      mediaIds: matched.mediaIds,
      imagesUnconfirmed,
      variantCount: input.variants.length,
      imageCount: imageUrls.length,
      keys: mapped.variantKeys,
    });
    const mediaProblems = [...matched.problems, ...handleProblems(target.sendHandle, p.handle)];
    const done = { product, placement: a.placement, known: target.effective, mapped, base, mediaProblems, signal };
    return (await afterProductSet(this.client, shop, done)).result;
  }

  /**
   * A productSet of the product's media alone (the other lists are not sent, so they stay): `resend` from their
   * source, the rest by id, then the merchant's media (`merchant`, by id: the list replaces the product's media); then a
   * few looks (with the retry back-off between) while Shopify processes them, so that an image whose source is still
   * broken is reported with Shopify's reason now, not at the next push. A refusal is a problem on the product, which is
   * written already.
   */
  private async resendImages(
    a: Attempt,
    productId: string,
    imageUrls: string[],
    before: MatchedMedia,
    resend: string[],
    merchant: string[] = [],
  ): Promise<MatchedMedia> {
    const { shop, signal } = a;
    const kept = { ...before.mediaIds, ...before.failed };
    const files = [
      ...imageUrls.map((url) => (resend.includes(url) || !kept[url] ? imageFile(url, a.product) : { id: kept[url] })),
      ...merchant.map((id) => ({ id })),
    ];
    const media = Math.min(250, Math.max(1, imageUrls.length));
    const data = await this.client.call<ProductSetSyncData>(
      shop,
      ProductSetSync,
      { identifier: { id: productId }, input: { files }, variants: 1, media },
      productSetCost(0, files.length, 0, imageUrls.length),
      { signal },
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
      await this.client.throttle.backoff(look);
      const cost = 2 + 3 * connectionMultiplier(media);
      nodes = (await this.client.call<ProductMediaData>(shop, ProductMedia, { id: productId, media }, cost, { signal })).product?.media.nodes ?? [];
      // The media ids are known now: the resent images are matched by the ids this productSet gave them.
      matched = matchMedia(imageUrls, { ...known, ...matched.mediaIds, ...matched.failed }, nodes, { merchant });
    }
    return matched;
  }
}

const statusOf = (nodes: StorefrontMediaNode[], id: string) => nodes.find((n) => n.id === id)?.status ?? '';
