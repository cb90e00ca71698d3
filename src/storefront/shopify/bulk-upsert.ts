// Bulk upserts through Shopify's bulk mutations (../shared/notes/shopify.md, "Large syncs"): one JSONL line of
// productSet variables per item, in the items' order → stagedUploadsCreate → POST the file → bulkOperationRunMutation;
// then bulkOperation(id) until it finishes and the result file, streamed, mapped back to the items by `__lineNumber`.
// Identity is upsertProduct's (product-identity.ts): the mapped id, else the product found by our pim_product_id
// metafield (customId, or a search by its value), else a create — by customId where the shop has the unique
// definition, so the same items run twice never duplicate a product — with the PIM slug as its handle, exactly. The
// reads upsertProduct makes before a write (tags to merge, a product whose mapping was lost) are made here too, per
// item, before the file is built — except that from BULK_FIND_MIN products whose mapping has no storefront id one bulk
// query finds them all (ours-in-bulk.ts). A line refused HANDLE_NOT_UNIQUE costs one read of the holder after the operation,
// to name it in the product's error (handleTakenProblem), as upsertProduct does.
import { randomBytes } from 'node:crypto';
import type { BulkItemOutcome, BulkUpsertItem, BulkUpsertState } from '../port/bulk.js';
import { StorefrontError, StorefrontValidationError } from '../port/errors.js';
import type { StorefrontShop } from '../port/shop.js';
import type { ProductUpsertResult } from '../port/upsert-result.js';
import { afterProductSet } from './after-product-set.js';
import { ACTIVE_BULK_STATUSES, bulkOperationEnded, startBulkOperation } from './bulk-operation.js';
import { readJsonl, ResultLineTooLong, uploadStaged } from './bulk-transfer.js';
import {
  BulkOperationRunMutation,
  BulkOperationState,
  bulkTagged,
  ProductSetBulk,
  PublishablePublish,
  RecentBulkMutations,
  StagedUploadsCreate,
  type BulkOperationRunMutationData,
  type PublishableBulkLine,
  type BulkOperationStateData,
  type ProductSetBulkLine,
  type StagedUploadsCreateData,
} from './operations.js';
import { mapLimit } from '../../lib/map-limit.js';
import { preflight, userErrorLines } from './preflight.js';
import { upsertResultOf } from './product-set-result.js';
import { filesWillBeSent, needsMediaIds } from './product-media.js';
import { mapProduct, NOTHING_KNOWN } from './product-mapper.js';
import { pimTagsOf, sameCollections, sameTags } from './tags-metafields-collections.js';
import type { MappedProduct, ShopLocation, StorefrontTags } from './product-set-input.js';
import { metafieldsFingerprint } from './attribute-metafields.js';
import { customIdOf, handleOf, handleProblems, handleTakenProblem, identityOf } from './product-identity.js';
import { BULK_FIND_MIN, findOursInBulk } from './ours-in-bulk.js';
import { type Found, tagsOf } from './product-reads.js';
import type { ProductUpserter } from './product-upserter.js';
import type { IdentifierMode } from './metafield-definitions.js';
import type { ShopifyClient } from './shopify-client.js';

/** Shopify's limit for a bulk mutation variables file. */
export const MAX_BULK_FILE_BYTES = 100 * 1024 * 1024;
/** Items whose reads before the write run at once (each read goes through the shop's throttle). */
const READ_CONCURRENCY = 4;

type Method = ProductUpsertResult['method'];

/** Operations whose per-line create/update this process remembers (the result file cannot tell them apart exactly). */
const REMEMBERED_OPERATIONS = 64;

export class ShopifyBulkUpserts {
  /** What each line of an operation started here did: productSet by {id} is an update, by customId/handle a create. */
  private readonly methods = new Map<string, Method[]>();

  constructor(
    private readonly client: ShopifyClient,
    /** Its reads, attribute metafields and taxonomy, so both paths find, merge and recover alike. */
    private readonly upserter: ProductUpserter,
  ) {}

  async start(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ operationId: string }> {
    if (items.length === 0) throw new StorefrontValidationError(['a bulk upsert needs at least one item']);
    // Up to five bulk mutations run at once per shop from 2026-01 (a sixth is refused with LIMIT_REACHED, see run()).
    const built = await this.lines(shop, items);
    const file = Buffer.from(`${built.map((b) => b.line).join('\n')}\n`, 'utf8');
    if (file.length > MAX_BULK_FILE_BYTES)
      throw new StorefrontValidationError([`the bulk file is ${file.length} bytes, over Shopify's 100 MB: send fewer items at once`]);
    const path = await this.stage(shop, file);
    const operationId = await this.run(shop, path, bulkTagged(ProductSetBulk, randomBytes(8).toString('hex')));
    this.methods.set(
      operationId,
      built.map((b) => b.method),
    );
    if (this.methods.size > REMEMBERED_OPERATIONS) this.methods.delete(this.methods.keys().next().value!);
    return { operationId };
  }

  async state(shop: StorefrontShop, operationId: string, items: BulkUpsertItem[]): Promise<BulkUpsertState> {
    const data = await this.client.call<BulkOperationStateData>(shop, BulkOperationState, { id: operationId }, 2);
    const op = data.bulkOperation;
    if (!op) return { state: 'failed', message: `${shop.domain} knows no bulk operation ${operationId}` };
    if (ACTIVE_BULK_STATUSES.has(op.status)) return { state: 'running', objectCount: Number(op.objectCount) || 0 };
    if (op.status !== 'COMPLETED')
      return { state: 'failed', message: `bulk operation ${op.id} ${op.status.toLowerCase()}${op.errorCode ? ` (${op.errorCode})` : ''}` };

    const lines: (ProductSetBulkLine | undefined)[] = new Array(items.length);
    if (op.url) {
      try {
        await readJsonl(
          op.url,
          (value) => {
            const line = value as ProductSetBulkLine;
            const n = line?.__lineNumber;
            if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < items.length) lines[n] = line;
          },
          { apiBaseUrl: shop.apiBaseUrl, timeoutMs: this.client.transferTimeoutMs },
        );
      } catch (err) {
        if (err instanceof ResultLineTooLong) return { state: 'failed', message: `bulk operation ${op.id}: ${err.message}` };
        throw err;
      }
    }
    const methods = this.methods.get(operationId);
    const stepped = await mapLimit(
      items.map((item, i) => ({ item, i })),
      READ_CONCURRENCY,
      async ({ item, i }) => {
        const parsed = outcome(item, lines[i], methods?.[i] ?? guessMethod(item, lines[i], op.createdAt));
        if (!parsed.ok) return lines[i] && handleRefused(lines[i]) ? this.handleTaken(shop, item, lines[i]) : parsed;
        // A create's handle as Shopify answers it (the line sent the slug when the item had no storefront product).
        const sent = methods?.[i] === 'create' && !item.known.productId ? handleOf(item.product) : undefined;
        const problems = [...parsed.mediaProblems, ...handleProblems(sent, parsed.result.handle)];
        const { product, placement, known } = item;
        const done = { product, placement, known, mapped: parsed.mapped, base: parsed.result, mediaProblems: problems, deferPublish: true };
        return { ok: true as const, ...(await afterProductSet(this.client, shop, done)) };
      },
    );
    return { state: 'completed', outcomes: await this.publish(shop, stepped) };
  }

  /**
   * The batch's publications to add, in one bulk mutation of publishablePublish lines rather than one call per product:
   * bulk lines are not charged against the shop's rate-limit budget, which one publish call per product (10 points)
   * would otherwise bound to 10 products a second. Publishing is idempotent, so a job that dies meanwhile and reads the
   * productSet result again simply publishes again. A line the shop refuses is that product's problem.
   */
  private async publish(
    shop: StorefrontShop,
    stepped: ({ ok: false; errors: string[] } | { ok: true; result: ProductUpsertResult; toPublish: string[] })[],
  ): Promise<BulkItemOutcome[]> {
    const wanted = stepped.flatMap((s, i) => (s.ok && s.toPublish.length > 0 ? [{ i, productId: s.result.productId, publicationIds: s.toPublish }] : []));
    const refused = new Map<number, string>();
    if (wanted.length > 0) {
      const file = Buffer.from(
        `${wanted.map((w) => JSON.stringify({ id: w.productId, input: w.publicationIds.map((publicationId) => ({ publicationId })) })).join('\n')}\n`,
        'utf8',
      );
      const operationId = await this.run(shop, await this.stage(shop, file), bulkTagged(PublishablePublish, randomBytes(8).toString('hex')));
      const op = await bulkOperationEnded(this.client, shop, operationId);
      const answered = new Set<number>();
      let unreadable: string | null = null;
      if (op.status === 'COMPLETED' && op.url) {
        await readJsonl(
          op.url,
          (value) => {
            const line = value as PublishableBulkLine;
            const n = line?.__lineNumber;
            if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= wanted.length) return;
            answered.add(n);
            const errors = [
              ...(line.errors ?? []).map((e) => String(e?.message ?? 'error')),
              ...(line.data?.publishablePublish?.userErrors ?? []).map((e) => e.message),
            ];
            if (errors.length > 0) refused.set(wanted[n].i, `publish: the shop refused to publish the product: ${errors.join('; ')}`);
          },
          { apiBaseUrl: shop.apiBaseUrl, timeoutMs: this.client.transferTimeoutMs },
        ).catch((err: unknown) => {
          if (!(err instanceof ResultLineTooLong)) throw err;
          unreadable = err.message;
        });
      }
      const why =
        unreadable ??
        (op.status === 'COMPLETED'
          ? 'the bulk publish answered no result for it'
          : `the bulk publish ${op.status.toLowerCase()}${op.errorCode ? ` (${op.errorCode})` : ''}`);
      for (const [n, w] of wanted.entries()) if (!answered.has(n)) refused.set(w.i, `publish: ${why}`);
    }
    return stepped.map((s, i): BulkItemOutcome => {
      if (!s.ok) return s;
      const { result, toPublish } = s;
      const problem = refused.get(i);
      if (problem) return { ok: true, result: { ...result, problems: [...result.problems, problem] } };
      return { ok: true, result: { ...result, publications: [...new Set([...result.publications, ...toPublish])] } };
    });
  }

  /** A create refused its handle (HANDLE_NOT_UNIQUE): the product's error names the holder, read once. */
  private async handleTaken(shop: StorefrontShop, item: BulkUpsertItem, line: ProductSetBulkLine): Promise<{ ok: false; errors: string[] }> {
    const handle = handleOf(item.product);
    const holder = await this.upserter.reads.lookup(shop, { handle });
    const others = (line.data?.productSet?.userErrors ?? []).filter((e) => e.code !== 'HANDLE_NOT_UNIQUE');
    return { ok: false, errors: [handleTakenProblem(handle, holder && identityOf(holder), item.product.id), ...userErrorLines(others)] };
  }

  /** One JSONL line per item, in order (reads before writes as upsertProduct makes them, a few at a time). */
  private async lines(shop: StorefrontShop, items: BulkUpsertItem[]): Promise<{ line: string; method: Method }[]> {
    const mode = items.some((i) => !i.known.productId) ? await this.client.identifierMode(shop) : 'customId';
    const locations = await this.client.locations(shop);
    // Products an earlier run may have made without a mapping saying so: many are found in one bulk query, not each.
    const searched = items.filter((i) => !i.known.productId && !i.known.neverPushed).map((i) => i.product.id);
    const ours = searched.length >= BULK_FIND_MIN ? await findOursInBulk(this.client, shop, new Set(searched)) : null;
    const out: { line: string; method: Method }[] = new Array(items.length);
    const problems: string[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < items.length; i = next++) {
        const line = await this.line(shop, items[i], mode, locations, ours);
        if ('line' in line) out[i] = line;
        else problems.push(...line.problems.map((p) => `product ${items[i].product.id}: ${p}`));
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, items.length) }, worker));
    // The port says every item passed pre-flight: one that does not now is the caller's mistake, refused as a whole.
    if (problems.length) throw new StorefrontValidationError(problems);
    return out;
  }

  private async line(
    shop: StorefrontShop,
    item: BulkUpsertItem,
    mode: IdentifierMode,
    locations: ShopLocation[],
    /** Our products found in bulk for the items without a storefront id (null: look each up). */
    ours: Map<number, Found> | null,
  ): Promise<{ line: string; method: Method } | { problems: string[] }> {
    const { product, known } = item;
    const pimTags = pimTagsOf(product);
    // Images sent earlier without their ids, and the list changed: read the product's media before sending files. Files
    // to send at all: read the product's media, so the merchant's go back in the list (upsertProduct does the same).
    const wantMedia = needsMediaIds(known, product);
    const wantFiles = filesWillBeSent(known, product);
    // A value that does not fit is sent: the shop refuses that line.
    const attributes = await this.upserter.attributeMetafieldsOf(shop, product, item.placement.attributeMetafields ?? [], { keepInvalid: true });
    let category: string | undefined;
    try {
      category = await this.upserter.taxonomy.resolve(shop, product.taxonomy_category);
    } catch (err) {
      if (err instanceof StorefrontValidationError) return { problems: err.errors };
      throw err;
    }
    const keepTagsAndMetafields =
      !wantMedia &&
      !wantFiles &&
      known.productId !== null &&
      sameTags(known.owned?.tags, pimTags) &&
      known.owned?.attributeMetafields === metafieldsFingerprint(attributes) &&
      sameCollections(known, product, item.placement);
    let effective = known;
    let current: StorefrontTags | null = null;
    let handle: string | undefined;
    /** Undefined: a plain create (no unique definition for customId). */
    let identifier: Record<string, unknown> | undefined;
    if (keepTagsAndMetafields) {
      identifier = { id: known.productId };
    } else {
      const byId = known.productId ? await this.upserter.reads.lookup(shop, { id: known.productId }, { recover: wantMedia, media: wantFiles }) : null;
      if (byId) {
        current = tagsOf(byId);
        identifier = { id: byId.id };
        if (wantMedia) effective = { ...known, mediaIds: (await this.upserter.reads.recovered(shop, byId, product, known)).mediaIds, imagesUnconfirmed: [] };
      } else {
        const found = known.neverPushed
          ? null
          : ours && !known.productId
            ? (ours.get(product.id) ?? null)
            : await this.upserter.reads.findOurs(shop, product.id, mode);
        if (found) {
          current = tagsOf(found);
          effective = await this.upserter.reads.recovered(shop, found, product);
          identifier = { id: found.id };
        } else {
          effective = NOTHING_KNOWN;
          identifier = mode === 'customId' ? customIdOf(product.id) : undefined;
          handle = handleOf(product);
        }
      }
    }
    const { input, merchantVariants } = mapProduct(product, effective, {
      locations,
      placement: item.placement,
      current,
      handle,
      keepTagsAndMetafields,
      attributeMetafields: attributes,
      category,
    });
    const rules = await this.client.rules(shop, item.placement);
    const problems = [...preflight(product, input, rules.limits, rules.currency), ...merchantVariants.refused];
    if (problems.length) return { problems };
    const variants = Math.min(250, Math.max(1, input.variants.length));
    return { line: JSON.stringify({ identifier, input, variants }), method: identifier && 'id' in identifier ? 'update' : 'create' };
  }

  /** A staged target for the file, and the file posted to it; returns the stagedUploadPath (the `key` parameter). */
  private async stage(shop: StorefrontShop, file: Buffer): Promise<string> {
    const filename = 'pimbridge-bulk.jsonl';
    const data = await this.client.call<StagedUploadsCreateData>(
      shop,
      StagedUploadsCreate,
      { input: [{ resource: 'BULK_MUTATION_VARIABLES', filename, mimeType: 'text/jsonl', httpMethod: 'POST' }] },
      13,
    );
    const payload = data.stagedUploadsCreate;
    if (payload?.userErrors.length)
      throw new StorefrontError('invalid_response', `${shop.domain} refused the staged upload: ${payload.userErrors.map((e) => e.message).join('; ')}`);
    const target = payload?.stagedTargets?.[0];
    const key = target?.parameters.find((p) => p.name === 'key')?.value;
    if (!target || !key) throw new StorefrontError('invalid_response', `${shop.domain} answered stagedUploadsCreate without a target and key`);
    // Posting the same file again is harmless: transient failures are retried like any call.
    for (let failures = 0; ; ) {
      try {
        await uploadStaged(
          target.url,
          target.parameters,
          { filename, contentType: 'text/jsonl', content: file },
          { apiBaseUrl: shop.apiBaseUrl, timeoutMs: this.client.transferTimeoutMs },
        );
        return key;
      } catch (err) {
        if (!(err instanceof StorefrontError) || err.kind !== 'unavailable' || ++failures >= this.client.throttle.policy.maxAttempts) throw err;
        await this.client.throttle.backoff(failures);
      }
    }
  }

  /** bulkOperationRunMutation of `mutation`, a document no other start uses (bulkTagged); see startBulkOperation. */
  private run(shop: StorefrontShop, stagedUploadPath: string, mutation: string): Promise<string> {
    return startBulkOperation<BulkOperationRunMutationData>(this.client, shop, {
      what: 'mutation',
      document: BulkOperationRunMutation,
      variables: { mutation, stagedUploadPath },
      payload: (data) => data.bulkOperationRunMutation,
      tagged: mutation,
      recent: RecentBulkMutations,
    });
  }
}

/** Whether a result line is a create refused because its handle is taken. */
function handleRefused(line: ProductSetBulkLine): boolean {
  return (line.data?.productSet?.userErrors ?? []).some((e) => e.code === 'HANDLE_NOT_UNIQUE');
}

/**
 * Create or update, for an operation this process did not start (a restart between start and state): the mapped
 * product is an update, a never-pushed one a create (as upsertProduct counts them); otherwise a product created before
 * the operation is an update (DateTime has whole seconds: one made in the same second counts as a create).
 */
function guessMethod(item: BulkUpsertItem, line: ProductSetBulkLine | undefined, operationCreatedAt: string): Method {
  const p = line?.data?.productSet?.product;
  if (item.known.productId && p?.id === item.known.productId) return 'update';
  if (item.known.neverPushed || !p?.createdAt) return 'create';
  return Date.parse(p.createdAt) < Date.parse(operationCreatedAt) ? 'update' : 'create';
}

/**
 * One item's result line, parsed as upsertProduct parses productSet's answer: variant ids by SKU. The line selects no
 * media (one connection per bulk mutation): images the mapping knew by id keep it, the others are on the product
 * unconfirmed (a per-call push reads their ids; a failed one is reported and sent again then).
 */
function outcome(
  item: BulkUpsertItem,
  line: ProductSetBulkLine | undefined,
  method: Method,
): { ok: false; errors: string[] } | { ok: true; result: ProductUpsertResult; mapped: MappedProduct; mediaProblems: string[] } {
  if (!line) return { ok: false, errors: ['no result'] };
  if (line.errors?.length) return { ok: false, errors: line.errors.map((e) => String(e?.message ?? 'error')) };
  const payload = line.data?.productSet;
  if (!payload) return { ok: false, errors: ['no result'] };
  if (payload.userErrors.length) return { ok: false, errors: userErrorLines(payload.userErrors) };
  const p = payload.product;
  if (!p || typeof p.id !== 'string') return { ok: false, errors: ['the result has no product'] };

  // The line was built from what the mapping knew (or recovered): the variants it created are those without a known id.
  const mapped = mapProduct(item.product, item.known, { locations: [], placement: item.placement, current: null });
  const mediaIds = Object.fromEntries(mapped.imageUrls.flatMap((url) => (item.known.mediaIds[url] ? [[url, item.known.mediaIds[url]]] : [])));
  const imagesUnconfirmed = mapped.imageUrls.filter((url) => !mediaIds[url]);
  const result = upsertResultOf(p, {
    method,
    mediaIds,
    imagesUnconfirmed,
    variantCount: mapped.input.variants.length,
    imageCount: mapped.imageUrls.length,
    keys: mapped.variantKeys,
  });
  return { ok: true, result, mapped, mediaProblems: [] };
}
