// The only place with SQL for products and their translations.
import { and, eq, inArray, like, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { compile, runPrepared, type CompiledStatement } from '../../db/prepared.js';
import { gtinForms } from '../../lib/gtin.js';
import { brands, categories, productCategories, products, productTranslations, suppliers, vatRates } from '../pim.tables.js';
import { containsPattern, isoUtc, isoUtcMs } from '../sql.js';
import { rowsOf } from '../../db/rows.js';
import { NO_INCLUDES, type ProductIncludes } from './product-include.js';
import { TRANSLATIONS, VARIANTS, WAREHOUSE_STOCK } from './product-include-sql.js';
import { DEFAULT_SORT, sortOrder, type ProductSort } from './product-sort.js';
import { snapshotOf, type Snapshot } from '../history/history-snapshot.js';
import type { ProductStatus, ProductView, TranslationInput } from './product.schemas.js';

export interface ProductFilters {
  search?: string;
  status?: ProductStatus;
  brandId?: number;
  channel?: string;
  updatedSince?: string;
  /** Only the products assigned to this category. */
  categoryId?: number;
  /** Only these products. */
  ids?: number[];
}

/**
 * Keyset paging: the products after `afterId` by id; with `updatedSince`, after (updatedSince, afterId) in the order
 * (updated_at to the millisecond, id). Milliseconds because that is what the API shows: a client continues from the
 * updated_at it was given, so ties within one millisecond are broken by id, whatever the microseconds stored.
 */
export interface ProductKeyset {
  afterId: number;
  limit: number;
}

/** Column values of a product write, already validated by the service. */
export type ProductColumns = Partial<typeof products.$inferInsert>;

/** `attributes` after a merge patch onto the current value (or onto `{}` for a new product): a null removes a key. */
export const patchedAttributes = (patch: Record<string, unknown>, onto: 'current' | 'empty' = 'current'): SQL =>
  sql`jsonb_strip_nulls(${onto === 'empty' ? sql`'{}'::jsonb` : sql`${products.attributes}`} || ${JSON.stringify(patch)}::jsonb)`;

/**
 * The full Product of the API, built in one statement; `tr` is the requested translation, if any.
 * Brand, supplier and VAT rate are scalar subqueries rather than LEFT JOINs: same result (at most one row each), but
 * PostgreSQL plans a four-table join in about twice the time, and planning dominated the cost of reading one product.
 */
function projection(locale: Locale, mediaBaseUrl: string, includes: ProductIncludes = NO_INCLUDES): SQL {
  const text = (col: string) => (locale ? sql.raw(`coalesce(tr.${col}, p.${col})`) : sql.raw(`p.${col}`));
  return sql`
    p.id, p.sku, p.slug, ${text('name')} AS name, ${text('description')} AS description,
    ${text('short_description')} AS short_description, p.product_type,
    p.price::text AS price, p.sale_price::text AS sale_price, p.cost_price::text AS cost_price,
    p.currency, p.status, p.stock, p.stock > 0 AS in_stock, p.ean,
    (SELECT json_build_object('id', v.id, 'name', v.name, 'rate', v.rate::text, 'country_code', v.country_code)
     FROM vat_rates v WHERE v.id = p.vat_rate_id) AS vat_rate,
    (SELECT json_build_object('id', b.id, 'name', b.name) FROM brands b WHERE b.id = p.brand_id) AS brand,
    (SELECT json_build_object('id', s.id, 'name', s.name) FROM suppliers s WHERE s.id = p.supplier_id) AS supplier,
    coalesce((SELECT json_agg(json_build_object('id', c.id, 'name', c.name) ORDER BY c.id)
              FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id), '[]'::json) AS categories,
    array(SELECT ${mediaBaseUrl}::text || m.storage_key FROM product_media m WHERE m.product_id = p.id ORDER BY m.position, m.id) AS images,
    array(SELECT m.alt_text FROM product_media m WHERE m.product_id = p.id ORDER BY m.position, m.id) AS image_alts,
    p.publishing_channels,
    array(SELECT t.locale FROM product_translations t WHERE t.product_id = p.id ORDER BY t.locale) AS available_translations,
    p.product_condition, p.attributes, p.tags, p.seo_title, p.seo_description, p.gift_card, p.taxonomy_category,
    p.weight::text AS weight, p.barcode, p.compare_at_price::text AS compare_at_price, p.weight_unit, p.inventory_policy,
    p.inventory_tracked, p.taxable, p.requires_shipping, p.storefront_type, p.sku_generated,
    ${isoUtc('p.created_at')} AS created_at, ${isoUtcMs('p.updated_at')} AS updated_at${includes.variants ? sql`, ${VARIANTS}` : sql``}${
      includes.warehouseStock ? sql`, ${WAREHOUSE_STOCK}` : sql``
    }${includes.translations ? sql`, ${TRANSLATIONS}` : sql``}`;
}

/** The requested translation's locale: a value, or the placeholder of a compiled statement; null: none. */
type Locale = string | Placeholder | null;

function joins(locale: Locale): SQL {
  return locale ? sql`LEFT JOIN product_translations tr ON tr.product_id = p.id AND tr.locale = ${locale}` : sql``;
}

/** The WHERE of the product list's filters over `products p`; the export reads with the same. */
export function productWhere(organizationId: number, f: ProductFilters): SQL {
  const parts: SQL[] = [sql`p.organization_id = ${organizationId}`];
  if (f.search) parts.push(sql`p.search_text LIKE ${containsPattern(f.search)}`);
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  if (f.brandId !== undefined) parts.push(sql`p.brand_id = ${f.brandId}`);
  if (f.channel) parts.push(sql`p.publishing_channels @> ARRAY[${f.channel}]::text[]`);
  if (f.updatedSince) parts.push(sql`p.updated_at >= ${f.updatedSince}::timestamptz`);
  if (f.categoryId !== undefined) parts.push(sql`p.id IN (SELECT pc.product_id FROM product_categories pc WHERE pc.category_id = ${f.categoryId})`);
  if (f.ids) parts.push(sql`p.id = ANY(${`{${f.ids.join(',')}}`}::int[])`);
  return sql.join(parts, sql` AND `);
}

/** The organization's default currency, for a product that names none (EUR when the organization set none). */
export const defaultCurrencyOf = (organizationId: number): SQL =>
  sql`coalesce((SELECT o.default_currency FROM organizations o WHERE o.id = ${organizationId}), 'EUR')`;

/** A translation's texts in the API's names. */
export type TranslationTexts = Record<keyof typeof TRANSLATION_TEXTS, string | null>;
const TRANSLATION_TEXTS = {
  name: productTranslations.name,
  description: productTranslations.description,
  short_description: productTranslations.shortDescription,
  seo_title: productTranslations.seoTitle,
  seo_description: productTranslations.seoDescription,
};

/** find()'s statements by shape (a handful: locale or not × the includes). */
const FIND_STATEMENTS = new Map<string, CompiledStatement>();

export class ProductRepository {
  /** `mediaBaseUrl`: PUBLIC_URL + '/media/'; a product's `images` are that plus each media file's key. */
  constructor(
    private readonly db: Db,
    private readonly mediaBaseUrl: string,
  ) {}

  /** The same repository working inside a transaction. */
  with(tx: Db): ProductRepository {
    return new ProductRepository(tx, this.mediaBaseUrl);
  }

  /** Reads run as named prepared statements (see db/prepared.ts). */
  private run(statement: SQL): Promise<unknown> {
    return runPrepared(this.db, statement);
  }

  /** A product as the API answers it (find's JSON text, parsed). */
  async find(organizationId: number, id: number, locale: string | null = null, includes: ProductIncludes = NO_INCLUDES): Promise<ProductView | null> {
    const json = await this.findJson(organizationId, id, locale, includes);
    return json === null ? null : (JSON.parse(json) as ProductView);
  }

  /**
   * GET /api/products/{id}, the hottest read, as the JSON text PostgreSQL builds (`row_to_json`): the route sends it as
   * it is, so the product is neither parsed by the driver nor serialized again. Its statement is built once per shape
   * (locale or not, includes). The values are the API's: integers and booleans as JSON numbers and booleans, decimals
   * and times already text.
   */
  async findJson(organizationId: number, id: number, locale: string | null = null, includes: ProductIncludes = NO_INCLUDES): Promise<string | null> {
    const shape = `${this.mediaBaseUrl}|${locale !== null}|${includes.variants}|${includes.warehouseStock}|${includes.translations === true}`;
    let statement = FIND_STATEMENTS.get(shape);
    if (!statement) {
      const at = locale === null ? null : sql.placeholder('locale');
      statement = compile(sql`
        SELECT row_to_json(x)::text AS product FROM (
          SELECT ${projection(at, this.mediaBaseUrl, includes)} FROM products p ${joins(at)}
          WHERE p.organization_id = ${sql.placeholder('organizationId')} AND p.id = ${sql.placeholder('id')}) x`);
      FIND_STATEMENTS.set(shape, statement);
    }
    const result = await runPrepared(this.db, statement, { organizationId, id, locale });
    return rowsOf<{ product: string }>(result)[0]?.product ?? null;
  }

  /** The organization's products among `ids`, in one statement (one statement text whatever the number of ids); unknown ids are left out, order is by id. */
  async findMany(organizationId: number, ids: number[], locale: string | null = null): Promise<ProductView[]> {
    if (ids.length === 0) return [];
    const result = await this.run(sql`
      SELECT ${projection(locale, this.mediaBaseUrl)} FROM products p ${joins(locale)}
      WHERE p.organization_id = ${organizationId} AND p.id = ANY(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[])
      ORDER BY p.id`);
    return rowsOf<ProductView>(result);
  }

  async list(
    organizationId: number,
    filters: ProductFilters,
    page: { limit: number; offset: number; sort?: ProductSort },
    locale: string | null,
    includes: ProductIncludes = NO_INCLUDES,
  ): Promise<{ products: ProductView[]; total: number }> {
    const where = productWhere(organizationId, filters);
    const order = sortOrder(page.sort ?? DEFAULT_SORT);
    // The page's ids and the total in one statement; the full projection only for the page's rows.
    // A search collects the matching ids once (through the trigram index) and pages and counts those. Without one,
    // the page walks the (organization_id, id) index and the total is its own count: a count(*) OVER () window would
    // buffer every row of the organization before returning the first (3x slower at 100k products), and lets the
    // planner read a common term's matches in id order without the trigram index (6x slower).
    const ids = filters.search
      ? sql`matches AS MATERIALIZED (SELECT p.id FROM products p WHERE ${where}),
          page AS (SELECT p.id, count(*) OVER () AS total FROM matches m JOIN products p ON p.id = m.id
            ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})`
      : sql`page AS (SELECT p.id, (SELECT count(*) FROM products p WHERE ${where}) AS total FROM products p WHERE ${where}
          ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset})`;
    const result = await this.run(sql`
      WITH ${ids}
      SELECT ${projection(locale, this.mediaBaseUrl, includes)}, page.total::int AS total_items
      FROM page JOIN products p ON p.id = page.id ${joins(locale)}
      ORDER BY ${order}`);
    const rows = rowsOf<ProductView & { total_items: number }>(result);
    if (rows.length === 0) {
      // Past the last page: the window gave no row to carry the total, so count it.
      const total = page.offset === 0 ? 0 : await this.count(where);
      return { products: [], total };
    }
    const total = rows[0].total_items;
    for (const row of rows) delete (row as Partial<typeof row>).total_items;
    return { products: rows, total };
  }

  /**
   * One keyset page (see ProductKeyset) and `total`: the products after the cursor under the filters, this page
   * included. Searching is not combined with a keyset (the service refuses it), so the walk is an index range.
   */
  async listAfter(
    organizationId: number,
    filters: ProductFilters,
    keyset: ProductKeyset,
    locale: string | null,
    includes: ProductIncludes = NO_INCLUDES,
  ): Promise<{ products: ProductView[]; total: number }> {
    const { updatedSince, ...rest } = filters;
    const base = productWhere(organizationId, rest);
    let after: SQL;
    let order: SQL;
    if (updatedSince) {
      // (date_trunc(ms, updated_at), id) > (since at ms, afterId), written so the (organization_id, updated_at, id)
      // index bounds the scan: a product of the cursor's millisecond comes after it only with a greater id.
      after = sql`p.updated_at >= ${updatedSince}::timestamptz
        AND (p.updated_at >= date_trunc('milliseconds', ${updatedSince}::timestamptz) + interval '1 millisecond' OR p.id > ${keyset.afterId})`;
      order = sql`date_trunc('milliseconds', p.updated_at), p.id`;
    } else {
      after = sql`p.id > ${keyset.afterId}`;
      order = sql`p.id`;
    }
    const where = sql`${base} AND ${after}`;
    const result = await this.run(sql`
      WITH page AS (SELECT p.id FROM products p WHERE ${where} ORDER BY ${order} LIMIT ${keyset.limit})
      SELECT ${projection(locale, this.mediaBaseUrl, includes)}, (SELECT count(*) FROM products p WHERE ${where})::int AS total_items
      FROM page JOIN products p ON p.id = page.id ${joins(locale)}
      ORDER BY ${order}`);
    // No row: nothing after the cursor, so the count is 0 too.
    const rows = rowsOf<ProductView & { total_items: number }>(result);
    const total = rows[0]?.total_items ?? 0;
    for (const row of rows) delete (row as Partial<typeof row>).total_items;
    return { products: rows, total };
  }

  private async count(where: SQL): Promise<number> {
    const result = await this.run(sql`SELECT count(*)::int AS n FROM products p WHERE ${where}`);
    return rowsOf<{ n: number }>(result)[0].n;
  }

  async insert(organizationId: number, columns: ProductColumns & { sku: string; slug: string; name: string }): Promise<number> {
    const [row] = await this.db
      .insert(products)
      .values({ currency: defaultCurrencyOf(organizationId), ...columns, organizationId })
      .returning({ id: products.id });
    return row.id;
  }

  /**
   * Updates the given columns (and updated_at) and answers the product's history snapshot from before (history/,
   * `snapshotOf`), read from the row locked by the same statement; null when no such product in the organization.
   */
  async update(organizationId: number, id: number, columns: ProductColumns): Promise<Snapshot | null> {
    const rows = await this.db
      .update(products)
      .set({ ...columns, updatedAt: sql`now()` })
      .from(sql`(SELECT * FROM products WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE) o`)
      .where(and(eq(products.organizationId, organizationId), eq(products.id, id), sql`o.id = ${products.id}`))
      .returning({ before: sql<Snapshot>`${snapshotOf('o')}` });
    return rows[0]?.before ?? null;
  }

  async exists(organizationId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), eq(products.id, id)));
    return rows.length > 0;
  }

  async replaceCategories(productId: number, categoryIds: number[]): Promise<void> {
    await this.db.delete(productCategories).where(eq(productCategories.productId, productId));
    if (categoryIds.length > 0) {
      await this.db.insert(productCategories).values(categoryIds.map((categoryId) => ({ productId, categoryId })));
    }
  }

  /** The product (other than `exceptId`) holding this SKU / slug / EAN (in any GTIN spelling: UPC-A = EAN-13 `0…`), if any. */
  async holderOf(organizationId: number, field: 'sku' | 'slug' | 'ean', value: string, exceptId?: number): Promise<number | null> {
    const column = { sku: products.sku, slug: products.slug, ean: products.ean }[field];
    const rows = await this.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), field === 'ean' ? inArray(column, gtinForms(value)) : eq(column, value)));
    const other = rows.find((r) => r.id !== exceptId);
    return other?.id ?? null;
  }

  /** Slugs of the organization equal to `base` or of the form `base-N`. */
  async slugsLike(organizationId: number, base: string): Promise<string[]> {
    const rows = await this.db
      .select({ slug: products.slug })
      .from(products)
      .where(and(eq(products.organizationId, organizationId), or(eq(products.slug, base), like(products.slug, `${base}-%`))));
    return rows.map((r) => r.slug);
  }

  /** Which of the referenced ids do not exist in the organization, as readable names. */
  async missingReferences(
    organizationId: number,
    refs: { brandId?: number | null; supplierId?: number | null; vatRateId?: number | null; categoryIds?: number[] },
  ): Promise<string[]> {
    const missing: string[] = [];
    const check = async (label: string, table: typeof brands | typeof suppliers | typeof vatRates, id: number | null | undefined) => {
      if (id === null || id === undefined) return;
      const rows = await this.db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.organizationId, organizationId), eq(table.id, id)));
      if (rows.length === 0) missing.push(`${label} ${id}`);
    };
    await check('brand_id', brands, refs.brandId);
    await check('supplier_id', suppliers, refs.supplierId);
    await check('vat_rate_id', vatRates, refs.vatRateId);
    if (refs.categoryIds && refs.categoryIds.length > 0) {
      const found = await this.db
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.organizationId, organizationId), inArray(categories.id, refs.categoryIds)));
      const known = new Set(found.map((r) => r.id));
      const unknown = refs.categoryIds.filter((id) => !known.has(id));
      if (unknown.length > 0) missing.push(`category_ids ${unknown.join(', ')}`);
    }
    return missing;
  }

  async touch(productId: number): Promise<void> {
    await this.db.update(products).set({ updatedAt: sql`now()` }).where(eq(products.id, productId));
  }

  async upsertTranslation(productId: number, locale: string, input: TranslationInput) {
    const values = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.short_description !== undefined && { shortDescription: input.short_description }),
      ...(input.seo_title !== undefined && { seoTitle: input.seo_title }),
      ...(input.seo_description !== undefined && { seoDescription: input.seo_description }),
    };
    const [row] = await this.db
      .insert(productTranslations)
      .values({ productId, locale, ...values })
      .onConflictDoUpdate({
        target: [productTranslations.productId, productTranslations.locale],
        set: { ...values, updatedAt: sql`now()` },
      })
      .returning();
    return {
      product_id: row.productId,
      locale: row.locale,
      name: row.name,
      description: row.description,
      short_description: row.shortDescription,
      seo_title: row.seoTitle,
      seo_description: row.seoDescription,
    };
  }

  /** The product's translation in this locale, its row locked until the transaction ends; null: none. */
  async translationForUpdate(productId: number, locale: string): Promise<TranslationTexts | null> {
    const rows = await this.db
      .select(TRANSLATION_TEXTS)
      .from(productTranslations)
      .where(and(eq(productTranslations.productId, productId), eq(productTranslations.locale, locale)))
      .for('update');
    return rows[0] ?? null;
  }

  /** Deletes the translation; its texts as they were, or null when there was none. */
  async deleteTranslation(productId: number, locale: string): Promise<TranslationTexts | null> {
    const rows = await this.db
      .delete(productTranslations)
      .where(and(eq(productTranslations.productId, productId), eq(productTranslations.locale, locale)))
      .returning(TRANSLATION_TEXTS);
    return rows[0] ?? null;
  }
}
