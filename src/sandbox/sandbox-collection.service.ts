// Custom (manual) collections as the sandbox emulates them, each rule with its source (docs/sandbox/collections.md):
// - collectionCreate(collection:) makes a custom collection, unpublished (schema 2026-10, Mutation.collectionCreate: "The
//   created collection is unpublished by default"); a title is required (CollectionCreateInput.title: String!) and at most
//   255 characters, as its handle ("The collection’s name. Limit of 255 characters", "Limit of 255 characters" for the
//   handle: https://shopify.dev/docs/api/storefront/2025-10/objects/Collection);
// - a handle not given comes from the title (schema 2026-10, CollectionCreateInput.handle "Automatically generated from
//   the collection's title") and is made unique with `-1`, `-2`… as product handles are; a given handle that is taken is
//   a userError (CollectionCreateInput.handle "A unique human-friendly string"; CollectionDuplicateUserErrorCode.TAKEN
//   "The URL handle … is already in use");
// - a changed title keeps the handle (schema 2026-10, Collection.handle "If the title is changed, the handle doesn't
//   automatically change");
// - membership comes from `sources` (Mutation.collectionCreate "Define membership with `sources`… through `conditions`…
//   and through manual `selections`"): the sandbox keeps one source of manual selections per collection and refuses
//   conditions (smart collections), exclusions, shared and sub-collection sources with a userError;
// - collectionUpdate adds and removes products through that source's selectionsToAdd / selectionsToRemove (schema
//   2026-10: collectionAddProducts is deprecated, "Use `collectionUpdate` with inclusion.selectionsToAdd instead").
// Every write is one transaction; any userError rolls it back.
import { append } from '../lib/arrays.js';
import type { Db } from '../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import { notEmulated } from './not-emulated.js';
import type {
  CollectionFilter,
  CollectionMetafieldRow,
  CollectionRow,
  CollectionValues,
  ProductOrder,
  SandboxCollectionRepository,
} from './sandbox-collection.repository.js';
import { gidNumber } from './gid.js';
import { handleize } from './shopify-values.js';
import {
  checkMetafields,
  checkTitle,
  type CollectionInput,
  type CollectionResult,
  fail,
  Rejected,
  type SelectionInput,
  SMART_REFUSED,
  type SourceTargetInput,
  DEFAULT_NAMESPACE,
  MAX_TITLE,
} from './collection-input.js';
import type { PlainUserError, PublicationInput, SandboxPublicationService } from './sandbox-publication.service.js';

const SORT_ORDERS = new Set(['ALPHA_ASC', 'ALPHA_DESC', 'BEST_SELLING', 'CREATED', 'CREATED_DESC', 'MANUAL', 'MOST_RELEVANT', 'PRICE_ASC', 'PRICE_DESC']);

export const collectionGid = (id: number) => `gid://shopify/Collection/${id}`;
/** The id of a collection's one source of manual selections (the sandbox keeps one per collection). */
export const sourceGid = (collectionId: number) => `gid://shopify/CollectionConditionsSource/${collectionId}`;

/** `collections(query:)`: `title:`, `handle:`, `collection_type:custom|smart`, `product_id:`, `id:` and free text (schema 2026-10, QueryRoot.collections). */
export function parseCollectionQuery(query: string | null | undefined): CollectionFilter {
  const filter: CollectionFilter = {};
  if (!query) return filter;
  const text: string[] = [];
  for (const m of query.matchAll(/(\w+):(?:"([^"]*)"|'([^']*)'|(\S+))|"([^"]*)"|(\S+)/g)) {
    const [, rawField, dq, sq, bare, quoted, word] = m;
    const field = rawField?.toLowerCase();
    const value = dq ?? sq ?? bare ?? '';
    if (field === 'title') filter.title = value;
    else if (field === 'handle') filter.handle = value;
    else if (field === 'collection_type') {
      // Every sandbox collection is custom: `smart` matches none.
      if (value.toLowerCase() === 'smart') filter.none = true;
      else if (value.toLowerCase() !== 'custom') filter.none = true;
    } else if (field === 'product_id') {
      const id = /^\d+$/.test(value) ? Number(value) : gidNumber(value, 'Product');
      if (id === null) filter.none = true;
      else filter.productId = id;
    } else if (field === 'id') {
      const c = /^(>=|<=|>|<)?(\d+)$/.exec(value);
      if (!c) filter.none = true;
      else (filter.ids ??= []).push({ op: (c[1] ?? '=') as '=', value: Number(c[2]) });
    } else if (word?.toUpperCase() === 'AND') {
      // Terms are ANDed anyway (https://shopify.dev/api/usage/search-syntax).
    } else text.push(quoted ?? word ?? `${rawField}:${value}`);
  }
  if (text.length) filter.text = text.join(' ');
  return filter;
}

/** How Collection.products orders (ProductCollectionSortKeys; COLLECTION_DEFAULT is the collection's sortOrder). */
export function productOrder(collection: CollectionRow, sortKey: string | null | undefined): { order: ProductOrder; descending: boolean } {
  const key = sortKey ?? 'COLLECTION_DEFAULT';
  if (key !== 'COLLECTION_DEFAULT') {
    // BEST_SELLING and RELEVANCE: the sandbox has no sales nor relevance, so the manual order stands in.
    const byKey: Record<string, ProductOrder> = { TITLE: 'TITLE', CREATED: 'CREATED', ID: 'ID', PRICE: 'PRICE' };
    return { order: byKey[key] ?? 'POSITION', descending: false };
  }
  const bySortOrder: Record<string, { order: ProductOrder; descending: boolean }> = {
    ALPHA_ASC: { order: 'TITLE', descending: false },
    ALPHA_DESC: { order: 'TITLE', descending: true },
    CREATED: { order: 'CREATED', descending: false },
    CREATED_DESC: { order: 'CREATED', descending: true },
    PRICE_ASC: { order: 'PRICE', descending: false },
    PRICE_DESC: { order: 'PRICE', descending: true },
  };
  return bySortOrder[collection.sortOrder] ?? { order: 'POSITION', descending: false };
}

export class SandboxCollectionService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxCollectionRepository,
    private readonly publications: SandboxPublicationService,
  ) {}

  // Reads

  async find(storeId: number, gid: unknown): Promise<CollectionRow | null> {
    const id = gidNumber(gid, 'Collection');
    return id === null ? null : this.repo.collection(storeId, id);
  }

  /**
   * collectionByIdentifier (schema 2026-10, CollectionIdentifierInput: id, handle or customId). The sandbox keeps no
   * COLLECTION metafield definitions, so a customId matches the first collection holding that metafield value.
   */
  async findByIdentifier(
    storeId: number,
    identifier: { id?: string | null; handle?: string | null; customId?: { namespace?: string | null; key: string; value: string } | null },
  ): Promise<CollectionRow | null> {
    if (identifier.id != null) return this.find(storeId, identifier.id);
    if (identifier.handle != null) return this.repo.byHandle(storeId, identifier.handle);
    if (identifier.customId != null) {
      const c = identifier.customId;
      return this.repo.byMetafield(storeId, c.namespace ?? DEFAULT_NAMESPACE, c.key, c.value);
    }
    return null;
  }

  /** The store's collections matching `query`, in the order of `sortKey` (CollectionSortKeys: ID, TITLE, UPDATED_AT, RELEVANCE). */
  async list(
    storeId: number,
    query: string | null | undefined,
    sortKey: string | null | undefined,
    reverse: boolean,
    productId?: number,
  ): Promise<CollectionRow[]> {
    const filter = parseCollectionQuery(query);
    if (productId !== undefined) {
      if (filter.productId !== undefined && filter.productId !== productId) return [];
      filter.productId = productId;
    }
    const rows = await this.repo.list(storeId, filter);
    if (sortKey === 'TITLE') rows.sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    else if (sortKey === 'UPDATED_AT') rows.sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || a.id - b.id);
    return reverse ? rows.reverse() : rows;
  }

  productIds(collection: CollectionRow, sortKey: string | null | undefined, reverse: boolean): Promise<number[]> {
    const { order, descending } = productOrder(collection, sortKey);
    return this.repo.productIds(collection.id, order, descending !== reverse);
  }

  products(storeId: number, ids: number[]) {
    return this.repo.products(storeId, ids);
  }

  countProducts(collectionId: number): Promise<number> {
    return this.repo.countProducts(collectionId);
  }

  hasProduct(collectionId: number, productGid: unknown): Promise<boolean> {
    const id = gidNumber(productGid, 'Product');
    return id === null ? Promise.resolve(false) : this.repo.hasProduct(collectionId, id);
  }

  ofProduct(productId: number): Promise<CollectionRow[]> {
    return this.repo.collectionsOfProduct(productId);
  }

  metafields(collectionId: number): Promise<CollectionMetafieldRow[]> {
    return this.repo.metafields(collectionId);
  }

  publicationsOf(collectionId: number) {
    return this.repo.publications(collectionId);
  }

  isPublishedOn(publicationId: number, collectionId: number): Promise<boolean> {
    return this.repo.isPublishedOn(publicationId, collectionId);
  }

  // Writes

  async create(storeId: number, input: CollectionInput): Promise<CollectionResult> {
    return this.run(async (repo) => {
      const at = (...rest: string[]) => ['collection', ...rest];
      if (input.image != null) throw notEmulated('CollectionCreateInput.image');
      const title = checkTitle(input.title, at('title'), true)!;
      const sortOrder = input.sortOrder ?? 'BEST_SELLING';
      if (!SORT_ORDERS.has(sortOrder)) throw fail(at('sortOrder'), 'Sort order is invalid');
      const selections = await this.selections(repo, storeId, input.sources ?? [], at('sources'));
      const metafields = checkMetafields(input.metafields ?? [], [], at('metafields'));
      const handle = await this.handleFor(repo, storeId, input.handle, title, null, at('handle'));
      const row = await repo.insert(storeId, {
        title,
        handle,
        descriptionHtml: input.descriptionHtml ?? '',
        sortOrder,
        templateSuffix: input.templateSuffix ?? null,
        seo: { title: input.seo?.title ?? null, description: input.seo?.description ?? null },
      });
      await repo.upsertMetafields(storeId, row.id, metafields);
      await repo.addProducts(row.id, selections);
      return row;
    });
  }

  async update(storeId: number, input: CollectionInput): Promise<CollectionResult> {
    return this.run(async (repo) => {
      const at = (...rest: string[]) => ['collection', ...rest];
      if (input.image != null) throw notEmulated('CollectionUpdateInput.image');
      const id = gidNumber(input.id, 'Collection');
      if (input.id == null) throw fail(at('id'), "Id can't be blank");
      if (id !== null) await repo.lock(`sandbox-collection:${storeId}:row:${id}`);
      const target = id === null ? null : await repo.collection(storeId, id);
      // CollectionAddProductsV2UserErrorCode.COLLECTION_DOES_NOT_EXIST "Collection doesn't exist." (schema 2026-10).
      if (!target) throw fail(at('id'), 'Collection does not exist');
      const values: Partial<CollectionValues> = {};
      if (input.title != null) values.title = checkTitle(input.title, at('title'), true)!;
      if (input.descriptionHtml != null) values.descriptionHtml = input.descriptionHtml;
      if (input.sortOrder != null) {
        if (!SORT_ORDERS.has(input.sortOrder)) throw fail(at('sortOrder'), 'Sort order is invalid');
        values.sortOrder = input.sortOrder;
      }
      if (input.templateSuffix !== undefined) values.templateSuffix = input.templateSuffix;
      if (input.seo != null) values.seo = { title: input.seo.title ?? target.seo.title, description: input.seo.description ?? target.seo.description };
      // redirectNewHandle is accepted; the sandbox serves no storefront URLs to redirect.
      if (input.handle != null && input.handle.trim().toLowerCase() !== target.handle)
        values.handle = await this.handleFor(repo, storeId, input.handle, target.title, target.id, at('handle'));
      const metafields = checkMetafields(input.metafields ?? [], await repo.metafields(target.id), at('metafields'));

      // Sources: the collection's one source of manual selections (sourceGid).
      const add = await this.selections(repo, storeId, input.sourcesToCreate ?? [], at('sourcesToCreate'));
      const remove: number[] = [];
      for (const [i, s] of (input.sourcesToUpdate ?? []).entries()) {
        const path = at('sourcesToUpdate', String(i));
        if (s.subCollections != null || !s.condition) throw fail(path, SMART_REFUSED);
        const c = s.condition;
        if (c.id !== sourceGid(target.id)) throw fail([...path, 'condition', 'id'], 'Source does not exist');
        const inc = c.inclusion ?? {};
        if (c.exclusion != null || inc.conditionsToCreate?.length || inc.conditionsToUpdate?.length || inc.conditionsToDelete?.length)
          throw fail([...path, 'condition'], SMART_REFUSED);
        append(add, await this.productIdsOf(repo, storeId, inc.selectionsToAdd ?? [], [...path, 'condition', 'inclusion', 'selectionsToAdd']));
        append(remove, await this.productIdsOf(repo, storeId, inc.selectionsToRemove ?? [], [...path, 'condition', 'inclusion', 'selectionsToRemove']));
      }
      let clear = false;
      for (const [i, sid] of (input.sourcesToDelete ?? []).entries()) {
        if (sid !== sourceGid(target.id)) throw fail(at('sourcesToDelete', String(i)), 'Source does not exist');
        clear = true;
      }

      const row = Object.keys(values).length || metafields.length || add.length || remove.length || clear ? await repo.update(target.id, values) : target;
      await repo.upsertMetafields(storeId, target.id, metafields);
      if (clear) await repo.removeProducts(target.id, 'all');
      await repo.removeProducts(target.id, remove);
      await repo.addProducts(
        target.id,
        add.filter((p) => !remove.includes(p)),
      );
      return row;
    });
  }

  /** Deletes the collection; its products stay (schema 2026-10, Mutation.collectionDelete). False when it does not exist. */
  async delete(storeId: number, gid: unknown): Promise<boolean> {
    const id = gidNumber(gid, 'Collection');
    return id !== null && this.repo.delete(storeId, id);
  }

  /** publishablePublish / publishableUnpublish of a Collection, with the publications' own checks. */
  async publish(
    storeId: number,
    gid: string,
    input: PublicationInput[],
    action: 'publish' | 'unpublish',
  ): Promise<{ collection: CollectionRow | null; userErrors: PlainUserError[] }> {
    const missing = { collection: null, userErrors: [{ field: ['id'], message: 'Collection does not exist' }] };
    const collection = await this.find(storeId, gid);
    if (!collection) return missing;
    const { errors, entries } = await this.publications.checkEntries(storeId, input, action);
    if (errors.length) return { collection: null, userErrors: errors };
    try {
      if (action === 'unpublish') await this.repo.unpublish(collection.id, [...entries.keys()]);
      else
        await this.db.transaction((tx) =>
          this.repo.with(tx).publish(
            collection.id,
            [...entries].map(([publicationId, publishDate]) => ({ publicationId, publishDate })),
          ),
        );
    } catch (e) {
      if (isForeignKeyViolation(e)) return missing; // deleted meanwhile
      throw e;
    }
    return { collection, userErrors: [] };
  }

  // Helpers

  private async run(write: (repo: SandboxCollectionRepository) => Promise<CollectionRow>): Promise<CollectionResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        const collection = await this.db.transaction((tx) => write(this.repo.with(tx)));
        return { collection, userErrors: [] };
      } catch (e) {
        if (e instanceof Rejected) return { collection: null, userErrors: e.errors };
        // Two creates raced for one derived handle: the loser derives again.
        if (attempt < 5 && isUniqueViolation(e, 'sandbox_collections_store_handle_uq')) continue;
        throw e;
      }
    }
  }

  /** A given handle must be free; none: the title's, with `-1`, `-2`… while taken. */
  private async handleFor(
    repo: SandboxCollectionRepository,
    storeId: number,
    given: string | null | undefined,
    title: string,
    ownId: number | null,
    field: string[],
  ): Promise<string> {
    if (given != null) {
      const handle = given.trim().toLowerCase();
      if (!/^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u.test(handle)) throw fail(field, 'Handle is invalid');
      if (handle.length > MAX_TITLE) throw fail(field, `Handle is too long (maximum is ${MAX_TITLE} characters)`);
      await repo.lock(`sandbox-collection:${storeId}:handle:${handle}`);
      const holder = await repo.byHandle(storeId, handle);
      if (holder && holder.id !== ownId) throw fail(field, `Handle '${handle}' is already in use. Please provide a new handle.`);
      return handle;
    }
    const base = /[\p{L}\p{N}]/u.test(title) ? handleize(title) : 'collection';
    await repo.lock(`sandbox-collection:${storeId}:handle:${base}`);
    const taken = await repo.handlesLike(storeId, base);
    let handle = base;
    for (let n = 1; taken.has(handle); n++) handle = `${base}-${n}`;
    return handle;
  }

  /** The products a create's (or sourcesToCreate's) sources select, in order; anything but manual selections refused. */
  private async selections(repo: SandboxCollectionRepository, storeId: number, sources: SourceTargetInput[], path: string[]): Promise<number[]> {
    // One source of manual selections per collection: it is what Collection.sources answers (sourceGid).
    if (sources.length > 1) throw fail(path, 'The Pimbridge sandbox keeps one source of manual selections per collection.');
    const out: number[] = [];
    for (const [i, s] of sources.entries()) {
      const at = [...path, String(i)];
      if (s.shareableSource != null || s.subCollections != null || !s.source) throw fail(at, SMART_REFUSED);
      const src = s.source;
      if (src.inclusion?.conditions?.length || src.exclusion?.conditions?.length || src.exclusion?.selections?.length)
        throw fail([...at, 'source'], SMART_REFUSED);
      if (src.targetType != null && src.targetType !== 'PRODUCTS') throw fail([...at, 'source', 'targetType'], SMART_REFUSED);
      append(out, await this.productIdsOf(repo, storeId, src.inclusion?.selections ?? [], [...at, 'source', 'inclusion', 'selections']));
    }
    return out;
  }

  private async productIdsOf(repo: SandboxCollectionRepository, storeId: number, selections: SelectionInput[], path: string[]): Promise<number[]> {
    const ids = selections.map((s) => gidNumber(s.productId, 'Product'));
    const known = await repo.existingProducts(
      storeId,
      ids.filter((id): id is number => id !== null),
    );
    for (const [j, s] of selections.entries()) {
      if (s.variantIds?.length)
        throw fail([...path, String(j), 'variantIds'], 'The Pimbridge sandbox does not emulate selecting variants: select the product.');
      if (ids[j] === null || !known.has(ids[j]!)) throw fail([...path, String(j), 'productId'], 'Product does not exist');
    }
    return ids as number[];
  }
}
