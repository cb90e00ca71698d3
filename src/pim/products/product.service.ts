// Product rules: references stay inside the organization, SKU/slug/EAN are unique per organization,
// every multi-row change happens in one transaction.
import type { Db } from '../../db/client.js';
import { isValidGtin } from '../../lib/gtin.js';
import { firstFreeSlug, slugify } from '../../lib/slug.js';
import { badRequest, notFound } from '../../http/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { AttributeService } from '../attributes/attribute.service.js';
import type { FieldChange } from '../history/history-diff.js';
import type { Actor, HistoryRepository } from '../history/history.repository.js';
import type { StockService } from '../stock/stock.service.js';
import { parseInclude } from './product-include.js';
import { parseSort } from './product-sort.js';
import { SELLING_COLUMNS } from './selling-fields.js';
import { patchedAttributes, type ProductColumns, type ProductFilters, type ProductRepository, type TranslationTexts } from './product.repository.js';
import type { ProductCreateInput, ProductListQueryInput, ProductPatchInput, ProductView, TranslationInput } from './product.schemas.js';

const UNIQUE_FIELDS = [
  ['products_org_sku_uq', 'sku'],
  ['products_org_slug_uq', 'slug'],
  ['products_org_ean_uq', 'ean'],
] as const;

export interface ProductServiceDeps {
  db: Db;
  products: ProductRepository;
  attributes: AttributeService;
  stock: StockService;
  history: HistoryRepository;
}

/** How a write is recorded in the product's history: a restore names the change whose version it put back. */
export interface WriteRecord {
  actor: Actor;
  restoredFrom?: number;
}

export class ProductService {
  private readonly db: Db;
  private readonly products: ProductRepository;
  private readonly attributes: AttributeService;
  private readonly stock: StockService;
  private readonly history: HistoryRepository;

  constructor(deps: ProductServiceDeps) {
    ({ db: this.db, products: this.products, attributes: this.attributes, stock: this.stock, history: this.history } = deps);
  }

  async get(organizationId: number, id: number, locale: string | null = null, include?: string): Promise<ProductView> {
    return JSON.parse(await this.getJson(organizationId, id, locale, include)) as ProductView;
  }

  /** The product as JSON text, for GET /api/products/{id} to send as it is (ProductRepository.findJson). */
  async getJson(organizationId: number, id: number, locale: string | null = null, include?: string): Promise<string> {
    const product = await this.products.findJson(organizationId, id, locale, parseInclude(include));
    if (product === null) throw notFound(`Product ${id} not found`);
    return product;
  }

  async list(organizationId: number, q: ProductListQueryInput) {
    const filters: ProductFilters = {
      search: q.search?.trim() || undefined,
      status: q.status,
      brandId: q.brand,
      channel: q.channel,
      categoryId: q.category,
      updatedSince: q.updated_since,
      ids: q.ids === undefined ? undefined : productIds(q.ids),
    };
    const includes = parseInclude(q.include);
    if (q.after_id !== undefined) {
      // Keyset paging: each answer is the first page of what follows the cursor.
      if (q.page !== 1) throw badRequest(`query parameter 'page' cannot be combined with 'after_id' (the page is always the one after it)`);
      if (filters.search) throw badRequest(`query parameter 'search' cannot be combined with 'after_id'`);
      if (q.sort !== undefined) throw badRequest(`query parameter 'sort' cannot be combined with 'after_id' (keyset pages are by id)`);
      const { products, total } = await this.products.listAfter(organizationId, filters, { afterId: q.after_id, limit: q.limit }, q.locale ?? null, includes);
      return { products, pagination: { current_page: 1, total_pages: Math.ceil(total / q.limit), total_items: total, items_per_page: q.limit } };
    }
    const { products, total } = await this.products.list(
      organizationId,
      filters,
      { limit: q.limit, offset: (q.page - 1) * q.limit, sort: parseSort(q.sort) },
      q.locale ?? null,
      includes,
    );
    return {
      products,
      pagination: {
        current_page: q.page,
        total_pages: Math.ceil(total / q.limit),
        total_items: total,
        items_per_page: q.limit,
      },
    };
  }

  /** Creates the product and records it in its history (the fields it was given), in the same transaction. */
  async create(organizationId: number, input: ProductCreateInput, actor: Actor): Promise<ProductView> {
    await this.checkInput(organizationId, input);
    const insert = () =>
      this.db.transaction(async (tx) => {
        const repo = this.products.with(tx);
        if (input.attributes) await this.attributes.confirmProductValues(tx, organizationId, input.attributes);
        const slug = input.slug ?? firstFreeSlug(slugify(input.name), await repo.slugsLike(organizationId, slugify(input.name)));
        const attributes = input.attributes && { attributes: patchedAttributes(input.attributes, 'empty') };
        const productId = await repo.insert(organizationId, { ...toColumns(input), ...attributes, name: input.name, sku: input.sku, slug });
        if (input.category_ids) await repo.replaceCategories(productId, input.category_ids);
        await this.history.with(tx).record(organizationId, [{ productId, before: null }], actor);
        return productId;
      });
    const id = await this.writeUnique(async () => {
      // A generated slug that a concurrent create took first is generated again; an explicit slug is the caller's to change.
      for (let attempt = 1; ; attempt++) {
        try {
          return await insert();
        } catch (err) {
          if (input.slug !== undefined || attempt >= 10 || !isUniqueViolation(err, 'products_org_slug_uq')) throw err;
        }
      }
    });
    return this.get(organizationId, id);
  }

  /** Changes the fields sent; what changed is recorded in the product's history in the same transaction (nothing: no record). */
  async update(organizationId: number, id: number, input: ProductPatchInput, record: WriteRecord): Promise<ProductView> {
    if (!(await this.products.exists(organizationId, id))) throw notFound(`Product ${id} not found`);
    await this.checkInput(organizationId, input, id);
    await this.writeUnique(() =>
      this.db.transaction(async (tx) => {
        const repo = this.products.with(tx);
        if (input.attributes) await this.attributes.confirmProductValues(tx, organizationId, input.attributes);
        const before = await repo.update(organizationId, id, {
          ...toColumns(input),
          ...(input.attributes && { attributes: patchedAttributes(input.attributes) }),
        });
        if (before === null) throw notFound(`Product ${id} not found`);
        if (input.category_ids) await repo.replaceCategories(id, input.category_ids);
        const action = record.restoredFrom === undefined ? 'updated' : 'restored';
        await this.history.with(tx).record(organizationId, [{ productId: id, before }], record.actor, { action, restoredFrom: record.restoredFrom });
      }),
    );
    return this.get(organizationId, id);
  }

  /** Soft delete: the product stays readable with status `archived` (recorded as a change of status). */
  async archive(organizationId: number, id: number, actor: Actor): Promise<ProductView> {
    const archived = await this.db.transaction(async (tx) => {
      const before = await this.products.with(tx).update(organizationId, id, { status: 'archived' });
      if (before !== null) await this.history.with(tx).record(organizationId, [{ productId: id, before }], actor);
      return before !== null;
    });
    if (!archived) throw notFound(`Product ${id} not found`);
    return this.get(organizationId, id);
  }

  /** Creates or changes a translation; the texts that changed are recorded in the product's history (`name@de`…). */
  async putTranslation(organizationId: number, id: number, locale: string, input: TranslationInput, actor: Actor) {
    if (!(await this.products.exists(organizationId, id))) throw notFound(`Product ${id} not found`);
    return this.db.transaction(async (tx) => {
      const repo = this.products.with(tx);
      const before = await repo.translationForUpdate(id, locale);
      const translation = await repo.upsertTranslation(id, locale, input);
      await repo.touch(id);
      await this.history.with(tx).recordChanges(organizationId, id, actor, translationChanges(locale, before, translation));
      return translation;
    });
  }

  async deleteTranslation(organizationId: number, id: number, locale: string, actor: Actor): Promise<void> {
    if (!(await this.products.exists(organizationId, id))) throw notFound(`Product ${id} not found`);
    const deleted = await this.db.transaction(async (tx) => {
      const repo = this.products.with(tx);
      const found = await repo.deleteTranslation(id, locale);
      if (found) {
        await repo.touch(id);
        await this.history.with(tx).recordChanges(organizationId, id, actor, translationChanges(locale, found, null));
      }
      return found !== null;
    });
    if (!deleted) throw notFound(`Product ${id} has no '${locale}' translation`);
  }

  private async checkInput(organizationId: number, input: ProductPatchInput, selfId?: number): Promise<void> {
    if (input.ean && !isValidGtin(input.ean)) {
      throw badRequest(`field 'ean' has an invalid check digit or length (GTIN-8, -12, -13 or -14 expected)`);
    }
    if (input.attributes || selfId === undefined) await this.attributes.checkProductValues(organizationId, input.attributes ?? {}, selfId === undefined);
    if (input.stock !== undefined && selfId !== undefined) await this.stock.checkDirectStockWrite(selfId);
    const missing = await this.products.missingReferences(organizationId, {
      brandId: input.brand_id,
      supplierId: input.supplier_id,
      vatRateId: input.vat_rate_id,
      categoryIds: input.category_ids,
    });
    if (missing.length > 0) throw badRequest(`Unknown references: ${missing.join('; ')}`);
    for (const field of ['sku', 'slug', 'ean'] as const) {
      const value = input[field];
      if (value && (await this.products.holderOf(organizationId, field, value, selfId)) !== null) {
        throw badRequest(`field '${field}': another product already has ${field} '${value}'`);
      }
    }
  }

  /** Runs a write; a unique index that a concurrent writer won becomes the same 400 as the pre-check's. */
  private async writeUnique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      for (const [constraint, field] of UNIQUE_FIELDS) {
        if (isUniqueViolation(err, constraint)) throw badRequest(`field '${field}': another product already has this ${field}`);
      }
      throw err;
    }
  }
}

/** A translation's texts that differ, as history changes named `field@locale` (the catalogue files' column names). */
function translationChanges(locale: string, before: TranslationTexts | null, after: TranslationTexts | null): FieldChange[] {
  const fields = ['name', 'description', 'short_description', 'seo_title', 'seo_description'] as const;
  return fields.flatMap((f) => {
    const old = before?.[f] ?? null;
    const now = after?.[f] ?? null;
    return old === now ? [] : [{ field: `${f}@${locale}`, old, new: now }];
  });
}

/** API field names → column values; absent fields stay absent so PATCH changes only what it names. */
function toColumns(input: ProductPatchInput): ProductColumns {
  const map: Record<string, keyof ProductColumns> = {
    name: 'name',
    sku: 'sku',
    slug: 'slug',
    description: 'description',
    short_description: 'shortDescription',
    product_type: 'productType',
    price: 'price',
    sale_price: 'salePrice',
    cost_price: 'costPrice',
    currency: 'currency',
    status: 'status',
    stock: 'stock',
    ean: 'ean',
    brand_id: 'brandId',
    supplier_id: 'supplierId',
    vat_rate_id: 'vatRateId',
    publishing_channels: 'publishingChannels',
    product_condition: 'productCondition',
    tags: 'tags',
    seo_title: 'seoTitle',
    seo_description: 'seoDescription',
    gift_card: 'giftCard',
    taxonomy_category: 'taxonomyCategory',
    weight: 'weight',
    storefront_type: 'storefrontType',
    ...SELLING_COLUMNS,
  };
  const columns: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(map)) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) columns[column] = value;
  }
  // A SKU written through the API is the merchant's, not one the PIM made up.
  if (input.sku !== undefined) columns.skuGenerated = false;
  return columns as ProductColumns;
}

/** `ids` (checked by the query schema: digits and commas) → the ids; one past int4 is a 400, not an SQL error. */
function productIds(raw: string): number[] {
  const ids = raw.split(',').map(Number);
  if (ids.some((id) => id < 1 || id > 2_147_483_647)) throw badRequest(`query parameter 'ids' must list product ids from 1 to 2147483647`);
  return [...new Set(ids)];
}
