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
import { GraphQLError } from 'graphql';
import type { Db } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import { LRUCache } from 'lru-cache';
import type { DefinitionRow, MediaRow, ProductRow, SandboxProductRepository, VariantRow, VariantValues } from './sandbox-product.repository.js';
import { SandboxCollectionRepository } from './sandbox-collection.repository.js';
import { metafieldValueProblem } from './metafield-types.js';
import { TAXONOMY_GID_PREFIX, taxonomyNode } from './taxonomy-data.js';

export const MAX_OPTIONS = 3;
export const MAX_VARIANTS = 2048;

export interface UserError {
  field: string[] | null;
  message: string;
  code: string;
}

export interface ProductSetArgs {
  identifier?: { id?: string | null; handle?: string | null; customId?: { namespace?: string | null; key: string; value: string } | null } | null;
  input: ProductSetInput;
}

interface FileInput {
  id?: string | null;
  originalSource?: string | null;
  alt?: string | null;
  filename?: string | null;
}

interface VariantInput {
  id?: string | null;
  sku?: string | null;
  price?: unknown;
  compareAtPrice?: unknown;
  barcode?: string | null;
  position?: number | null;
  optionValues?: { name?: string | null; optionName?: string | null; optionId?: string | null; id?: string | null }[];
  inventoryQuantities?: { locationId: string; name: string; quantity: number }[] | null;
  inventoryPolicy?: string | null;
  taxable?: boolean | null;
  inventoryItem?: {
    tracked?: boolean | null;
    requiresShipping?: boolean | null;
    cost?: unknown;
    sku?: string | null;
    measurement?: { weight?: { value: number; unit: string } | null } | null;
  } | null;
  file?: FileInput | null;
  metafields?: unknown[] | null;
}

export interface ProductSetInput {
  id?: string | null;
  title?: string | null;
  handle?: string | null;
  descriptionHtml?: string | null;
  vendor?: string | null;
  productType?: string | null;
  status?: string | null;
  tags?: string[] | null;
  seo?: { title?: string | null; description?: string | null } | null;
  productOptions?: { name?: string | null; values?: { name?: string | null }[] | null }[] | null;
  variants?: VariantInput[] | null;
  files?: FileInput[] | null;
  metafields?: { namespace?: string | null; key?: string | null; type?: string | null; value?: string | null }[] | null;
  /** The custom collections the product belongs to: a list that is sent replaces its memberships. */
  collections?: string[] | null;
  /** Create only (GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED afterwards). */
  giftCard?: boolean | null;
  /** A TaxonomyCategory GID; null removes the product's category. */
  category?: string | null;
}

/** A new product's variants and media as its transaction wrote them (the answer needs no second read). */
export interface WrittenLists {
  variants: VariantRow[];
  media: MediaRow[];
}

export type ProductSetResult = { product: ProductRow; userErrors: []; written: WrittenLists | null } | { product: null; userErrors: UserError[] };

/** Thrown inside the transaction to roll it back with userErrors. */
class Rejected extends Error {
  constructor(readonly errors: UserError[]) {
    super('rejected');
  }
}

const DEFAULT_NAMESPACE = '$app';
const MONEY = /^-?\d{1,15}(\.\d{1,4})?$/;

/** `gid://shopify/Product/12` → 12 (null for another type or a malformed id). */
export function gidNumber(gid: unknown, type: string): number | null {
  if (typeof gid !== 'string') return null;
  const m = new RegExp(`^gid://shopify/${type}/(\\d{1,15})$`).exec(gid);
  return m ? Number(m[1]) : null;
}

/** Shopify's handle from a title: lower case, runs of anything but letters and digits become one dash. */
export function handleize(title: string): string {
  const h = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return h.slice(0, 255) || 'product';
}

const err = (field: string[] | null, message: string, code: string): UserError => ({ field, message, code });

/** Where media made from `originalSource` go once committed (SandboxMediaService: fetched, then READY or FAILED). */
export interface MediaIntake {
  accepted(ids: number[]): void;
}

export class SandboxProductService {
  constructor(
    private readonly db: Db,
    private readonly repo: SandboxProductRepository,
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

  /** Checks that need no database (run before the transaction). */
  private checkInput(args: ProductSetArgs): UserError[] {
    const { input, identifier } = args;
    const errors: UserError[] = [];
    if (identifier && input.id != null) errors.push(err(['input', 'id'], 'The id field is not allowed if identifier is provided.', 'ID_NOT_ALLOWED'));
    if (identifier) {
      const given = ['id', 'handle', 'customId'].filter((k) => (identifier as Record<string, unknown>)[k] != null);
      if (given.length !== 1) errors.push(err(['identifier'], 'Exactly one of id, handle or customId must be provided.', 'INVALID_INPUT'));
    }
    if (input.title !== undefined && input.title !== null && input.title.trim() === '')
      errors.push(err(['input', 'title'], "Title can't be blank", 'INVALID_INPUT'));
    if (input.status != null && !['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED'].includes(input.status))
      errors.push(err(['input', 'status'], 'Status is invalid', 'INVALID_INPUT'));
    // ProductSetInput.category: "The ID of the category that's associated with the product" (schema 2026-10). An id the
    // taxonomy lacks: ProductSetUserErrorCode has no code of its own for it, INVALID_INPUT (the message is the sandbox's).
    if (input.category != null && !(input.category.startsWith(TAXONOMY_GID_PREFIX) && taxonomyNode(input.category)))
      errors.push(err(['input', 'category'], `Category ${input.category} does not exist in the product taxonomy.`, 'INVALID_INPUT'));
    const options = input.productOptions ?? [];
    if (options.length > MAX_OPTIONS)
      errors.push(err(['input', 'productOptions'], `Options over limit: a product can have at most ${MAX_OPTIONS} options.`, 'OPTIONS_OVER_LIMIT'));
    const names = new Set<string>();
    options.forEach((o, i) => {
      const name = (o.name ?? '').trim();
      if (!name) errors.push(err(['input', 'productOptions', String(i), 'name'], 'Option name is required.', 'INVALID_INPUT'));
      if (names.has(name.toLowerCase()))
        errors.push(err(['input', 'productOptions', String(i), 'name'], `Duplicated option name '${name}'.`, 'DUPLICATED_OPTION_NAME'));
      names.add(name.toLowerCase());
      const seen = new Set<string>();
      (o.values ?? []).forEach((v, j) => {
        const value = (v.name ?? '').trim();
        if (seen.has(value.toLowerCase())) {
          errors.push(err(['input', 'productOptions', String(i), 'values', String(j)], `Duplicated option value '${value}'.`, 'DUPLICATED_OPTION_VALUE'));
        }
        seen.add(value.toLowerCase());
      });
      if (!(o.values ?? []).length)
        errors.push(err(['input', 'productOptions', String(i), 'values'], `Option '${name}' must have at least one value.`, 'OPTION_VALUES_MISSING'));
    });
    const variants = input.variants;
    if (variants && variants.length > MAX_VARIANTS)
      errors.push(err(['input', 'variants'], `Variants over limit: a product can have at most ${MAX_VARIANTS} variants.`, 'VARIANTS_OVER_LIMIT'));
    if (variants && variants.length > 0 && options.length === 0 && variants.some((v) => (v.optionValues ?? []).length > 0)) {
      errors.push(err(['input', 'productOptions'], 'Product options input is required when updating variants.', 'PRODUCT_OPTIONS_INPUT_MISSING'));
    }
    if (options.length > 0 && variants == null)
      errors.push(err(['input', 'variants'], 'Variants input is required when updating options.', 'VARIANTS_INPUT_MISSING'));
    if (errors.length || !variants) return errors;

    const combos = new Set<string>();
    variants.forEach((v, i) => {
      const at = (...rest: string[]) => ['input', 'variants', String(i), ...rest];
      for (const [key, value] of [
        ['price', v.price],
        ['compareAtPrice', v.compareAtPrice],
      ] as const) {
        if (value != null && !MONEY.test(String(value)))
          errors.push(err(at(key), `${key === 'price' ? 'Price' : 'Compare at price'} is invalid.`, 'INVALID_INPUT'));
      }
      const ov = v.optionValues ?? [];
      if (options.length && ov.length !== options.length) {
        errors.push(err(at('optionValues'), 'The variant must have exactly one value for each option.', 'INVALID_VARIANT'));
        return;
      }
      const chosen: string[] = [];
      for (const [k, value] of ov.entries()) {
        const option = options.find((o) => (o.name ?? '').trim().toLowerCase() === (value.optionName ?? '').trim().toLowerCase());
        if (!option) {
          errors.push(err(at('optionValues', String(k)), `Option '${value.optionName ?? ''}' does not exist.`, 'OPTION_DOES_NOT_EXIST'));
          continue;
        }
        if (!(option.values ?? []).some((x) => (x.name ?? '').trim() === (value.name ?? '').trim())) {
          errors.push(err(at('optionValues', String(k)), `Option value '${value.name ?? ''}' does not exist.`, 'OPTION_VALUE_DOES_NOT_EXIST'));
          continue;
        }
        chosen.push(`${(option.name ?? '').trim().toLowerCase()}=${(value.name ?? '').trim()}`);
      }
      const combo = chosen.sort().join('/');
      if (combos.has(combo)) errors.push(err(at('optionValues'), `The variant '${chosen.join(' / ') || 'Default Title'}' already exists.`, 'INVALID_VARIANT'));
      combos.add(combo);
      for (const [k, q] of (v.inventoryQuantities ?? []).entries()) {
        // schema 2026-10, ProductSetInventoryInput.name: "Must be one of `available` or `on_hand`" (the sandbox keeps one count).
        if (q.name !== 'available' && q.name !== 'on_hand')
          errors.push(
            err(at('inventoryQuantities', String(k), 'name'), `Inventory quantity name '${q.name}' must be one of available or on_hand.`, 'INVALID_INPUT'),
          );
      }
    });
    (input.files ?? []).forEach((f, i) => {
      if ((f.id == null) === (f.originalSource == null))
        errors.push(err(['input', 'files', String(i)], 'A file needs either an id or an originalSource.', 'INVALID_INPUT'));
    });
    (input.variants ?? []).forEach((v, i) => {
      if (v.file != null && (v.file.id == null) === (v.file.originalSource == null))
        errors.push(err(['input', 'variants', String(i), 'file'], 'A file needs either an id or an originalSource.', 'INVALID_INPUT'));
    });
    (input.metafields ?? []).forEach((m, i) => {
      if (!m.key || m.value == null || !m.type)
        errors.push(err(['input', 'metafields', String(i)], 'A metafield needs a key, a type and a value.', 'INVALID_METAFIELD'));
    });
    return errors;
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
    const rows = await this.repo.definitions(storeId, 'PRODUCT');
    this.definitionCache.set(storeId, rows);
    return rows;
  }

  forgetDefinitions(storeId: number): void {
    this.definitionCache.delete(storeId);
  }

  /** `variantThrottleLimit`: the store's VARIANT_THROTTLE_EXCEEDED threshold (sandbox_stores.variant_throttle_limit). */
  async productSet(storeId: number, args: ProductSetArgs, variantThrottleLimit: number | null = null): Promise<ProductSetResult> {
    const errors = this.checkInput(args);
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
          this.write(this.repo.with(tx), storeId, locations, definitions, args, variantThrottleLimit, new SandboxCollectionRepository(tx)),
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

  /** `added`: the ids of media made from `originalSource` (fetched after the commit); `written`: a new product's lists. */
  private async write(
    repo: SandboxProductRepository,
    storeId: number,
    locations: Set<number>,
    definitions: DefinitionRow[],
    args: ProductSetArgs,
    variantThrottleLimit: number | null,
    collectionRepo: SandboxCollectionRepository,
  ): Promise<{ product: ProductRow; written: WrittenLists | null; added: number[] }> {
    let newVariants: VariantRow[] = [];
    let newMedia: MediaRow[] = [];
    /** The variant of each entry of `input.variants`, in order. */
    let sentVariantIds: number[] = [];
    const { input, identifier } = args;
    const customId = identifier?.customId ?? null;
    const ns = customId ? (customId.namespace ?? DEFAULT_NAMESPACE) : null;

    // Find the target, serialising writers of the same identifier.
    let target: ProductRow | null = null;
    if (identifier?.id != null) {
      const id = gidNumber(identifier.id, 'Product');
      await repo.lock(`sandbox-product:${storeId}:id:${id}`);
      target = id === null ? null : await repo.product(storeId, id);
      if (!target) throw new Rejected([err(['identifier', 'id'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')]);
    } else if (identifier?.handle != null) {
      await repo.lock(`sandbox-product:${storeId}:handle:${identifier.handle}`);
      target = await repo.productByHandle(storeId, identifier.handle);
    } else if (customId) {
      const definition = definitions.find((d) => d.namespace === ns && d.key === customId.key);
      if (!definition?.uniqueValues) {
        throw new Rejected([
          err(
            ['identifier', 'customId'],
            `The metafield definition '${ns}.${customId.key}' must exist and have the unique values capability enabled.`,
            'INVALID_INPUT',
          ),
        ]);
      }
      await repo.lock(`sandbox-product:${storeId}:custom:${ns}.${customId.key}=${customId.value}`);
      target = await repo.productByMetafield(storeId, ns!, customId.key, customId.value);
    } else if (input.id != null) {
      const id = gidNumber(input.id, 'Product');
      target = id === null ? null : await repo.product(storeId, id);
      if (!target) throw new Rejected([err(['input', 'id'], 'Product does not exist', 'PRODUCT_DOES_NOT_EXIST')]);
    }
    if (target) await repo.lock(`sandbox-product:${storeId}:row:${target.id}`);

    // Collections, checked before anything is written: each id must be a collection of the store. ProductSetUserErrorCode
    // (schema 2026-10) has no code of its own for it: NOT_FOUND, "Resource matching the identifier was not found" (as for
    // an unknown location below).
    let collectionIds: number[] | null = null;
    if (input.collections != null) {
      const ids = input.collections.map((c) => gidNumber(c, 'Collection'));
      const known = await collectionRepo.existing(
        storeId,
        ids.filter((id): id is number => id !== null),
      );
      const missing = ids.flatMap((id, i) =>
        id === null || !known.has(id) ? [err(['input', 'collections', String(i)], 'Collection does not exist', 'NOT_FOUND')] : [],
      );
      if (missing.length) throw new Rejected(missing);
      collectionIds = [...new Set(ids as number[])];
    }

    // Product fields.
    const values: Partial<Parameters<SandboxProductRepository['insertProduct']>[1]> = {};
    if (input.title != null) values.title = input.title.trim();
    if (input.descriptionHtml != null) values.descriptionHtml = input.descriptionHtml;
    if (input.vendor != null) values.vendor = input.vendor;
    if (input.productType != null) values.productType = input.productType;
    if (input.status != null) values.status = input.status;
    if (input.tags != null)
      values.tags = [
        ...new Set(
          input.tags
            .flatMap((t) => t.split(','))
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ];
    if (input.seo != null)
      values.seo = { title: input.seo.title ?? target?.seo.title ?? null, description: input.seo.description ?? target?.seo.description ?? null };
    if (input.productOptions != null) {
      values.options = input.productOptions.map((o) => ({ name: (o.name ?? '').trim(), values: (o.values ?? []).map((v) => (v.name ?? '').trim()) }));
    }
    if (input.giftCard != null) {
      if (target && target.giftCard !== input.giftCard) {
        throw new Rejected([
          err(['input', 'giftCard'], 'The product gift_card attribute cannot be changed after creation.', 'GIFT_CARD_ATTRIBUTE_CANNOT_BE_CHANGED'),
        ]);
      }
      values.giftCard = input.giftCard;
    }
    if (input.category !== undefined) values.categoryId = input.category === null ? null : taxonomyNode(input.category)!.id;
    if (!target && !values.title) throw new Rejected([err(['input', 'title'], 'Title is required to create a product.', 'MISSING_FIELD_REQUIRED')]);

    // Handle: explicit (input.handle, or the identifier's handle for a create) must be free; derived ones get a suffix.
    const explicit = input.handle ?? (!target ? (identifier?.handle ?? null) : null);
    if (explicit != null && explicit !== target?.handle) {
      const handle = explicit.trim().toLowerCase();
      // "A handle can contain letters, hyphens (`-`), and numbers, but no spaces" (ProductSetInput.handle, 2026-10): letters
      // of any script, with their combining marks (हिन्दी).
      if (!/^[\p{L}\p{N}][\p{L}\p{M}\p{N}_-]*$/u.test(handle)) throw new Rejected([err(['input', 'handle'], 'Handle is invalid', 'INVALID_INPUT')]);
      // Equality only (the unique index), not handlesLike's scan of every `handle-N`: a bulk run of 10,000 creates.
      const holder = await repo.productByHandle(storeId, handle);
      if (holder && holder.id !== target?.id) {
        throw new Rejected([err(['input', 'handle'], `Handle '${handle}' already in use. Please provide a new handle.`, 'HANDLE_NOT_UNIQUE')]);
      }
      values.handle = handle;
    } else if (!target) {
      const base = handleize(values.title!);
      await repo.lock(`sandbox-product:${storeId}:handle:${base}`);
      const taken = await repo.handlesLike(storeId, base, null);
      let handle = base;
      for (let n = 1; taken.has(handle); n++) handle = `${base}-${n}`;
      values.handle = handle;
    }

    // A product whose variants carry no options has Shopify's single `Title` option.
    if ((input.variants != null || !target) && (values.options ?? target?.options ?? []).length === 0) {
      values.options = [{ name: 'Title', values: ['Default Title'] }];
    }

    const product = target
      ? await repo.updateProduct(target.id, values)
      : await repo.insertProduct(storeId, {
          handle: values.handle!,
          title: values.title!,
          descriptionHtml: values.descriptionHtml ?? '',
          vendor: values.vendor ?? '',
          productType: values.productType ?? '',
          status: values.status ?? 'ACTIVE',
          tags: values.tags ?? [],
          seo: values.seo ?? { title: null, description: null },
          options: values.options ?? [],
          giftCard: values.giftCard ?? false,
          categoryId: values.categoryId ?? null,
        });

    // Variants: the sent list replaces the product's; ids must be the product's own. Within a kept variant, "for all other
    // field types: updates only the included fields. Any omitted fields will remain unchanged" (schema 2026-10,
    // Mutation.productSet): a price, compare-at price, barcode, policy or inventory-item field not sent stays.
    if (input.variants != null || !target) {
      const existing = new Map((target ? await repo.variants(target.id, 0, 100_000) : []).map((v) => [v.id, v]));
      const sent = input.variants ?? [];
      const rows: (VariantValues & { id?: number })[] = [];
      for (const [i, v] of sent.entries()) {
        let id: number | undefined;
        if (v.id != null) {
          const n = gidNumber(v.id, 'ProductVariant');
          if (n === null || !existing.has(n)) throw new Rejected([err(['input', 'variants', String(i), 'id'], 'Variant does not exist', 'INVALID_VARIANT')]);
          id = n;
        }
        const before = id !== undefined ? existing.get(id) : undefined;
        const inventory: Record<string, number> = { ...(before?.inventory ?? {}) };
        for (const [k, q] of (v.inventoryQuantities ?? []).entries()) {
          const at = ['input', 'variants', String(i), 'inventoryQuantities', String(k), 'locationId'];
          const loc = gidNumber(q.locationId, 'Location');
          if (loc !== null && !locations.has(loc)) for (const l of await repo.locations(storeId, 0, 1000)) locations.add(l.id);
          if (loc === null || !locations.has(loc)) throw new Rejected([err(at, 'Location does not exist', 'NOT_FOUND')]);
          // schema 2026-10, ProductVariantSetInput.inventoryQuantities: "If you're updating an existing variant, then you
          // can only update the quantities at locations where the variant is already stocked" (inventoryActivate first;
          // an inactive level is not stocked). ProductSetUserErrorCode has no code of its own for it: INVALID_INPUT.
          if (before && !(String(loc) in before.inventory)) {
            throw new Rejected([err(at, `The variant is not stocked at location ${q.locationId}: activate its inventory item there first.`, 'INVALID_INPUT')]);
          }
          inventory[String(loc)] = q.quantity;
        }
        const order = product.options.map((o) => o.name.toLowerCase());
        const optionValues = (v.optionValues ?? [])
          .map((o) => ({
            optionName: product.options.find((p) => p.name.toLowerCase() === (o.optionName ?? '').trim().toLowerCase())?.name ?? '',
            name: (o.name ?? '').trim(),
          }))
          .sort((a, b) => order.indexOf(a.optionName.toLowerCase()) - order.indexOf(b.optionName.toLowerCase()));
        const item = v.inventoryItem;
        rows.push({
          id,
          // ProductVariantSetInput.sku, else InventoryItemInput.sku ("The SKU (stock keeping unit) of the inventory item").
          sku: v.sku !== undefined ? (v.sku ?? null) : item?.sku !== undefined ? (item.sku ?? null) : (before?.sku ?? null),
          price: v.price != null ? formatMoney(String(v.price)) : (before?.price ?? '0.00'),
          compareAtPrice:
            v.compareAtPrice !== undefined ? (v.compareAtPrice === null ? null : formatMoney(String(v.compareAtPrice))) : (before?.compareAtPrice ?? null),
          barcode: v.barcode !== undefined ? (v.barcode ?? null) : (before?.barcode ?? null),
          optionValues,
          inventory,
          position: i + 1,
          // ProductVariantSetInput.inventoryPolicy: "Defaults to `DENY`".
          inventoryPolicy: v.inventoryPolicy ?? before?.inventoryPolicy ?? 'DENY',
          // ProductVariant.taxable and InventoryItem.requiresShipping: true on a new variant (Shopify's defaults).
          taxable: v.taxable ?? before?.taxable ?? true,
          tracked: item?.tracked ?? before?.tracked ?? true,
          requiresShipping: item?.requiresShipping ?? before?.requiresShipping ?? true,
          // InventoryItemInput.cost: "Unit cost associated with the inventory item, the currency is the shop's default currency."
          unitCost: item && item.cost !== undefined ? (item.cost === null ? null : String(item.cost)) : (before?.unitCost ?? null),
          weight: item?.measurement?.weight !== undefined ? (item.measurement.weight ?? null) : (before?.weight ?? null),
        });
      }
      if (rows.length === 0) {
        rows.push({
          sku: null,
          price: '0.00',
          compareAtPrice: null,
          barcode: null,
          optionValues: [],
          inventory: {},
          position: 1,
          inventoryPolicy: 'DENY',
          taxable: true,
          tracked: true,
          requiresShipping: true,
          unitCost: null,
          weight: null,
        });
      }
      // "The following GraphQL Admin API types have an additional throttle that takes effect when a store has 50,000
      // product variants. After this threshold is reached, no more than 1,000 new variants can be created per day"
      // (https://shopify.dev/docs/api/usage/limits#resource-based-rate-limits): the sandbox refuses creating variants
      // past the store's configured count. VARIANT_THROTTLE_EXCEEDED is in no user-error enum of 2026-10
      // (ProductSetUserErrorCode lacks it): Shopify answers it as a top-level error on the field, with its message
      // below; nothing is written. The count is taken under a per-store lock, so that concurrent calls (bulk lines, five
      // bulk operations) cannot both pass it.
      const created = rows.filter((r) => r.id === undefined).length;
      if (variantThrottleLimit !== null && created > 0) {
        await repo.lock(`sandbox-variant-count:${storeId}`);
        if ((await repo.countStoreVariants(storeId)) + created > variantThrottleLimit) {
          throw new GraphQLError(
            'Daily variant creation limit reached. Please try again later. See https://help.shopify.com/api/getting-started/api-call-limit for more information about rate limits and how to avoid them.',
            { extensions: { code: 'VARIANT_THROTTLE_EXCEEDED' } },
          );
        }
      }
      newVariants = await repo.replaceVariants(product.id, rows, !target);
      sentVariantIds = sent.map((_, i) => rows[i].id ?? newVariants.find((n) => n.position === i + 1)!.id);
    }

    // Files: {id} keeps the product's own media, {originalSource} always adds one.
    if (input.files != null) {
      const own = new Set(target ? await repo.mediaIds(target.id) : []);
      const files = input.files.map((f, i) => {
        if (f.id != null) {
          const n = gidNumber(f.id, 'MediaImage') ?? gidNumber(f.id, 'Media');
          if (n === null || !own.has(n)) throw new Rejected([err(['input', 'files', String(i), 'id'], 'File does not exist', 'INVALID_INPUT')]);
          return { id: n, ...(f.alt !== undefined ? { alt: f.alt } : {}) };
        }
        // FileSetInput.filename: "If provided, then the file is created with the specified filename. If not provided,
        // then the filename from the `originalSource` is used" (schema 2026-10).
        return { originalSource: f.originalSource!, alt: f.alt ?? null, filename: f.filename?.trim() || sourceFilename(f.originalSource!) };
      });
      newMedia = await repo.replaceMedia(product.id, files, !target);
    }

    // Variant media: ProductVariantSetInput.file is "The file to associate with the variant. [...] Any file specified here
    // must also be specified in the `files` input for the product" (schema 2026-10). So the variant's file is one of the
    // product's media made or kept by this call's `files` (the same `id`, or the same `originalSource`: one upload, not
    // two); a file not in `files` is refused. A variant whose `file` is not sent keeps its media ("Any omitted fields
    // will remain unchanged", Mutation.productSet); `file: null` detaches it.
    const variantMedia: { id: number; mediaId: number | null }[] = [];
    for (const [i, v] of (input.variants ?? []).entries()) {
      if (v.file === undefined) continue;
      if (v.file === null) {
        variantMedia.push({ id: sentVariantIds[i], mediaId: null });
        continue;
      }
      const f = v.file;
      const j = (input.files ?? []).findIndex((x) =>
        f.id != null ? x.id != null && sameMediaId(x.id, f.id) : x.originalSource != null && x.originalSource === f.originalSource,
      );
      if (j < 0) {
        throw new Rejected([
          err(['input', 'variants', String(i), 'file'], 'The file must also be specified in the files input for the product.', 'INVALID_INPUT'),
        ]);
      }
      const sentFile = input.files![j];
      const mediaId =
        sentFile.id != null ? (gidNumber(sentFile.id, 'MediaImage') ?? gidNumber(sentFile.id, 'Media'))! : newMedia.find((m) => m.position === j + 1)!.id;
      variantMedia.push({ id: sentVariantIds[i], mediaId });
    }
    if (variantMedia.length) {
      await repo.setVariantMedia(product.id, variantMedia);
      for (const row of newVariants) {
        const set = variantMedia.find((x) => x.id === row.id);
        if (set) row.mediaId = set.mediaId;
      }
    }

    // Metafields: the sent list replaces the product's; the customId's metafield is always kept; unique values enforced.
    if (input.metafields != null || (customId && !target)) {
      const fields = (input.metafields ?? []).map((m) => ({ namespace: m.namespace ?? DEFAULT_NAMESPACE, key: m.key!, type: m.type!, value: m.value! }));
      if (customId && !fields.some((f) => f.namespace === ns && f.key === customId.key)) {
        const definition = definitions.find((d) => d.namespace === ns && d.key === customId.key);
        fields.push({ namespace: ns!, key: customId.key, type: definition?.type ?? 'single_line_text_field', value: customId.value });
      }
      // Each value must fit its type and, where the store has a definition, the definition's type and validations
      // (metafield-types.ts, with the shopify.dev pages): else INVALID_METAFIELD, "Metafield is not valid." (schema 2026-10).
      const invalid: UserError[] = [];
      for (const [i, f] of fields.entries()) {
        const definition = definitions.find((d) => d.namespace === f.namespace && d.key === f.key);
        const at = ['input', 'metafields', String(i), definition && definition.type !== f.type ? 'type' : 'value'];
        const problem =
          definition && definition.type !== f.type
            ? `Type '${f.type}' must be consistent with the definition's type: '${definition.type}'.`
            : metafieldValueProblem(f.type, f.value, definition?.validations ?? []);
        if (problem) invalid.push(err(at, `${f.namespace}.${f.key}: ${problem}`, 'INVALID_METAFIELD'));
      }
      if (invalid.length) throw new Rejected(invalid);
      const unique = definitions.filter((d) => d.uniqueValues);
      for (const [i, f] of fields.entries()) {
        if (!unique.some((d) => d.namespace === f.namespace && d.key === f.key)) continue;
        // A create by customId looked its value up under its lock and found no product: nobody else holds it.
        if (!target && customId && f.namespace === ns && f.key === customId.key && f.value === customId.value) continue;
        if (await repo.metafieldValueTaken(storeId, f.namespace, f.key, f.value, product.id)) {
          throw new Rejected([
            err(['input', 'metafields', String(i), 'value'], `Value '${f.value}' is already taken for ${f.namespace}.${f.key}.`, 'DUPLICATED_METAFIELD_VALUE'),
          ]);
        }
      }
      await repo.replaceMetafields(storeId, product.id, fields, !target);
    }

    // Collections: "For list fields: Creates new entries, updates existing entries, and deletes existing entries that aren't
    // included in the mutation's input. Common examples of list fields include collections, metafields, and variants"
    // (https://shopify.dev/docs/api/admin-graphql/latest/mutations/productSet): the product leaves the collections not
    // listed and joins the new ones at their end; not sent, its memberships stay.
    if (collectionIds !== null) await collectionRepo.setProductCollections(product.id, collectionIds, !target);

    const byPosition = <T extends { position: number }>(rows: T[]) => [...rows].sort((a, b) => a.position - b.position);
    return { product, written: target ? null : { variants: byPosition(newVariants), media: byPosition(newMedia) }, added: newMedia.map((m) => m.id) };
  }
}

/** Two media ids name the same media (`gid://shopify/MediaImage/7` and `gid://shopify/Media/7` alike). */
function sameMediaId(a: string, b: string): boolean {
  const n = (x: string) => gidNumber(x, 'MediaImage') ?? gidNumber(x, 'Media');
  return n(a) !== null && n(a) === n(b);
}

/** The last path segment of a source URL (`https://x/a/b.jpg?v=1` → `b.jpg`), or `file` when it has none. */
export function sourceFilename(source: string): string {
  try {
    const last = decodeURIComponent(new URL(source).pathname.split('/').pop() ?? '');
    return last.replace(/[^\w.-]+/g, '_').slice(0, 255) || 'file';
  } catch {
    return 'file';
  }
}

/** Shopify answers Money with two decimals at least (`10` → `10.00`, `9.5` → `9.50`, `1.2345` kept). */
export function formatMoney(value: string): string {
  const [int, frac = ''] = value.split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
}
