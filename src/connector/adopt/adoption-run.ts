// One run of an adoption's catalogue.adopt job: both catalogues read (the shop's bulk query started or followed, the
// PIM's pages), matched, linked as pending mappings, and with `import_unmatched` the shop's unmatched products imported
// into the PIM and linked too.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProductDraft } from '../../catalogue-csv/draft.js';
import type { StorefrontCatalogueProduct } from '../../storefront/port/catalogue.js';
import { StorefrontError, tokenRefused } from '../../storefront/port/errors.js';
import type { StorefrontShop } from '../../storefront/port/shop.js';
import type { AdoptedMapping } from '../mappings/mapping-writes.js';
import type { PimClient } from '../pim/pim-client.js';
import { PimReadError } from '../pim/pim-http.js';
import { CatalogueReadFailed, POLL_FAILURES, readShopCatalogue } from '../storefront-operations.js';
import type { AdoptionDeps, AdoptionOptions } from './adoption.deps.js';
import type { AdoptionCounts, AdoptionPhase, AdoptionRow } from './adoption.repository.js';
import { matchCatalogues, MATCH_RULES, variantLinks, type Match, type MatchRule, type PimCatalogueEntry, type UnmatchedShopProduct } from './matching.js';
import { draftSkus, isSimple, shopProductDraft } from './shop-drafts.js';
import type { PimConnection, UnmatchedImporter } from './unmatched-import.js';

/** An unmatched shop product as the answer lists it. */
export interface UnmatchedShopItem {
  storefront_product_id: number;
  handle: string;
  title: string;
  skus: string[];
  reason: string;
}

/** An unmatched PIM product as the answer lists it. */
export interface UnmatchedPimItem {
  pim_product_id: number;
  sku: string;
  name: string;
  slug: string | null;
}

/** A failure of the adoption as a whole that retrying will not mend (refused credentials, a refused token). */
export class AdoptionFailure extends Error {}

/** One run of an adoption's job. */
export class AdoptionRun {
  private lastProgress = 0;

  constructor(
    private readonly service: { readonly options: Readonly<AdoptionOptions>; readonly clock: () => Date },
    private readonly deps: AdoptionDeps,
    private row: AdoptionRow,
    private readonly conn: PimConnection,
    private readonly shop: StorefrontShop,
    private readonly signal?: AbortSignal,
  ) {}

  private get options(): Readonly<AdoptionOptions> {
    return this.service.options;
  }

  async run(): Promise<void> {
    const { repo } = this.deps;
    const shopProducts = await this.readShop();
    const pimProducts = await this.readPim(0);
    const maxPimId = pimProducts.reduce((m, p) => Math.max(m, p.id), 0);

    await this.progress('matching', 0, null, true);
    const existing = await this.deps.mappings.links(this.row.integrationId);
    const result = matchCatalogues(shopProducts, pimProducts, existing, this.row.id);
    // Products an earlier try of this job imported are linked again here: they still count as imported.
    const importedBefore = new Set(existing.filter((l) => l.adoptionId === this.row.id && l.matchedBy === 'imported').map((l) => l.pimProductId));
    const matches = result.matches.filter((m) => !importedBefore.has(m.pim.id));
    await this.link(matches, 'matching');
    const matchedBy = Object.fromEntries([...MATCH_RULES, 'imported'].map((r) => [r, 0])) as Record<MatchRule | 'imported', number>;
    for (const m of matches) matchedBy[m.rule]++;
    matchedBy.imported = result.matches.length - matches.length;
    const counts: AdoptionCounts = {
      shopProducts: shopProducts.length,
      pimProducts: pimProducts.filter((p) => p.status !== 'archived' && !importedBefore.has(p.id)).length,
      matched: matches.length,
      matchedBy,
      alreadyMapped: result.alreadyMapped,
      unmatchedShop: result.unmatchedShop.length,
      unmatchedPim: result.unmatchedPim.length,
      imported: matchedBy.imported,
    };
    let unmatchedShop = result.unmatchedShop;
    await this.saveResult(counts, unmatchedShop, result.unmatchedPim);

    if (this.row.importUnmatched && unmatchedShop.length > 0) {
      const imported = await this.importUnmatched(unmatchedShop, pimProducts, maxPimId);
      const importedIds = new Set(imported.map((m) => m.shop.id));
      unmatchedShop = unmatchedShop.filter((u) => !importedIds.has(u.shop.id));
      counts.imported += imported.length;
      counts.matchedBy.imported += imported.length;
      counts.unmatchedShop = unmatchedShop.length;
      await this.saveResult(counts, unmatchedShop, result.unmatchedPim);
    }
    await repo.complete(this.row.id, this.service.clock());
  }

  private async saveResult(counts: AdoptionCounts, shop: UnmatchedShopProduct[], pim: PimCatalogueEntry[]): Promise<void> {
    const cap = this.options.listCap;
    await this.deps.repo.saveResult(
      this.row.id,
      counts,
      {
        shop: shop.slice(0, cap).map(
          (u): UnmatchedShopItem => ({
            storefront_product_id: u.shop.numericId,
            handle: u.shop.handle,
            title: u.shop.title,
            skus: u.shop.variants.flatMap((v) => (v.sku ? [v.sku] : [])),
            reason: u.reason,
          }),
        ),
        pim: pim.slice(0, cap).map((p): UnmatchedPimItem => ({ pim_product_id: p.id, sku: p.sku, name: p.name, slug: p.slug ?? null })),
      },
      this.service.clock(),
    );
  }

  /** Phase and progress (written at most twice a second unless `force`). */
  private async progress(phase: AdoptionPhase, done: number, total: number | null, force = false): Promise<void> {
    if (!force && Date.now() - this.lastProgress < 500) return;
    this.lastProgress = Date.now();
    await this.deps.repo.setProgress(this.row.id, phase, done, total, this.service.clock());
  }

  /** The shop's products, from its bulk query (started, or the recorded one followed). */
  private async readShop(): Promise<StorefrontCatalogueProduct[]> {
    await this.progress('reading_shop', 0, null, true);
    const products = await this.storefrontCall(() =>
      readShopCatalogue({
        storefront: this.deps.storefront,
        shop: this.shop,
        operationId: this.row.operationId,
        saveOperation: async (operationId) => {
          await this.deps.repo.setOperation(this.row.id, operationId, this.service.clock());
          this.row = { ...this.row, operationId };
        },
        attempts: this.options.readAttempts,
        pollMs: this.options.pollMs,
        busyRetryMs: this.options.busyRetryMs,
        signal: this.signal,
        onProgress: (objects) => this.progress('reading_shop', objects, null),
      }),
    );
    await this.progress('reading_shop', products.length, products.length, true);
    return products;
  }

  /** A storefront call whose refused token fails the adoption for good (a retry cannot mend it). */
  private async storefrontCall<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (tokenRefused(err)) throw new AdoptionFailure(`The storefront refused the shop's access token: ${err.message}`);
      if (err instanceof CatalogueReadFailed) throw new AdoptionFailure(err.message);
      throw err;
    }
  }

  /** The PIM's products after `afterId`, by id, in keyset pages with their variants. */
  private async readPim(afterId: number, phase: AdoptionPhase = 'reading_pim'): Promise<PimCatalogueEntry[]> {
    const { pageSize } = this.options;
    const out: PimCatalogueEntry[] = [];
    let total: number | null = null;
    await this.progress(phase, 0, null, true);
    for (let cursor = afterId; ; ) {
      this.signal?.throwIfAborted();
      let page: Awaited<ReturnType<PimClient['productPage']>>;
      try {
        page = await this.deps.pim.productPage(this.conn, { afterId: cursor, limit: pageSize, include: 'variants' });
      } catch (err) {
        if (err instanceof PimReadError && err.kind === 'unauthorized') throw new AdoptionFailure("The PIM refused the integration's credentials");
        throw err;
      }
      total ??= page.total;
      for (const p of page.products) {
        out.push({
          id: p.id,
          sku: p.sku,
          slug: p.slug,
          name: p.name,
          ean: p.ean ?? null,
          status: p.status,
          variants: (p.variants ?? []).map((v) => ({ sku: v.sku, attributes: v.attributes ?? [] })),
          images: Array.isArray(p.images) ? p.images : [],
        });
      }
      await this.progress(phase, out.length, Math.max(total, out.length));
      const last = page.products.at(-1)?.id;
      if (page.products.length < pageSize || last === undefined) break;
      cursor = last;
    }
    return out;
  }

  /** Writes the links in batches (one statement each); a PIM product mapped meanwhile keeps its mapping. */
  private async link(matches: Match[], phase: AdoptionPhase): Promise<void> {
    const { mappingBatch } = this.options;
    const at = this.service.clock();
    for (let i = 0; i < matches.length; i += mappingBatch) {
      const rows = matches.slice(i, i + mappingBatch).map((m) => this.mappingOf(m));
      await this.deps.mappings.insertAdopted(this.row.integrationId, rows, at);
      await this.progress(phase, Math.min(i + mappingBatch, matches.length), matches.length);
    }
    await this.progress(phase, matches.length, matches.length, true);
  }

  /** The mapping of one link: the storefront ids the next push updates (KnownStorefrontProduct). */
  private mappingOf(m: Match, mediaIds: Record<string, string> = {}): AdoptedMapping {
    const { variantIds, inventoryItemIds } = variantLinks(m.shop, m.pim);
    // The shop's variants no PIM variant is linked to: the merchant's, kept by the pushes (never deleted unasked). Not
    // the default variant of a product without options: the PIM's variants take its place as they would in Shopify.
    const linked = new Set(Object.values(variantIds));
    const merchantVariants = isSimple(m.shop)
      ? []
      : m.shop.variants.filter((v) => !linked.has(v.id)).map((v) => ({ id: v.id, sku: v.sku, options: v.options }));
    const firstVariant = m.shop.variants[0]?.id;
    return {
      pimProductId: m.pim.id,
      storefrontProductId: m.shop.numericId,
      storefrontVariantId: firstVariant ? Number(firstVariant.split('/').pop()) || null : null,
      metadata: {
        storefront_handle: m.shop.handle,
        storefront_title: m.shop.title,
        variant_count: m.shop.variants.length,
        image_count: m.shop.images.length,
        adopted_by: this.row.id,
        matched_by: m.rule,
      },
      // No category tags, publications or stock of ours yet: the first push reads the product (keeping the
      // merchant's tags and metafields) and sets the PIM's quantities and channels as on a first push.
      state: { productId: m.shop.id, variantIds, mediaIds, inventoryItemIds, ...(merchantVariants.length > 0 ? { merchantVariants } : {}) },
    };
  }

  /**
   * The shop's unmatched products made PIM products through one catalogue import, then linked: the import is
   * recorded before it is waited on; the new products are read after the PIM's last id before it and matched to the
   * drafts by SKU. A product whose SKU, handle or barcode the PIM has already is left out (the import would change
   * that PIM product instead of making one).
   */
  private async importUnmatched(unmatched: UnmatchedShopProduct[], pimProducts: PimCatalogueEntry[], maxPimId: number): Promise<Match[]> {
    const { repo } = this.deps;
    const importer = this.deps.importer;
    if (!importer) throw new AdoptionFailure('import_unmatched is not available on this server');
    const takenSkus = new Set(pimProducts.flatMap((p) => [p.sku, ...p.variants.map((v) => v.sku)].map((s) => s.trim())));
    const takenSlugs = new Set(pimProducts.flatMap((p) => (p.slug ? [p.slug.toLowerCase()] : [])));
    const takenEans = new Set(pimProducts.flatMap((p) => (p.ean ? [p.ean] : [])));
    const currency = await this.shopCurrency();
    const drafts: { shop: StorefrontCatalogueProduct; draft: ProductDraft }[] = [];
    let line = 2;
    for (const u of unmatched) {
      const skus = draftSkus(u.shop);
      const all = [skus.productSku, ...skus.variants.map((v) => v.sku)];
      if (all.some((s) => takenSkus.has(s)) || takenSlugs.has(u.shop.handle.toLowerCase())) continue;
      for (const s of all) takenSkus.add(s);
      takenSlugs.add(u.shop.handle.toLowerCase());
      const draft = shopProductDraft(u.shop, line, currency);
      if (draft.fields.ean && takenEans.has(draft.fields.ean)) delete draft.fields.ean;
      if (draft.fields.ean) takenEans.add(draft.fields.ean);
      line += draft.lines.length;
      drafts.push({ shop: u.shop, draft });
    }
    if (drafts.length === 0) return [];

    await this.progress('importing', 0, drafts.length, true);
    let importId = this.row.importId;
    if (!importId) {
      try {
        importId = await importer.start(
          this.conn,
          drafts.map((d) => d.draft),
        );
      } catch (err) {
        if (err instanceof PimReadError && err.kind === 'unauthorized') throw new AdoptionFailure("The PIM refused the integration's credentials");
        throw err;
      }
      await repo.setImport(this.row.id, importId, this.service.clock());
      this.row = { ...this.row, importId };
    }
    const { first, max } = this.options.pollMs;
    let failures = 0;
    for (let wait = first; ; wait = Math.min(Math.round(wait * 1.5), max)) {
      let state: Awaited<ReturnType<UnmatchedImporter['state']>>;
      try {
        state = await importer.state(this.conn, importId);
        failures = 0;
      } catch (err) {
        if (err instanceof PimReadError && err.kind === 'not_found') throw new AdoptionFailure(`The PIM import ${importId} is gone`);
        if (++failures >= POLL_FAILURES) throw err;
        await sleep(wait);
        continue;
      }
      if (state.state === 'failed') throw new AdoptionFailure(`The PIM import of the unmatched products failed: ${state.error ?? 'no reason given'}`);
      if (state.state === 'completed') break;
      await this.progress('importing', state.rows_done, state.rows_total || null);
      this.signal?.throwIfAborted();
      await sleep(wait);
    }

    // The products the import made: after the PIM's last id before it, matched to the drafts by their SKU.
    const fresh = await this.readPim(maxPimId, 'importing');
    const bySku = new Map(fresh.map((p) => [p.sku.trim(), p]));
    const matches: Match[] = [];
    for (const { shop, draft } of drafts) {
      const pim = bySku.get(draft.sku);
      if (pim) matches.push({ shop, pim, rule: 'sku' });
    }
    const at = this.service.clock();
    for (let i = 0; i < matches.length; i += this.options.mappingBatch) {
      const rows = matches.slice(i, i + this.options.mappingBatch).map((m) => {
        const mapping = this.mappingOf(m, importedMedia(m));
        mapping.metadata.matched_by = 'imported';
        return mapping;
      });
      await this.deps.mappings.insertAdopted(this.row.integrationId, rows, at);
    }
    return matches;
  }

  /** The shop's currency, in which its prices are (null when the shop cannot say: the PIM's default applies). */
  private async shopCurrency(): Promise<string | null> {
    try {
      return (await this.deps.storefront.shopHealth(this.shop)).currencyCode || null;
    } catch (err) {
      if (err instanceof StorefrontError) return null;
      throw err;
    }
  }
}

/**
 * The shop's media of an imported product by the PIM's image URLs: the import downloaded the shop's images in their
 * order, so the Nth PIM image is the Nth shop image, and the next push keeps the shop's media by id instead of uploading
 * the PIM's copies. Only when every image made it (the counts agree); otherwise the push sends them, once.
 */
function importedMedia(m: Match): Record<string, string> {
  const shop = m.shop.images.filter((i) => i.url);
  const pim = m.pim.images ?? [];
  if (pim.length === 0 || pim.length !== shop.length) return {};
  return Object.fromEntries(pim.map((url, i) => [url, shop[i].mediaId]));
}
