// The SQL of catalogue files: products read whole (as snapshots) by SKU or by keyset page, and a batch of imported
// products written set-wise (one statement per table per batch, not per product): 100,000 rows in well under a minute.
import { sql, type SQL } from 'drizzle-orm';
import type { ProductFields, VariantFields } from '../../catalogue-csv/draft.js';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import type { AttributeDefinition } from '../attributes/attribute.repository.js';
import { defaultCurrencyOf, productWhere, type ProductFilters } from '../products/product.repository.js';
import { SELLING_SQL_PAIRS } from '../products/selling-fields.js';
import type { ProductSnapshot } from './catalogue-snapshot.js';

/** A product row to insert or to overwrite whole (the import merged the file's fields onto the current values). */
export interface ProductRow extends Omit<ProductFields, 'categories' | 'brand' | 'supplier'> {
  /** The stored product it overwrites; null: a new one. */
  id: number | null;
  sku: string;
  sku_generated: boolean;
  brand_id: number | null;
  supplier_id: number | null;
  attributes: Record<string, unknown>;
}

/** A stored variant as the catalogue files read and write it: the file's variant fields, and what the database adds. */
export interface VariantRow extends VariantFields {
  /** The stored variant it overwrites; null: a new one. */
  id: number | null;
  product_id: number;
  sku: string;
  sku_generated: boolean;
  position: number;
}

export interface TranslationRow {
  product_id: number;
  locale: string;
  name: string | null;
  description: string | null;
  short_description: string | null;
}

/** Parameters as arrays: drizzle would spread a JS array into a list, so text goes as one JSON value, ints as a literal. */
const textArray = (values: string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const intArray = (values: number[]) => sql`${`{${values.map((v) => Math.trunc(v)).join(',')}}`}::int[]`;

/** The product columns an import writes, in the order of PRODUCT_RECORD. */
const PRODUCT_COLUMNS = sql.raw(`sku, sku_generated, slug, name, description, short_description, product_type, price, sale_price, cost_price,
  currency, status, ean, brand_id, supplier_id, publishing_channels, product_condition, attributes, tags, seo_title, seo_description,
  gift_card, taxonomy_category, storefront_type, weight, stock, barcode, compare_at_price, weight_unit, inventory_policy,
  inventory_tracked, taxable, requires_shipping`);
const PRODUCT_VALUES = sql.raw(`x.sku, x.sku_generated, x.slug, x.name, x.description, x.short_description, x.product_type, x.price, x.sale_price,
  x.cost_price, x.currency, x.status, x.ean, x.brand_id, x.supplier_id, x.publishing_channels, x.product_condition, x.attributes, x.tags,
  x.seo_title, x.seo_description, x.gift_card, x.taxonomy_category, x.storefront_type, x.weight, x.stock_quantity, x.barcode,
  x.compare_at_price, x.weight_unit, x.inventory_policy, x.inventory_tracked, x.taxable, x.requires_shipping`);
const PRODUCT_RECORD = sql.raw(`x(id int, sku text, sku_generated boolean, slug text, name text, description text, short_description text,
  product_type text, price numeric, sale_price numeric, cost_price numeric, currency text, status text, ean text, brand_id int,
  supplier_id int, publishing_channels text[], product_condition text, attributes jsonb, tags text[], seo_title text,
  seo_description text, gift_card boolean, taxonomy_category text, storefront_type text, weight numeric, stock_quantity int,
  barcode text, compare_at_price numeric, weight_unit text, inventory_policy text, inventory_tracked boolean, taxable boolean,
  requires_shipping boolean)`);
const VARIANT_COLUMNS = sql.raw(`product_id, sku, sku_generated, name, price, sale_price, cost, weight, stock_quantity, stock_status, is_enabled,
  position, image, attributes, barcode, compare_at_price, weight_unit, inventory_policy, inventory_tracked, taxable, requires_shipping`);
const VARIANT_VALUES = sql.raw(`x.product_id, x.sku, x.sku_generated, x.name, x.price, x.sale_price, x.cost, x.weight, x.stock_quantity,
  x.stock_status, x.is_enabled, x.position, x.image, x.attributes, x.barcode, x.compare_at_price, x.weight_unit, x.inventory_policy,
  x.inventory_tracked, x.taxable, x.requires_shipping`);
const VARIANT_RECORD = sql.raw(`x(id int, product_id int, sku text, sku_generated boolean, name text, price numeric, sale_price numeric,
  cost numeric, weight numeric, stock_quantity int, stock_status text, is_enabled boolean, position int, image text, attributes jsonb,
  barcode text, compare_at_price numeric, weight_unit text, inventory_policy text, inventory_tracked boolean, taxable boolean,
  requires_shipping boolean)`);

/** The grouping key of a format's products: our format's SKU, Shopify's Handle (the slug). */
export type KeyColumn = 'sku' | 'slug';

/** A product attribute mapped to a storefront metafield. */
export interface MetafieldAttribute {
  code: string;
  name: string;
  metafield: string;
}

export interface ImportFilters extends Pick<ProductFilters, 'search' | 'status' | 'brandId' | 'channel' | 'categoryId'> {}

export class CatalogueRepository {
  /** `mediaBaseUrl`: PUBLIC_URL + '/media/', the public URL of a stored file that was uploaded rather than downloaded. */
  constructor(
    private readonly db: Db,
    private readonly mediaBaseUrl: string,
  ) {}

  with(tx: Db): CatalogueRepository {
    return new CatalogueRepository(tx, this.mediaBaseUrl);
  }

  private async rows<T>(statement: SQL): Promise<T[]> {
    return rowsOf<T>(await this.db.execute(statement));
  }

  /**
   * The organization's products whose SKU (our format) or slug (Shopify's: the Handle) is among `keys`, whole; locked
   * FOR UPDATE when `lock` (an import's batch).
   */
  async snapshotsByKey(organizationId: number, keys: string[], column: KeyColumn, lock = false): Promise<ProductSnapshot[]> {
    if (keys.length === 0) return [];
    const key = sql.raw(column);
    if (lock) {
      await this.db.execute(sql`SELECT id FROM products WHERE organization_id = ${organizationId} AND ${key} = ANY(${textArray(keys)}) ORDER BY id FOR UPDATE`);
    }
    return this.rows<ProductSnapshot>(
      sql`SELECT ${this.snapshot()} FROM products p WHERE p.organization_id = ${organizationId} AND p.${key} = ANY(${textArray(keys)})`,
    );
  }

  /** One keyset page of the export, by id. */
  async snapshotsAfter(organizationId: number, filters: ImportFilters, afterId: number, limit: number): Promise<ProductSnapshot[]> {
    return this.rows<ProductSnapshot>(sql`
      SELECT ${this.snapshot()} FROM products p WHERE ${productWhere(organizationId, filters)} AND p.id > ${afterId} ORDER BY p.id LIMIT ${limit}`);
  }

  private snapshot(): SQL {
    return sql`p.id, p.sku, p.sku_generated, p.slug, p.name, p.description, p.short_description, p.product_type,
      p.price::text AS price, p.sale_price::text AS sale_price, p.cost_price::text AS cost_price, p.currency, p.status, p.ean,
      (SELECT b.name FROM brands b WHERE b.id = p.brand_id) AS brand,
      (SELECT s.name FROM suppliers s WHERE s.id = p.supplier_id) AS supplier,
      p.publishing_channels, p.product_condition, p.attributes, p.tags, p.seo_title, p.seo_description, p.gift_card,
      p.taxonomy_category, p.storefront_type, p.weight::text AS weight, p.stock AS stock_quantity, p.barcode,
      p.compare_at_price::text AS compare_at_price, p.weight_unit, p.inventory_policy, p.inventory_tracked, p.taxable, p.requires_shipping,
      array(SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = p.id ORDER BY pc.category_id) AS category_ids,
      coalesce((SELECT json_object_agg(w.code, s.quantity) FROM product_stock s JOIN warehouses w ON w.id = s.warehouse_id WHERE s.product_id = p.id), '{}'::json) AS stock,
      array(SELECT coalesce(m.source_url, ${this.mediaBaseUrl}::text || m.storage_key) FROM product_media m WHERE m.product_id = p.id ORDER BY m.position, m.id) AS images,
      array(SELECT m.alt_text FROM product_media m WHERE m.product_id = p.id ORDER BY m.position, m.id) AS image_alts,
      array(SELECT pi.url FROM pending_images pi WHERE pi.product_id = p.id ORDER BY pi.position, pi.url) AS pending_images,
      array(SELECT pi.alt_text FROM pending_images pi WHERE pi.product_id = p.id ORDER BY pi.position, pi.url) AS pending_image_alts,
      coalesce((SELECT json_object_agg(t.locale, json_build_object('name', t.name, 'description', t.description, 'short_description', t.short_description))
                FROM product_translations t WHERE t.product_id = p.id), '{}'::json) AS translations,
      coalesce((SELECT json_agg(json_build_object(
          'id', v.id, 'sku', v.sku, 'sku_generated', v.sku_generated, 'name', v.name, 'price', v.price::text, 'sale_price', v.sale_price::text, 'cost', v.cost::text,
          'weight', v.weight::text, 'stock_quantity', v.stock_quantity, 'stock_status', v.stock_status, 'is_enabled', v.is_enabled,
          'position', v.position, 'image', v.image, 'attributes', v.attributes, ${sql.raw(SELLING_SQL_PAIRS('v'))},
          'has_levels', EXISTS (SELECT 1 FROM variant_stock s WHERE s.variant_id = v.id)) ORDER BY v.position, v.id)
        FROM variants v WHERE v.product_id = p.id), '[]'::json) AS variants`;
  }

  async categories(organizationId: number): Promise<{ id: number; parent_id: number | null; name: string }[]> {
    return this.rows(sql`SELECT id, parent_id, name FROM categories WHERE organization_id = ${organizationId}`);
  }

  async warehouses(organizationId: number): Promise<{ id: number; code: string }[]> {
    return this.rows(sql`SELECT id, code FROM warehouses WHERE organization_id = ${organizationId} ORDER BY code`);
  }

  async attributeDefinitions(organizationId: number): Promise<AttributeDefinition[]> {
    return this.rows(
      sql`SELECT id, code, type, options, is_required AS "isRequired" FROM product_attributes WHERE organization_id = ${organizationId} ORDER BY code`,
    );
  }

  /** The organization's attributes mapped to a storefront metafield. */
  async metafieldAttributes(organizationId: number): Promise<MetafieldAttribute[]> {
    return this.rows(
      sql`SELECT code, name, metafield FROM product_attributes WHERE organization_id = ${organizationId} AND metafield IS NOT NULL ORDER BY metafield`,
    );
  }

  /**
   * Creates attributes mapped to storefront metafields (a Shopify file's metafield columns); one already made (by a
   * concurrent import) is left as it is.
   */
  async insertMetafieldAttributes(organizationId: number, rows: { code: string; name: string; type: string; metafield: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_attributes (organization_id, code, name, type, metafield)
      SELECT ${organizationId}, x.code, x.name, x.type, x.metafield
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(code text, name text, type text, metafield text)
      ON CONFLICT DO NOTHING`);
  }

  /** The organization's configured publishing channels; null when it configured none (the defaults, web and mobile, apply). */
  async channelValues(organizationId: number): Promise<string[] | null> {
    const rows = await this.rows<{ value: string }>(sql`SELECT value FROM channels WHERE organization_id = ${organizationId} ORDER BY position`);
    return rows.length > 0 ? rows.map((r) => r.value) : null;
  }

  /** The organization's default currency (EUR when it set none), and whether it set one. */
  async defaultCurrency(organizationId: number): Promise<{ currency: string; set: boolean }> {
    const [row] = await this.rows<{ currency: string; set: boolean }>(sql`
      SELECT ${defaultCurrencyOf(organizationId)} AS currency,
             EXISTS (SELECT 1 FROM organizations o WHERE o.id = ${organizationId} AND o.default_currency IS NOT NULL) AS set`);
    return row;
  }

  /** The locales of the organization's translations and the option names of its variants: the export's dynamic columns. */
  async exportColumns(organizationId: number): Promise<{ locales: string[]; optionNames: string[] }> {
    const [row] = await this.rows<{ locales: string[]; option_names: string[] }>(sql`
      SELECT array(SELECT DISTINCT t.locale FROM product_translations t JOIN products p ON p.id = t.product_id
                   WHERE p.organization_id = ${organizationId} ORDER BY t.locale) AS locales,
             array(SELECT o.name FROM (SELECT a->>'attribute_name' AS name, min(v.id) AS first FROM variants v, jsonb_array_elements(v.attributes) a
                   WHERE v.organization_id = ${organizationId} GROUP BY 1) o ORDER BY o.first) AS option_names`);
    return { locales: row.locales, optionNames: row.option_names };
  }

  /** Brand or supplier ids by name, creating the missing ones. */
  async namedIds(table: 'brands' | 'suppliers', organizationId: number, names: string[]): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const t = sql.raw(table);
    await this.db.execute(
      sql`INSERT INTO ${t} (organization_id, name) SELECT ${organizationId}, n FROM unnest(${textArray(names)}) AS n ON CONFLICT DO NOTHING`,
    );
    const rows = await this.rows<{ id: number; name: string }>(
      sql`SELECT id, name FROM ${t} WHERE organization_id = ${organizationId} AND name = ANY(${textArray(names)})`,
    );
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  async insertCategory(organizationId: number, parentId: number | null, name: string): Promise<number> {
    const [row] = await this.rows<{ id: number }>(sql`
      INSERT INTO categories (organization_id, parent_id, name, position)
      VALUES (${organizationId}, ${parentId}, ${name},
              (SELECT coalesce(max(position) + 1, 0) FROM categories WHERE organization_id = ${organizationId} AND parent_id IS NOT DISTINCT FROM ${parentId}))
      RETURNING id`);
    return row.id;
  }

  /** Which of `values` products hold in this column: value → the holder's key (its SKU, or its slug for Shopify's files). */
  async holders(organizationId: number, column: 'ean' | 'slug' | 'sku', values: string[], key: KeyColumn = 'sku'): Promise<Map<string, string>> {
    if (values.length === 0) return new Map();
    const rows = await this.rows<{ value: string; key: string }>(
      sql`SELECT ${sql.raw(column)} AS value, ${sql.raw(key)} AS key FROM products WHERE organization_id = ${organizationId} AND ${sql.raw(column)} = ANY(${textArray(values)})`,
    );
    return new Map(rows.map((r) => [r.value, r.key]));
  }

  /** The values of a unique column (products' slug or SKU, variants' SKU) equal to one of `bases` or of the form `base-N`. */
  async taken(organizationId: number, table: 'products' | 'variants', column: 'slug' | 'sku', bases: string[]): Promise<string[]> {
    if (bases.length === 0) return [];
    const patterns = bases.map((b) => `${b.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`);
    const [t, c] = [sql.raw(table), sql.raw(column)];
    const rows = await this.rows<{ value: string }>(sql`
      SELECT ${c} AS value FROM ${t} WHERE organization_id = ${organizationId} AND (${c} = ANY(${textArray(bases)}) OR ${c} LIKE ANY(${textArray(patterns)}))`);
    return rows.map((r) => r.value);
  }

  /** Variant SKU → the key (SKU, or slug for Shopify's files) of the product holding it. */
  async variantOwners(organizationId: number, skus: string[], key: KeyColumn = 'sku'): Promise<Map<string, string>> {
    if (skus.length === 0) return new Map();
    const rows = await this.rows<{ sku: string; owner: string }>(sql`
      SELECT v.sku, p.${sql.raw(key)} AS owner FROM variants v JOIN products p ON p.id = v.product_id
      WHERE v.organization_id = ${organizationId} AND v.sku = ANY(${textArray(skus)})`);
    return new Map(rows.map((r) => [r.sku, r.owner]));
  }

  /** Inserts the new products (id null) and overwrites the changed ones by id (updated_at bumped): SKU → id of the new ones. */
  async upsertProducts(organizationId: number, rows: ProductRow[]): Promise<Map<string, number>> {
    const fresh = rows.filter((r) => r.id === null);
    const stored = rows.filter((r) => r.id !== null);
    if (stored.length > 0) {
      await this.db.execute(sql`
        UPDATE products p SET (${PRODUCT_COLUMNS}) = (${PRODUCT_VALUES}), updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(stored)}::jsonb) AS ${PRODUCT_RECORD}
        WHERE p.id = x.id AND p.organization_id = ${organizationId}`);
    }
    if (fresh.length === 0) return new Map();
    const result = await this.rows<{ id: number; sku: string }>(sql`
      INSERT INTO products (organization_id, ${PRODUCT_COLUMNS})
      SELECT ${organizationId}, ${PRODUCT_VALUES} FROM jsonb_to_recordset(${JSON.stringify(fresh)}::jsonb) AS ${PRODUCT_RECORD}
      RETURNING id, sku`);
    return new Map(result.map((r) => [r.sku, r.id]));
  }

  /** Bumps updated_at of products whose only change is below them (variants, stock, categories, translations). */
  async touch(productIds: number[]): Promise<void> {
    if (productIds.length === 0) return;
    await this.db.execute(sql`UPDATE products SET updated_at = now() WHERE id = ANY(${intArray(productIds)})`);
  }

  /** Inserts the new variants (id null) and overwrites the changed ones by id. */
  async upsertVariants(organizationId: number, rows: VariantRow[]): Promise<void> {
    const fresh = rows.filter((r) => r.id === null);
    const stored = rows.filter((r) => r.id !== null);
    if (stored.length > 0) {
      await this.db.execute(sql`
        UPDATE variants v SET (${VARIANT_COLUMNS}) = (${VARIANT_VALUES}), updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(stored)}::jsonb) AS ${VARIANT_RECORD}
        WHERE v.id = x.id AND v.product_id = x.product_id AND v.organization_id = ${organizationId}`);
      // A variant with levels per warehouse keeps their sum: the file's count is for the others (as for products).
      await this.db.execute(sql`
        UPDATE variants v SET stock_quantity = (SELECT sum(s.quantity)::int FROM variant_stock s WHERE s.variant_id = v.id)
        WHERE v.id = ANY(${intArray(stored.map((r) => r.id as number))}) AND EXISTS (SELECT 1 FROM variant_stock s WHERE s.variant_id = v.id)`);
    }
    if (fresh.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO variants (organization_id, ${VARIANT_COLUMNS})
      SELECT ${organizationId}, ${VARIANT_VALUES} FROM jsonb_to_recordset(${JSON.stringify(fresh)}::jsonb) AS ${VARIANT_RECORD}`);
  }

  /** Sets the alt text of stored images, each found by its product and URL (as the snapshot lists it). */
  async setImageAlts(alts: { productId: number; url: string; alt: string | null }[]): Promise<void> {
    if (alts.length === 0) return;
    await this.db.execute(sql`
      UPDATE product_media m SET alt_text = x.alt
      FROM jsonb_to_recordset(${JSON.stringify(alts)}::jsonb) AS x("productId" int, url text, alt text)
      WHERE m.product_id = x."productId" AND coalesce(m.source_url, ${this.mediaBaseUrl}::text || m.storage_key) = x.url`);
    await this.db.execute(sql`
      UPDATE pending_images pi SET alt_text = x.alt
      FROM jsonb_to_recordset(${JSON.stringify(alts)}::jsonb) AS x("productId" int, url text, alt text)
      WHERE pi.product_id = x."productId" AND pi.url = x.url`);
  }

  async replaceCategories(assignments: { productId: number; categoryIds: number[] }[]): Promise<void> {
    if (assignments.length === 0) return;
    await this.db.execute(sql`DELETE FROM product_categories WHERE product_id = ANY(${intArray(assignments.map((a) => a.productId))})`);
    const pairs = assignments.flatMap((a) => a.categoryIds.map((c) => [a.productId, c] as const));
    if (pairs.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_categories (product_id, category_id)
      SELECT * FROM unnest(${intArray(pairs.map((p) => p[0]))}, ${intArray(pairs.map((p) => p[1]))}) ON CONFLICT DO NOTHING`);
  }

  /** Sets stock levels and the products' total (products.stock = the sum of their levels, as the stock API keeps it). */
  async setStock(levels: { productId: number; warehouseId: number; quantity: number }[]): Promise<void> {
    if (levels.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_stock (product_id, warehouse_id, quantity)
      SELECT * FROM unnest(${intArray(levels.map((l) => l.productId))}, ${intArray(levels.map((l) => l.warehouseId))}, ${intArray(levels.map((l) => l.quantity))})
      ON CONFLICT (product_id, warehouse_id) DO UPDATE SET quantity = excluded.quantity, updated_at = now()`);
    const ids = [...new Set(levels.map((l) => l.productId))];
    await this.db.execute(sql`
      UPDATE products p SET stock = (SELECT coalesce(sum(s.quantity), 0) FROM product_stock s WHERE s.product_id = p.id) WHERE p.id = ANY(${intArray(ids)})`);
  }

  /** A product with variants has the sum of its variants' stock_quantity as its stock (held within the int range). */
  async sumVariantStock(productIds: number[]): Promise<void> {
    if (productIds.length === 0) return;
    await this.db.execute(sql`
      UPDATE products p SET stock = greatest(least(t.total, 2147483647), -2147483648)::int
      FROM (SELECT v.product_id, sum(v.stock_quantity) AS total FROM variants v WHERE v.product_id = ANY(${intArray(productIds)}) GROUP BY v.product_id) t
      WHERE p.id = t.product_id`);
  }

  async upsertTranslations(rows: TranslationRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.execute(sql`
      INSERT INTO product_translations (product_id, locale, name, description, short_description)
      SELECT x.product_id, x.locale, x.name, x.description, x.short_description
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(product_id int, locale text, name text, description text, short_description text)
      ON CONFLICT (product_id, locale) DO UPDATE SET
        name = excluded.name, description = excluded.description, short_description = excluded.short_description, updated_at = now()`);
  }
}
