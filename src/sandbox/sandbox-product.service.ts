// productSet with Shopify's semantics (../shared/notes/shopify.md), as the sandbox emulates them:
// - `identifier` {id} | {handle} | {customId} updates the match or creates (an unknown {id}: PRODUCT_DOES_NOT_EXIST;
//   {customId} needs a PRODUCT metafield definition with unique values); `input.id` beside an identifier: ID_NOT_ALLOWED;
// - lists that are sent replace what is there (variants, metafields, files left out are deleted; `collections` sets the
//   product's custom-collection memberships); a list not sent is kept;
// - a title-derived handle that is taken gets `-1`, `-2`, …; an explicit taken handle: HANDLE_NOT_UNIQUE, never a suffix
//   ("If no handle is explicitly provided … a suffix is added to make the handle unique", ProductSetInput.handle in the
//   2026-10 schema; explicit handles "validated for uniqueness" from 2025-01,
//   https://shopify.dev/changelog/new-validation-against-duplicate-handles-in-productcreate-productupdate-and-productset-mutation-inputs);
// - `files[].originalSource` always adds a new media (APPEND_UUID); `files[{id}]` keeps that media;
// - `variants[].file` attaches one of the media of this call's `files` (same id or originalSource) to the variant;
// - `giftCard` is taken on create only: a different value later is GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED ("The product
//   gift_card attribute cannot be changed after creation", ProductSetUserErrorCode, schema 2026-10); `category` is a
//   TaxonomyCategory GID of the sandbox's taxonomy subset (taxonomy-data.ts), null removes it; a variant's `taxable` and
//   its inventory item's `requiresShipping` are kept like its other fields (true until sent);
// - limits: 3 options, 2048 variants, unique option values, title required, prices as decimals.
// The whole upsert is one transaction, serialised per identifier with an advisory lock; any userError rolls it back.
// The checks that need no database are product-set-check.ts; the transaction's steps product-set-write.ts.
import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { LRUCache } from 'lru-cache';
import { DEFAULT_NAMESPACE, type ProductSetArgs, type ProductSetResult, Rejected } from './product-set-args.js';
import { checkProductSet } from './product-set-check.js';
import { writeProductSet } from './product-set-write.js';
import type { DefinitionRow, SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import type { SandboxProductRepository } from './sandbox-product.repository.js';
import { SandboxCollectionRepository } from './sandbox-collection.repository.js';

/** Where media made from `originalSource` go once committed (SandboxMediaService: fetched, then READY or FAILED). */
export interface MediaIntake {
  accepted(ids: number[]): void;
}

export class SandboxProductService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxProductRepository,
    private readonly metafields: SandboxMetafieldRepository,
    private readonly media: MediaIntake,
  ) {}

  /**
   * Location ids by store, once they are known to exist. Locations are added (admin PATCH, sandbox-store.service.ts),
   * never removed: an addition in this process forgets the store's entry (forgetLocations); one made by another process
   * is found by productSet reading again on a miss.
   */
  private readonly located = new Map<number, Set<number>>();

  /** Drops the store's cached location ids (called when locations are added). */
  forgetLocations(storeId: number): void {
    this.located.delete(storeId);
  }

  /** The store's locations exist (one "Shop location" for a store made before locations, or a new one); their ids. */
  async ensureLocation(storeId: number): Promise<Set<number>> {
    const known = this.located.get(storeId);
    if (known) return known;
    const ids = await this.db.transaction(async (tx) => {
      const repo = this.repo.with(tx);
      await repo.lock(`sandbox-location:${storeId}`);
      await repo.ensureLocation(storeId);
      return new Set((await repo.locations(storeId, 0, 1000)).map((l) => l.id));
    });
    this.located.set(storeId, ids);
    return ids;
  }

  /**
   * The store's PRODUCT metafield definitions, kept a second: definitions are only added (never changed or removed), a
   * definition made through this process drops the entry (forgetDefinitions), and one that a caller needs but the entry
   * lacks is read again (`fresh`), so another process's new definition is never missed where it decides an answer.
   */
  private readonly definitionCache = new LRUCache<number, DefinitionRow[]>({ max: 1_000, ttl: 1_000 });

  async productDefinitions(storeId: number, fresh = false): Promise<DefinitionRow[]> {
    const hit = fresh ? undefined : this.definitionCache.get(storeId);
    if (hit) return hit;
    const rows = await this.metafields.definitions(storeId, 'PRODUCT');
    this.definitionCache.set(storeId, rows);
    return rows;
  }

  forgetDefinitions(storeId: number): void {
    this.definitionCache.delete(storeId);
  }

  /** `variantThrottleLimit`: the store's VARIANT_THROTTLE_EXCEEDED threshold (sandbox_stores.variant_throttle_limit). */
  async productSet(storeId: number, args: ProductSetArgs, variantThrottleLimit: number | null = null): Promise<ProductSetResult> {
    const errors = checkProductSet(args);
    if (errors.length) return { product: null, userErrors: errors };
    const locations = await this.ensureLocation(storeId);
    // Read before the transaction (PGlite has one connection): a customId whose definition is missing reads them again.
    const customId = args.identifier?.customId ?? null;
    let definitions = customId || args.input.metafields != null ? await this.productDefinitions(storeId) : [];
    if (customId && !definitions.some((d) => d.uniqueValues && d.namespace === (customId.namespace ?? DEFAULT_NAMESPACE) && d.key === customId.key)) {
      definitions = await this.productDefinitions(storeId, true);
    }
    // Media from `originalSource` start UPLOADED and are processed after the commit (sandbox-media.service.ts).
    for (let attempt = 0; ; attempt++) {
      try {
        const { product, written, added } = await this.db.transaction((tx) =>
          writeProductSet(
            { products: this.repo.with(tx), metafields: this.metafields.with(tx), collections: new SandboxCollectionRepository(tx) },
            storeId,
            locations,
            definitions,
            args,
            variantThrottleLimit,
          ),
        );
        this.media.accepted(added);
        return { product, userErrors: [], written };
      } catch (e) {
        if (e instanceof Rejected) return { product: null, userErrors: e.errors };
        // Two creates raced for one derived handle: the loser derives again.
        if (attempt < 5 && isUniqueViolation(e, 'sandbox_products_store_handle_uq')) continue;
        throw e;
      }
    }
  }
}
