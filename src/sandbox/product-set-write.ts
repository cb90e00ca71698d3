// productSet's transaction, step by step (the semantics are in sandbox-product.service.ts's header): the product the
// identifier names, the collections checked, the product's fields and handle, then each list sent (variants in
// product-set-variants.ts, files, variant media, metafields, collections). A user error throws Rejected, which rolls the
// whole transaction back.
import { gidNumber, sameMediaId } from './gid.js';
import { metafieldValueProblem } from './metafield-types.js';
import {
  DEFAULT_NAMESPACE,
  err,
  type FileInput,
  type ProductSetArgs,
  type ProductSetInput,
  Rejected,
  type UserError,
  type WrittenLists,
} from './product-set-args.js';
import { writeVariants } from './product-set-variants.js';
import type { SandboxCollectionRepository } from './sandbox-collection.repository.js';
import type { DefinitionRow, SandboxMetafieldRepository } from './sandbox-metafield.repository.js';
import type { MediaRow, ProductRow, ProductValues, SandboxProductRepository, VariantRow } from './sandbox-product.repository.js';
import { handleize, sourceFilename } from './shopify-values.js';
import { taxonomyNode } from './taxonomy-data.js';

/** The repositories productSet writes through, each bound to its transaction. */
export interface ProductSetRepositories {
  products: SandboxProductRepository;
  metafields: SandboxMetafieldRepository;
  collections: SandboxCollectionRepository;
}

/** `added`: the ids of media made from `originalSource` (fetched after the commit); `written`: a new product's lists. */
export async function writeProductSet(
  repos: ProductSetRepositories,
  storeId: number,
  locations: Set<number>,
  definitions: DefinitionRow[],
  args: ProductSetArgs,
  variantThrottleLimit: number | null,
): Promise<{ product: ProductRow; written: WrittenLists | null; added: number[] }> {
  const { input } = args;
  const { products: repo, collections: collectionRepo } = repos;
  const target = await findTarget(repo, storeId, definitions, args);
  const collectionIds = await checkedCollections(collectionRepo, storeId, input);
  const values = productValues(input, target);
  await assignHandle(repo, storeId, args, target, values);
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
  const { newVariants, sentVariantIds } =
    input.variants != null || !target
      ? await writeVariants(repo, storeId, locations, input, product, target, variantThrottleLimit)
      : { newVariants: [] as VariantRow[], sentVariantIds: [] as number[] };
  const newMedia = input.files != null ? await writeFiles(repo, input.files, product, target) : [];
  await writeVariantMedia(repo, input, product, sentVariantIds, newMedia, newVariants);
  if (input.metafields != null || (args.identifier?.customId && !target)) await writeMetafields(repos.metafields, storeId, definitions, args, product, target);
  // Collections: "For list fields: Creates new entries, updates existing entries, and deletes existing entries that aren't
  // included in the mutation's input. Common examples of list fields include collections, metafields, and variants"
  // (https://shopify.dev/docs/api/admin-graphql/latest/mutations/productSet): the product leaves the collections not
  // listed and joins the new ones at their end; not sent, its memberships stay.
  if (collectionIds !== null) await collectionRepo.setProductCollections(product.id, collectionIds, !target);

  const byPosition = <T extends { position: number }>(rows: T[]) => [...rows].sort((a, b) => a.position - b.position);
  return { product, written: target ? null : { variants: byPosition(newVariants), media: byPosition(newMedia) }, added: newMedia.map((m) => m.id) };
}

/** The product the identifier (or `input.id`) names, null for a create; writers of the same identifier are serialised. */
async function findTarget(repo: SandboxProductRepository, storeId: number, definitions: DefinitionRow[], args: ProductSetArgs): Promise<ProductRow | null> {
  const { input, identifier } = args;
  const customId = identifier?.customId ?? null;
  const ns = customId ? (customId.namespace ?? DEFAULT_NAMESPACE) : null;
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
  return target;
}

/**
 * Collections, checked before anything is written: each id must be a collection of the store. ProductSetUserErrorCode
 * (schema 2026-10) has no code of its own for it: NOT_FOUND, "Resource matching the identifier was not found" (as for
 * an unknown location, product-set-variants.ts).
 */
async function checkedCollections(collectionRepo: SandboxCollectionRepository, storeId: number, input: ProductSetInput): Promise<number[] | null> {
  if (input.collections == null) return null;
  const ids = input.collections.map((c) => gidNumber(c, 'Collection'));
  const known = await collectionRepo.existing(
    storeId,
    ids.filter((id): id is number => id !== null),
  );
  const missing = ids.flatMap((id, i) =>
    id === null || !known.has(id) ? [err(['input', 'collections', String(i)], 'Collection does not exist', 'NOT_FOUND')] : [],
  );
  if (missing.length) throw new Rejected(missing);
  return [...new Set(ids as number[])];
}

/** The product's fields sent (a create needs a title; a gift card stays what it was made as). */
function productValues(input: ProductSetInput, target: ProductRow | null): Partial<ProductValues> {
  const values: Partial<ProductValues> = {};
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
  return values;
}

/** Handle: explicit (input.handle, or the identifier's handle for a create) must be free; derived ones get a suffix. */
async function assignHandle(
  repo: SandboxProductRepository,
  storeId: number,
  args: ProductSetArgs,
  target: ProductRow | null,
  values: Partial<ProductValues>,
): Promise<void> {
  const { input, identifier } = args;
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
}

/** Files: {id} keeps the product's own media, {originalSource} always adds one. */
async function writeFiles(repo: SandboxProductRepository, sent: FileInput[], product: ProductRow, target: ProductRow | null): Promise<MediaRow[]> {
  const own = new Set(target ? await repo.mediaIds(target.id) : []);
  const files = sent.map((f, i) => {
    if (f.id != null) {
      const n = gidNumber(f.id, 'MediaImage') ?? gidNumber(f.id, 'Media');
      if (n === null || !own.has(n)) throw new Rejected([err(['input', 'files', String(i), 'id'], 'File does not exist', 'INVALID_INPUT')]);
      return { id: n, ...(f.alt !== undefined ? { alt: f.alt } : {}) };
    }
    // FileSetInput.filename: "If provided, then the file is created with the specified filename. If not provided,
    // then the filename from the `originalSource` is used" (schema 2026-10).
    return { originalSource: f.originalSource!, alt: f.alt ?? null, filename: f.filename?.trim() || sourceFilename(f.originalSource!) };
  });
  return repo.replaceMedia(product.id, files, !target);
}

/**
 * Variant media: ProductVariantSetInput.file is "The file to associate with the variant. [...] Any file specified here
 * must also be specified in the `files` input for the product" (schema 2026-10). So the variant's file is one of the
 * product's media made or kept by this call's `files` (the same `id`, or the same `originalSource`: one upload, not
 * two); a file not in `files` is refused. A variant whose `file` is not sent keeps its media ("Any omitted fields
 * will remain unchanged", Mutation.productSet); `file: null` detaches it.
 */
async function writeVariantMedia(
  repo: SandboxProductRepository,
  input: ProductSetInput,
  product: ProductRow,
  sentVariantIds: number[],
  newMedia: MediaRow[],
  newVariants: VariantRow[],
): Promise<void> {
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
}

/** Metafields: the sent list replaces the product's; the customId's metafield is always kept; unique values enforced. */
async function writeMetafields(
  repo: SandboxMetafieldRepository,
  storeId: number,
  definitions: DefinitionRow[],
  args: ProductSetArgs,
  product: ProductRow,
  target: ProductRow | null,
): Promise<void> {
  const { input } = args;
  const customId = args.identifier?.customId ?? null;
  const ns = customId ? (customId.namespace ?? DEFAULT_NAMESPACE) : null;
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
