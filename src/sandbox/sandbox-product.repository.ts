// SQL for the sandbox's catalogue: products, variants, media, product metafields, metafield definitions, locations.
import { and, asc, count, eq, exists, getTableColumns, gt, ilike, inArray, ne, notInArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { sandboxMedia, sandboxMetafieldDefinitions, sandboxProductMetafields, sandboxProducts, sandboxVariants } from './product.tables.js';
import { sandboxLocations } from './store.tables.js';

export type ProductRow = typeof sandboxProducts.$inferSelect;
export type VariantRow = typeof sandboxVariants.$inferSelect;
/** A media row as the answers read it: every column but the file itself, and the file's size. */
export type MediaRow = Omit<typeof sandboxMedia.$inferSelect, 'content'> & { fileSize: number | null };
export type MetafieldRow = typeof sandboxProductMetafields.$inferSelect;
export type DefinitionRow = typeof sandboxMetafieldDefinitions.$inferSelect;
export type LocationRow = typeof sandboxLocations.$inferSelect;

export type ProductValues = Pick<
  ProductRow,
  'handle' | 'title' | 'descriptionHtml' | 'vendor' | 'productType' | 'status' | 'tags' | 'seo' | 'options' | 'giftCard' | 'categoryId'
>;
export type VariantValues = Pick<
  VariantRow,
  | 'sku'
  | 'price'
  | 'compareAtPrice'
  | 'barcode'
  | 'optionValues'
  | 'inventory'
  | 'position'
  | 'inventoryPolicy'
  | 'taxable'
  | 'tracked'
  | 'requiresShipping'
  | 'unitCost'
  | 'weight'
>;

/** A value matched literally by LIKE/ILIKE (its `%`, `_` and `\` escaped). */
export const escapeLike = (s: string) => s.replace(/[%_\\]/g, '\\$&');

/** `column` equal to `base` or to `base-N` (handles made unique with a number, products' and collections' alike). */
export function handleOrNumbered(column: AnyColumn, base: string): SQL {
  return sql`(${column} = ${base} or ${column} ~ ${`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9]+$`})`;
}

/** Filters of `products(query:)`: `handle:x,y`, `title:x`, `status:x`, `sku:x`, a metafield's value, or free text on the title. */
export interface ProductFilter {
  /** Any of these handles. */
  handle?: string[];
  /**
   * `metafields.{namespace}.{key}:{value}`: products with that value. Shopify filters only by a metafield whose
   * definition has filtering enabled; the sandbox has no such switch, so it filters by any metafield that has a PRODUCT
   * definition (and by none without one: the term matches nothing).
   */
  metafield?: { namespace: string; key: string; value: string };
  title?: string;
  status?: string;
  sku?: string;
  text?: string;
}

export class SandboxProductRepository {
  constructor(private readonly db: Db) {}

  with(tx: Db): SandboxProductRepository {
    return new SandboxProductRepository(tx);
  }

  /** Serialises writers on one key for the rest of the transaction (same customId, handle or product). */
  async lock(key: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
  }

  // Locations

  async locations(storeId: number, afterId: number, limit: number): Promise<LocationRow[]> {
    return this.db
      .select()
      .from(sandboxLocations)
      .where(and(eq(sandboxLocations.storeId, storeId), gt(sandboxLocations.id, afterId)))
      .orderBy(asc(sandboxLocations.id))
      .limit(limit);
  }

  async location(storeId: number, id: number): Promise<LocationRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxLocations)
      .where(and(eq(sandboxLocations.storeId, storeId), eq(sandboxLocations.id, id)));
    return row ?? null;
  }

  /** Adds the store's "Shop location" unless it has a location (call under lock). */
  async ensureLocation(storeId: number): Promise<void> {
    const [row] = await this.db.select({ id: sandboxLocations.id }).from(sandboxLocations).where(eq(sandboxLocations.storeId, storeId)).limit(1);
    if (!row) await this.db.insert(sandboxLocations).values({ storeId, name: 'Shop location' });
  }

  // Products

  async product(storeId: number, id: number): Promise<ProductRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.id, id)));
    return row ?? null;
  }

  async productByHandle(storeId: number, handle: string): Promise<ProductRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.handle, handle)));
    return row ?? null;
  }

  async productByMetafield(storeId: number, namespace: string, key: string, value: string): Promise<ProductRow | null> {
    const [row] = await this.db
      .select({ product: sandboxProducts })
      .from(sandboxProductMetafields)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxProductMetafields.productId))
      .where(
        and(
          eq(sandboxProductMetafields.storeId, storeId),
          eq(sandboxProductMetafields.namespace, namespace),
          eq(sandboxProductMetafields.key, key),
          eq(sandboxProductMetafields.value, value),
        ),
      )
      .orderBy(asc(sandboxProducts.id))
      .limit(1);
    return row?.product ?? null;
  }

  /** Handles of the store equal to `base` or `base-N`, except the product's own. */
  async handlesLike(storeId: number, base: string, exceptId: number | null): Promise<Set<string>> {
    const rows = await this.db
      .select({ handle: sandboxProducts.handle })
      .from(sandboxProducts)
      .where(
        and(
          eq(sandboxProducts.storeId, storeId),
          handleOrNumbered(sandboxProducts.handle, base),
          exceptId === null ? undefined : ne(sandboxProducts.id, exceptId),
        ),
      );
    return new Set(rows.map((r) => r.handle));
  }

  async insertProduct(storeId: number, values: ProductValues): Promise<ProductRow> {
    const [row] = await this.db
      .insert(sandboxProducts)
      .values({ storeId, ...values })
      .returning();
    return row;
  }

  async updateProduct(id: number, values: Partial<ProductValues>): Promise<ProductRow> {
    const [row] = await this.db
      .update(sandboxProducts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(sandboxProducts.id, id))
      .returning();
    return row;
  }

  async deleteProduct(storeId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(sandboxProducts)
      .where(and(eq(sandboxProducts.storeId, storeId), eq(sandboxProducts.id, id)))
      .returning({ id: sandboxProducts.id });
    return rows.length > 0;
  }

  private filter(storeId: number, f: ProductFilter): SQL | undefined {
    return and(
      eq(sandboxProducts.storeId, storeId),
      f.handle !== undefined ? inArray(sandboxProducts.handle, f.handle.length > 0 ? f.handle : ['']) : undefined,
      f.metafield !== undefined ? this.withMetafield(storeId, f.metafield) : undefined,
      f.title !== undefined ? ilike(sandboxProducts.title, escapeLike(f.title)) : undefined,
      f.status !== undefined ? eq(sandboxProducts.status, f.status.toUpperCase()) : undefined,
      f.text !== undefined ? ilike(sandboxProducts.title, `%${escapeLike(f.text)}%`) : undefined,
      f.sku !== undefined
        ? inArray(sandboxProducts.id, this.db.select({ id: sandboxVariants.productId }).from(sandboxVariants).where(eq(sandboxVariants.sku, f.sku)))
        : undefined,
    );
  }

  /** Products of the store carrying this metafield value, where the store has a PRODUCT definition for it. */
  private withMetafield(storeId: number, m: NonNullable<ProductFilter['metafield']>): SQL {
    const defined = this.db
      .select({ one: sql`1` })
      .from(sandboxMetafieldDefinitions)
      .where(
        and(
          eq(sandboxMetafieldDefinitions.storeId, storeId),
          eq(sandboxMetafieldDefinitions.ownerType, 'PRODUCT'),
          eq(sandboxMetafieldDefinitions.namespace, m.namespace),
          eq(sandboxMetafieldDefinitions.key, m.key),
        ),
      );
    const carrying = this.db
      .select({ id: sandboxProductMetafields.productId })
      .from(sandboxProductMetafields)
      .where(
        and(
          eq(sandboxProductMetafields.storeId, storeId),
          eq(sandboxProductMetafields.namespace, m.namespace),
          eq(sandboxProductMetafields.key, m.key),
          eq(sandboxProductMetafields.value, m.value),
        ),
      );
    return and(exists(defined), inArray(sandboxProducts.id, carrying))!;
  }

  async products(storeId: number, f: ProductFilter, afterId: number, limit: number): Promise<ProductRow[]> {
    return this.db
      .select()
      .from(sandboxProducts)
      .where(and(this.filter(storeId, f), gt(sandboxProducts.id, afterId)))
      .orderBy(asc(sandboxProducts.id))
      .limit(limit);
  }

  async countProducts(storeId: number, f: ProductFilter): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sandboxProducts).where(this.filter(storeId, f));
    return Number(row.n);
  }

  // Variants

  /** Every variant of the store (the variant throttle counts them). */
  async countStoreVariants(storeId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(eq(sandboxProducts.storeId, storeId));
    return Number(row.n);
  }

  async variants(productId: number, afterPosition: number, limit: number): Promise<VariantRow[]> {
    return this.db
      .select()
      .from(sandboxVariants)
      .where(and(eq(sandboxVariants.productId, productId), gt(sandboxVariants.position, afterPosition)))
      .orderBy(asc(sandboxVariants.position))
      .limit(limit);
  }

  /** Every variant of these products, by product and position (a bulk query reads a page of products' lists at once). */
  async variantsOfProducts(productIds: number[]): Promise<VariantRow[]> {
    if (productIds.length === 0) return [];
    return this.db
      .select()
      .from(sandboxVariants)
      .where(inArray(sandboxVariants.productId, productIds))
      .orderBy(asc(sandboxVariants.productId), asc(sandboxVariants.position));
  }

  async variantWithProduct(storeId: number, variantId: number): Promise<{ variant: VariantRow; product: ProductRow } | null> {
    const [row] = await this.db
      .select({ variant: sandboxVariants, product: sandboxProducts })
      .from(sandboxVariants)
      .innerJoin(sandboxProducts, eq(sandboxProducts.id, sandboxVariants.productId))
      .where(and(eq(sandboxVariants.id, variantId), eq(sandboxProducts.storeId, storeId)));
    return row ?? null;
  }

  async variantIds(productId: number): Promise<number[]> {
    const rows = await this.db.select({ id: sandboxVariants.id }).from(sandboxVariants).where(eq(sandboxVariants.productId, productId));
    return rows.map((r) => r.id);
  }

  async countVariants(productId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sandboxVariants).where(eq(sandboxVariants.productId, productId));
    return Number(row.n);
  }

  /** Changes only the given fields of one of the product's variants (productVariantsBulkUpdate); null when it is not the product's. */
  async updateVariantFields(
    productId: number,
    id: number,
    values: Partial<
      Pick<VariantRow, 'sku' | 'price' | 'compareAtPrice' | 'barcode' | 'inventoryPolicy' | 'taxable' | 'tracked' | 'requiresShipping' | 'unitCost' | 'weight'>
    >,
  ): Promise<VariantRow | null> {
    const [row] = await this.db
      .update(sandboxVariants)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(sandboxVariants.productId, productId), eq(sandboxVariants.id, id)))
      .returning();
    return row ?? null;
  }

  /**
   * Replaces the product's variants: kept ones (with `id`) updated in one statement, new ones inserted, the rest deleted.
   * `isNew`: the product was just made, there is nothing to delete (one statement less per create, bulk runs).
   * Returns the new rows (for a new product, all of its variants).
   */
  async replaceVariants(productId: number, variants: (VariantValues & { id?: number })[], isNew = false): Promise<VariantRow[]> {
    const kept = variants.filter((v) => v.id !== undefined);
    if (!isNew)
      await this.db.delete(sandboxVariants).where(
        and(
          eq(sandboxVariants.productId, productId),
          kept.length
            ? notInArray(
                sandboxVariants.id,
                kept.map((v) => v.id!),
              )
            : undefined,
        ),
      );
    if (kept.length) {
      const rows = JSON.stringify(
        kept.map((v) => ({
          id: v.id,
          sku: v.sku,
          price: v.price,
          compare_at_price: v.compareAtPrice,
          barcode: v.barcode,
          option_values: v.optionValues,
          inventory: v.inventory,
          position: v.position,
          inventory_policy: v.inventoryPolicy,
          taxable: v.taxable,
          tracked: v.tracked,
          requires_shipping: v.requiresShipping,
          unit_cost: v.unitCost,
          weight: v.weight,
        })),
      );
      await this.db.execute(sql`
        update sandbox_variants v set sku = x.sku, price = x.price, compare_at_price = x.compare_at_price, barcode = x.barcode,
          option_values = x.option_values, inventory = x.inventory, position = x.position, inventory_policy = x.inventory_policy,
          taxable = x.taxable, tracked = x.tracked, requires_shipping = x.requires_shipping, unit_cost = x.unit_cost, weight = x.weight,
          updated_at = now()
        from jsonb_to_recordset(${rows}::jsonb) as x(id bigint, sku text, price text, compare_at_price text, barcode text, option_values jsonb,
          inventory jsonb, position int, inventory_policy text, taxable boolean, tracked boolean, requires_shipping boolean, unit_cost text,
          weight jsonb)
        where v.id = x.id and v.product_id = ${productId}`);
    }
    const fresh = variants.filter((v) => v.id === undefined).map(({ id: _id, ...values }) => ({ productId, ...values }));
    return fresh.length ? this.db.insert(sandboxVariants).values(fresh).returning() : [];
  }

  /** Sets the media of some of the product's variants (ProductVariantSetInput.file; null detaches it). */
  async setVariantMedia(productId: number, pairs: { id: number; mediaId: number | null }[]): Promise<void> {
    if (!pairs.length) return;
    await this.db.execute(sql`
      update sandbox_variants v set media_id = x.media_id, updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(pairs.map((p) => ({ id: p.id, media_id: p.mediaId })))}::jsonb) as x(id bigint, media_id bigint)
      where v.id = x.id and v.product_id = ${productId}`);
  }

  // Media

  async media(productId: number, afterPosition: number, limit: number): Promise<MediaRow[]> {
    const { content, ...columns } = getTableColumns(sandboxMedia);
    const rows = await this.db
      .select({ ...columns, fileSize: sql<number | null>`octet_length(${content})` })
      .from(sandboxMedia)
      .where(and(eq(sandboxMedia.productId, productId), gt(sandboxMedia.position, afterPosition)))
      .orderBy(asc(sandboxMedia.position))
      .limit(limit);
    return rows.map((r) => ({ ...r, fileSize: r.fileSize === null ? null : Number(r.fileSize) }));
  }

  /** Every media of these products, by product and position. */
  async mediaOfProducts(productIds: number[]): Promise<MediaRow[]> {
    if (productIds.length === 0) return [];
    const { content, ...columns } = getTableColumns(sandboxMedia);
    const rows = await this.db
      .select({ ...columns, fileSize: sql<number | null>`octet_length(${content})` })
      .from(sandboxMedia)
      .where(inArray(sandboxMedia.productId, productIds))
      .orderBy(asc(sandboxMedia.productId), asc(sandboxMedia.position));
    return rows.map((r) => ({ ...r, fileSize: r.fileSize === null ? null : Number(r.fileSize) }));
  }

  async mediaIds(productId: number): Promise<number[]> {
    const rows = await this.db.select({ id: sandboxMedia.id }).from(sandboxMedia).where(eq(sandboxMedia.productId, productId));
    return rows.map((r) => r.id);
  }

  async countMedia(productId: number): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(sandboxMedia).where(eq(sandboxMedia.productId, productId));
    return Number(row.n);
  }

  /**
   * Replaces the product's media: `{id}` keeps (and re-positions) a media, `{originalSource}` adds a new one (with
   * status UPLOADED, the column's default); the new media's rows (for a new product, all of its media).
   */
  async replaceMedia(
    productId: number,
    files: ({ id: number; alt?: string | null } | { originalSource: string; alt: string | null; filename: string })[],
    isNew = false,
  ): Promise<MediaRow[]> {
    const kept = files.flatMap((f, i) => ('id' in f ? [{ id: f.id, position: i + 1, alt: f.alt, setAlt: f.alt !== undefined }] : []));
    if (!isNew)
      await this.db.delete(sandboxMedia).where(
        and(
          eq(sandboxMedia.productId, productId),
          kept.length
            ? notInArray(
                sandboxMedia.id,
                kept.map((k) => k.id),
              )
            : undefined,
        ),
      );
    if (kept.length) {
      await this.db.execute(sql`
        update sandbox_media m set position = x.position, alt = case when x.set_alt then x.alt else m.alt end
        from jsonb_to_recordset(${JSON.stringify(kept.map((k) => ({ id: k.id, position: k.position, alt: k.alt ?? null, set_alt: k.setAlt })))}::jsonb)
          as x(id bigint, position int, alt text, set_alt boolean)
        where m.id = x.id and m.product_id = ${productId}`);
    }
    const fresh = files.flatMap((f, i) =>
      'originalSource' in f ? [{ productId, originalSource: f.originalSource, alt: f.alt, filename: f.filename, position: i + 1 }] : [],
    );
    if (!fresh.length) return [];
    const { content: _content, ...columns } = getTableColumns(sandboxMedia);
    return (await this.db.insert(sandboxMedia).values(fresh).returning(columns)).map((r) => ({ ...r, fileSize: null }));
  }

  // Metafields and definitions

  async metafields(productId: number): Promise<MetafieldRow[]> {
    return this.db.select().from(sandboxProductMetafields).where(eq(sandboxProductMetafields.productId, productId)).orderBy(asc(sandboxProductMetafields.id));
  }

  /** Every metafield of these products, by product and id. */
  async metafieldsOfProducts(productIds: number[]): Promise<MetafieldRow[]> {
    if (productIds.length === 0) return [];
    return this.db
      .select()
      .from(sandboxProductMetafields)
      .where(inArray(sandboxProductMetafields.productId, productIds))
      .orderBy(asc(sandboxProductMetafields.productId), asc(sandboxProductMetafields.id));
  }

  /** Replaces the product's metafields (by namespace and key: an unchanged key keeps its id). */
  async replaceMetafields(
    storeId: number,
    productId: number,
    fields: { namespace: string; key: string; type: string; value: string }[],
    isNew = false,
  ): Promise<void> {
    const wanted = [...new Map(fields.map((f) => [`${f.namespace}\u0000${f.key}`, f])).values()];
    if (!isNew)
      await this.db.execute(sql`
      delete from sandbox_product_metafields m where m.product_id = ${productId}
        and not exists (select 1 from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(namespace text, key text) where x.namespace = m.namespace and x.key = m.key)`);
    if (wanted.length) {
      await this.db
        .insert(sandboxProductMetafields)
        .values(wanted.map((f) => ({ storeId, productId, ...f })))
        .onConflictDoUpdate({
          target: [sandboxProductMetafields.productId, sandboxProductMetafields.namespace, sandboxProductMetafields.key],
          set: { type: sql`excluded.type`, value: sql`excluded.value`, updatedAt: sql`now()` },
        });
    }
  }

  /** Whether any product of the store has a metafield with this namespace and key. */
  async hasMetafields(storeId: number, namespace: string, key: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxProductMetafields.id })
      .from(sandboxProductMetafields)
      .where(and(eq(sandboxProductMetafields.storeId, storeId), eq(sandboxProductMetafields.namespace, namespace), eq(sandboxProductMetafields.key, key)))
      .limit(1);
    return row !== undefined;
  }

  /** Another product of the store holding this metafield value. */
  async metafieldValueTaken(storeId: number, namespace: string, key: string, value: string, exceptProductId: number | null): Promise<boolean> {
    const [row] = await this.db
      .select({ id: sandboxProductMetafields.id })
      .from(sandboxProductMetafields)
      .where(
        and(
          eq(sandboxProductMetafields.storeId, storeId),
          eq(sandboxProductMetafields.namespace, namespace),
          eq(sandboxProductMetafields.key, key),
          eq(sandboxProductMetafields.value, value),
          exceptProductId === null ? undefined : ne(sandboxProductMetafields.productId, exceptProductId),
        ),
      )
      .limit(1);
    return !!row;
  }

  async definition(storeId: number, ownerType: string, namespace: string, key: string): Promise<DefinitionRow | null> {
    const [row] = await this.db
      .select()
      .from(sandboxMetafieldDefinitions)
      .where(
        and(
          eq(sandboxMetafieldDefinitions.storeId, storeId),
          eq(sandboxMetafieldDefinitions.ownerType, ownerType),
          eq(sandboxMetafieldDefinitions.namespace, namespace),
          eq(sandboxMetafieldDefinitions.key, key),
        ),
      );
    return row ?? null;
  }

  async definitions(storeId: number, ownerType: string): Promise<DefinitionRow[]> {
    return this.db
      .select()
      .from(sandboxMetafieldDefinitions)
      .where(and(eq(sandboxMetafieldDefinitions.storeId, storeId), eq(sandboxMetafieldDefinitions.ownerType, ownerType)));
  }

  /** A new definition; null when (owner type, namespace, key) is taken. */
  async insertDefinition(values: Omit<DefinitionRow, 'id' | 'createdAt'>): Promise<DefinitionRow | null> {
    const rows = await this.db.insert(sandboxMetafieldDefinitions).values(values).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }
}
